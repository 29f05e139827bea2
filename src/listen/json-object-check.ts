// Whether a body is one JSON object, decided from its bytes without building it. The NDJSON
// line is made from the body's text, so on that path the parsed object was only ever a check;
// JSON.parse spent more on building it (every key and short value interned) than on checking.
// The object is still there for whoever asks (a filter, a forward, a terminal line): the
// delivery parses it then. Checked against JSON.parse on generated and mutated bodies in
// test/unit/listen-json-object-check.test.ts.
//
// Reading bytes rather than the decoded text is exact: outside strings JSON allows only ASCII,
// so any byte from 0x80 up is an error there both ways; inside a string every such byte decodes
// to characters from U+0080 up (or U+FFFD), never a quote, a backslash or a control character,
// and the UTF-8 decoder never swallows an ASCII byte into a bad sequence (WHATWG decoding).

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

// What may come next: a value (after a colon, or a comma in an array), a value or `]` (just
// after `[`), a key (after a comma in an object), a key or `}` (just after `{`), or `,` or the
// close of the innermost container.
const VALUE = 0;
const VALUE_OR_END = 1;
const KEY = 2;
const KEY_OR_END = 3;
const COMMA_OR_END = 4;

/** Open containers, innermost last: 1 for an object, 0 for an array. Grown for deep bodies. */
let open: Uint8Array = new Uint8Array(64);

/**
 * True when JSON.parse of `bytes` decoded as UTF-8 would return an object (not an array, not
 * null). False for anything else, including valid JSON of another kind: the caller parses
 * those to say which.
 */
export function isJsonObjectBytes(bytes: Uint8Array): boolean {
  const n = bytes.length;
  let i = skipSpace(bytes, 0, n);
  if (i >= n || bytes[i] !== OPEN_OBJECT) return false;
  let depth = 0;
  let next = KEY_OR_END;
  open[depth++] = 1;
  i++;
  while (depth > 0) {
    i = skipSpace(bytes, i, n);
    if (i >= n) return false;
    const c = bytes[i]!;
    if (next === KEY || next === KEY_OR_END) {
      if (c === CLOSE_OBJECT && next === KEY_OR_END) {
        depth--;
        i++;
        next = COMMA_OR_END;
        continue;
      }
      if (c !== QUOTE) return false;
      i = skipString(bytes, i + 1, n);
      if (i < 0) return false;
      i = skipSpace(bytes, i, n);
      if (i >= n || bytes[i] !== COLON) return false;
      i++;
      next = VALUE;
      continue;
    }
    if (next === COMMA_OR_END) {
      const inObject = open[depth - 1] === 1;
      if (c === COMMA) {
        next = inObject ? KEY : VALUE;
        i++;
        continue;
      }
      if (c !== (inObject ? CLOSE_OBJECT : CLOSE_ARRAY)) return false;
      depth--;
      i++;
      continue;
    }
    // A value.
    if (c === QUOTE) {
      i = skipString(bytes, i + 1, n);
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth === open.length) open = grown(open);
      open[depth++] = c === OPEN_OBJECT ? 1 : 0;
      next = c === OPEN_OBJECT ? KEY_OR_END : VALUE_OR_END;
      i++;
      continue;
    } else if (c === CLOSE_ARRAY && next === VALUE_OR_END) {
      depth--;
      i++;
      next = COMMA_OR_END;
      continue;
    } else {
      i = skipLiteralOrNumber(bytes, i, n, c);
    }
    if (i < 0) return false;
    next = COMMA_OR_END;
  }
  return skipSpace(bytes, i, n) === n;
}

/** Past JSON whitespace (space, tab, LF, CR). */
function skipSpace(b: Uint8Array, i: number, n: number): number {
  while (i < n) {
    const c = b[i]!;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}

/** From just after an opening quote to just after the closing one; -1 when not a JSON string. */
function skipString(b: Uint8Array, i: number, n: number): number {
  while (i < n) {
    const c = b[i++]!;
    if (c === QUOTE) return i;
    if (c < 0x20) return -1;
    if (c !== BACKSLASH) continue;
    if (i >= n) return -1;
    const e = b[i++]!;
    if (e === 0x75) {
      // \uXXXX
      if (i + 4 > n) return -1;
      for (const end = i + 4; i < end; i++) if (!isHexDigit(b[i]!)) return -1;
    } else if (e !== QUOTE && e !== BACKSLASH && e !== 0x2f && e !== 0x62 && e !== 0x66 && e !== 0x6e && e !== 0x72 && e !== 0x74) {
      return -1;
    }
  }
  return -1;
}

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL = [0x6e, 0x75, 0x6c, 0x6c];

/** Past true, false, null or a number starting at i; -1 when none is there. */
function skipLiteralOrNumber(b: Uint8Array, i: number, n: number, c: number): number {
  if (c === 0x74) return skipWord(b, i, n, TRUE);
  if (c === 0x66) return skipWord(b, i, n, FALSE);
  if (c === 0x6e) return skipWord(b, i, n, NULL);
  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  if (c === 0x2d) i++;
  if (i >= n) return -1;
  if (b[i] === 0x30) i++;
  else if (isDigit(b[i]!)) i = skipDigits(b, i, n);
  else return -1;
  if (i < n && b[i] === 0x2e) {
    const start = ++i;
    i = skipDigits(b, i, n);
    if (i === start) return -1;
  }
  if (i < n && (b[i] === 0x65 || b[i] === 0x45)) {
    i++;
    if (i < n && (b[i] === 0x2b || b[i] === 0x2d)) i++;
    const start = i;
    i = skipDigits(b, i, n);
    if (i === start) return -1;
  }
  return i;
}

function skipWord(b: Uint8Array, i: number, n: number, word: number[]): number {
  if (i + word.length > n) return -1;
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word[k]) return -1;
  return i + word.length;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function skipDigits(b: Uint8Array, i: number, n: number): number {
  while (i < n && isDigit(b[i]!)) i++;
  return i;
}

function grown(stack: Uint8Array): Uint8Array {
  const bigger = new Uint8Array(stack.length * 2);
  bigger.set(stack);
  return bigger;
}
