// How deep a JSON text nests, found by scanning its bytes (no parse, no recursion): JSON.parse
// accepts 5,000 levels that JSON.stringify then cannot write back, so a body nested past the
// limit is refused before anything of it is stored.

export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether the text nests objects and arrays deeper than `max` (strings are skipped). */
export function tooDeep(text: Uint8Array, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}
