// A text too long for one post, split into a thread: at paragraph boundaries first, then at
// sentence boundaries, then between words, each part within the platform's limit as that platform
// counts it (src/wire/text-limits.ts: X's weights and URLs, Bluesky's graphemes and bytes,
// Threads' emoji bytes). Lines holding only `---` mark the parts by hand. A word longer than a
// whole part (a very long URL on a platform that counts it whole) is cut, the one case where a
// part does not end on a boundary.
import type { Platform } from '../wire/platforms.js';
import { judgeText } from '../wire/text-limits.js';

/** A line holding only `---` (spaces around it allowed) separates parts written by hand. */
const MARKER = /^[ \t]*---[ \t]*$/m;
const MARKER_ALONE = /^[ \t]*---[ \t]*\r?\n?$/;

export const hasPartMarkers = (text: string) => MARKER.test(text);

/**
 * The parts marked by `---` lines, each trimmed; empty parts dropped. Read a line at a time: two
 * marker lines in a row share a line break, which a split on "newline, ---, newline" would take
 * for the first and then leave the second `---` in the text of a part.
 */
export function markedParts(text: string): string[] {
  const parts: string[] = [];
  let part = '';
  for (const line of text.split(/(?<=\n)/)) {
    if (MARKER_ALONE.test(line)) {
      parts.push(part);
      part = '';
    } else part += line;
  }
  parts.push(part);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** The text without its `---` lines: what a platform without threads is given. */
export function joinMarked(text: string): string {
  return markedParts(text).join('\n\n');
}

const fits = (platform: Platform, text: string) => {
  const v = judgeText(platform, text);
  return v.over === 0 && v.bytesOver === undefined;
};

/**
 * The parts of a thread for this platform: the marked parts when the text has `---` lines (each
 * split further if it is still too long), else the text itself when it fits, else split.
 */
export function splitThread(platform: Platform, text: string): string[] {
  const pieces = hasPartMarkers(text) ? markedParts(text) : [text.trim()];
  return pieces.flatMap((p) => (fits(platform, p) ? [p] : split(platform, p)));
}

// Levels of boundaries, coarsest first, with what joins two pieces of that level again.
const PARAGRAPHS = { pattern: /\n[ \t]*\n\s*/, glue: '\n\n' };
// A sentence ends with . ! ? … (and closing quotes or brackets) before white space.
const SENTENCES = { pattern: /(?<=[.!?…]["'”’)\]]*)\s+/, glue: ' ' };
const WORDS = { pattern: /\s+/, glue: ' ' };
const LEVELS = [PARAGRAPHS, SENTENCES, WORDS];

function split(platform: Platform, text: string, level = 0): string[] {
  if (level >= LEVELS.length) return cutWord(platform, text);
  const { pattern, glue } = LEVELS[level]!;
  const pieces = text.split(pattern).filter((p) => p.trim() !== '');
  const parts: string[] = [];
  let current = '';
  for (const piece of pieces) {
    const joined = current === '' ? piece : `${current}${glue}${piece}`;
    if (fits(platform, joined)) {
      current = joined;
      continue;
    }
    if (current !== '') parts.push(current);
    if (fits(platform, piece)) current = piece;
    else {
      // Too long on its own: split it at the next level; its last part may take what follows.
      const inner = split(platform, piece, level + 1);
      current = inner.pop() ?? '';
      parts.push(...inner);
    }
  }
  if (current !== '') parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** A single word longer than a part: cut at the last character that fits (by code points). */
function cutWord(platform: Platform, word: string): string[] {
  const chars = Array.from(word);
  const parts: string[] = [];
  let start = 0;
  while (start < chars.length) {
    let lo = start + 1;
    let hi = chars.length;
    // The longest prefix that fits (binary search: counting is not linear for every unit).
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(platform, chars.slice(start, mid).join(''))) lo = mid;
      else hi = mid - 1;
    }
    parts.push(chars.slice(start, lo).join(''));
    start = lo;
  }
  return parts;
}
