// A text too long for one post, split into a thread: at paragraph boundaries first, then at
// sentence boundaries (a Chinese or Japanese one needs no space after it), then between words, each part within the platform's limit as that platform
// counts it (src/wire/text-limits.ts: X's weights and URLs, Bluesky's graphemes and bytes,
// Threads' emoji bytes). Lines holding only `---` mark the parts by hand. A URL (as the
// counters find URLs, text-length.ts) is one word that is never cut while it fits a part, even
// inside a run of text without spaces (CJK). A word or URL longer than a whole part is cut, the
// one case where a part does not end on a boundary: each such cut is returned to be said.
import type { Platform } from '../wire/platforms.js';
import { graphemes, urlSpans } from '../wire/text-length.js';
import { judgeText, unitWord } from '../wire/text-limits.js';

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
 * A run of text without white space cut between two parts: a word or URL longer than a whole
 * part, or (`unspaced`) Chinese or Japanese writing, which puts no spaces between its words.
 */
export interface ThreadCut {
  /** The part (1 = the first) that ends inside the run; the next part takes the rest. */
  part: number;
  kind: 'url' | 'word' | 'unspaced';
  /** The whole word or URL as the text had it. */
  word: string;
}

export interface ThreadSplit {
  parts: string[];
  cuts: ThreadCut[];
}

/**
 * The parts of a thread for this platform: the marked parts when the text has `---` lines (each
 * split further if it is still too long), else the text itself when it fits, else split.
 */
export function splitThread(platform: Platform, text: string): string[] {
  return splitThreadWithCuts(platform, text).parts;
}

/** The parts, and every word or URL that had to be cut across two of them. */
export function splitThreadWithCuts(platform: Platform, text: string): ThreadSplit {
  const pieces = hasPartMarkers(text) ? markedParts(text) : [text.trim()];
  const parts: string[] = [];
  const cuts: ThreadCut[] = [];
  for (const piece of pieces) {
    if (fits(platform, piece)) {
      parts.push(piece);
      continue;
    }
    const own = split(platform, piece);
    for (const c of cutsIn(piece, own)) cuts.push({ ...c, part: c.part + parts.length });
    parts.push(...own);
  }
  return { parts, cuts };
}

/** A cut in words: the warning `--thread` prints and the warning row `posts check` shows. */
export function cutWarning(platform: Platform, cut: ThreadCut): { message: string; fix: string; actual: string; limit: string } {
  const v = judgeText(platform, cut.word);
  // Too long by Bluesky's byte ceiling rather than its count: said in bytes.
  const [size, limit] = v.over === 0 && v.bytesOver ? [`${v.bytesOver.length} UTF-8 bytes`, `${v.bytesOver.max} bytes`] : [`${v.count.length} ${unitWord(platform, v.count.length)}`, String(v.limit)];
  const chars = Array.from(cut.word);
  const shown = chars.length > 60 ? `${chars.slice(0, 40).join('')}…${chars.slice(-12).join('')}` : cut.word;
  const where = `between thread parts ${cut.part} and ${cut.part + 1}`;
  return cut.kind === 'url'
    ? { message: `a URL of ${size} is longer than a whole part (${limit}) and is cut ${where}, so neither part holds a working link: ${shown}`, fix: 'shorten the link (a link shortener, or without its tracking parameters)', actual: size, limit: `≤ ${limit}` }
    : { message: `a word of ${size} is longer than a whole part (${limit}) and is cut ${where}: ${shown}`, fix: 'put a space where it may be cut, or mark the parts by hand with --- lines', actual: size, limit: `≤ ${limit}` };
}

/**
 * The end of a Chinese or Japanese sentence: 。！？ or the halfwidth ｡, and the closing quotes or
 * brackets after it. That writing puts no space after it, so none is needed to end a sentence.
 */
const CJK_SENTENCE_END = /[。！？｡][」』）】〕〉》”’)\]]*$/;

/** Writing without spaces between words (Chinese, Japanese): a cut next to it is no word cut. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;

/** The cuts to be said: those through a word or URL, not those between Chinese or Japanese characters. */
export const cutsToSay = (cuts: readonly ThreadCut[]) => cuts.filter((c) => c.kind !== 'unspaced');

/**
 * Where consecutive parts meet inside a word of the text. The splitter changes only white space
 * (trimmed, glued again), so the parts' other characters are the text's, in order: a part that
 * ends right before a character that is not white space in the text ends inside a word.
 */
function cutsIn(text: string, parts: readonly string[]): ThreadCut[] {
  const cuts: ThreadCut[] = [];
  let at = 0;
  let spans: ReturnType<typeof urlSpans> | undefined;
  parts.slice(0, -1).forEach((part, i) => {
    for (const ch of part) {
      if (/\s/.test(ch)) continue;
      while (/\s/.test(text[at]!)) at++;
      at += ch.length;
    }
    // Between two parts at white space, or after a Chinese or Japanese sentence: no word is cut.
    if (at >= text.length || /\s/.test(text[at]!) || CJK_SENTENCE_END.test(part)) return;
    spans ??= urlSpans(text);
    const url = spans.find((u) => u.start < at && at < u.end);
    if (url) {
      cuts.push({ part: i + 1, kind: 'url', word: text.slice(url.start, url.end) });
      return;
    }
    const start = text.slice(0, at).search(/\S*$/);
    const end = at + text.slice(at).search(/\s|$/);
    const unspaced = UNSPACED.test(Array.from(text.slice(Math.max(0, at - 2), at)).pop()!) || UNSPACED.test(String.fromCodePoint(text.codePointAt(at)!));
    cuts.push({ part: i + 1, kind: unspaced ? 'unspaced' : 'word', word: text.slice(start, end) });
  });
  return cuts;
}

// Levels of boundaries, coarsest first, with what joins two pieces of that level again. Each
// pattern is one capturing group, the separator: split keeps it, and a piece whose separator was
// empty (a CJK sentence end with nothing after it) is joined again with nothing.
const PARAGRAPHS = { pattern: /(\n[ \t]*\n\s*)/, glue: '\n\n' };
// A sentence ends with . ! ? … (and closing quotes or brackets) before white space; a Chinese or
// Japanese one with 。！？ or the halfwidth ｡ (and its closing marks), which that writing follows
// with no space: before anything but another closing mark.
const SENTENCES = { pattern: /((?<=[.!?…]["'”’)\]]*)\s+|(?<=[。！？｡][」』）】〕〉》”’)\]]*)(?![」』）】〕〉》”’)\]])\s*)/u, glue: ' ' };
const WORDS = { pattern: /(\s+)/, glue: ' ' };
const LEVELS = [PARAGRAPHS, SENTENCES, WORDS];

/** The pieces between separators, each with the glue that joins it to the one before. */
function piecesOf(text: string, level: (typeof LEVELS)[number]): Array<{ piece: string; glue: string }> {
  const split = text.split(level.pattern);
  const pieces: Array<{ piece: string; glue: string }> = [];
  for (let i = 0; i < split.length; i += 2) {
    if (split[i]!.trim() === '') continue;
    pieces.push({ piece: split[i]!, glue: i > 0 && split[i - 1] === '' ? '' : level.glue });
  }
  return pieces;
}

function split(platform: Platform, text: string, level = 0): string[] {
  if (level >= LEVELS.length) return cutWord(platform, text);
  const parts: string[] = [];
  let current = '';
  for (const { piece, glue } of piecesOf(text, LEVELS[level]!)) {
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

/**
 * A single word longer than a part (or a run of text without spaces): cut after the last
 * character that fits. A URL in it that fits a part is one unit, never cut; one longer than a
 * whole part is cut like any other characters. Characters are grapheme clusters, so an emoji is
 * never cut in two.
 */
function cutWord(platform: Platform, word: string): string[] {
  const units: string[] = [];
  let last = 0;
  for (const { start, end } of urlSpans(word)) {
    units.push(...graphemes(word.slice(last, start)));
    const url = word.slice(start, end);
    if (fits(platform, url)) units.push(url);
    else units.push(...graphemes(url));
    last = end;
  }
  units.push(...graphemes(word.slice(last)));
  const parts: string[] = [];
  let start = 0;
  while (start < units.length) {
    let lo = start + 1;
    let hi = units.length;
    // The longest prefix that fits (binary search: counting is not linear for every unit).
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(platform, units.slice(start, mid).join(''))) lo = mid;
      else hi = mid - 1;
    }
    parts.push(units.slice(start, lo).join(''));
    start = lo;
  }
  return parts;
}
