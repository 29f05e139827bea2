// Text length as each platform counts it (the unit and its source are named per platform in
// platforms.ts). Pure and dependency-free: the client checks with it before sending, the sandbox
// judges with it as the service would, and the prompt's "N of LIMIT" hint shows it.
//
// X: our own implementation of the published twitter-text v3 configuration rather than the
// `twitter-text` package: that package (3.1.0, last released 2019) pulls core-js 2,
// @babel/runtime, punycode and a Unicode 11 emoji parser into every post validation, while the
// rules themselves are a short table (below) plus URL and emoji recognition.
import { patternOnFirstUse } from './pattern-on-first-use.js';

export type TextUnit = 'x-weighted' | 'graphemes' | 'utf16' | 'code-points' | 'threads' | 'utf8-bytes';

export interface TextCount {
  /** The length in the platform's unit. */
  length: number;
  unit: TextUnit;
  /** What made the count differ from what a reader sees, e.g. "2 URLs count 23 each". */
  reasons: string[];
}

// twitter-text v3 configuration: scale 100, default weight 200, these ranges weigh 100,
// every URL counts transformedURLLength (23), emoji count as one unit of default weight.
const X_LIGHT_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0, 4351],
  [8192, 8205],
  [8208, 8223],
  [8242, 8247],
];
const X_URL_LENGTH = 23;

// Code points that can join a neighbour into one cluster (UAX #29: Extend and SpacingMark, ZWJ,
// Prepend, Hangul jamo, flags, emoji and their modifiers) and CR LF. A text without any is one
// cluster per code point, so the segmenter (tens of ms to load its data) is not needed.
const clustering = patternOnFirstUse(
  () => /[\p{M}\u200c\u200d\ufe00-\ufe0f\u20e3\u0e33\u0eb3\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}]|\r\n/u,
);

let segmenter: Intl.Segmenter | undefined;
/**
 * Intl.Segmenter slows down far more than linearly on long texts (100,000 characters of emoji or
 * accented letters take seconds to over a minute), so a long text is segmented a piece at a time.
 * Each piece starts on a cluster boundary; its last cluster, which may go on past the piece, is
 * left for the next one, so the clusters are exactly those of the whole text.
 */
const PIECE = 2048;
/** ASCII holds no joining character but CR LF: such a text (most posts in English) needs no property class. */
const ASCII = /^[\x00-\x7f]*$/;
const mayCluster = (text: string) => (ASCII.test(text) ? text.includes('\r\n') : clustering().test(text));
export function graphemes(text: string): string[] {
  if (!mayCluster(text)) return Array.from(text);
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const out: string[] = [];
  for (let start = 0; start < text.length; ) {
    const clusters = Array.from(segmenter.segment(text.slice(start, start + PIECE)), (s) => s.segment);
    const done = start + PIECE >= text.length || clusters.length === 1;
    if (!done) clusters.pop();
    for (const c of clusters) {
      out.push(c);
      start += c.length;
    }
  }
  return out;
}

const pictograph = patternOnFirstUse(() => /\p{Extended_Pictographic}/u);
const regional = patternOnFirstUse(() => /\p{Regional_Indicator}/u);
const cjkCharacter = patternOnFirstUse(() => /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}\u3000-\u303f\uff00-\uffef]$/u);

/**
 * Whether a grapheme cluster is an emoji: a pictograph (with any skin tone, variation selector or
 * ZWJ sequence it carries), a flag or a keycap. A lone © or ® stays an ordinary Latin-1 character
 * unless it asks for emoji presentation (U+FE0F), as X's counter treats text-style symbols.
 */
export function isEmoji(cluster: string): boolean {
  const first = cluster.codePointAt(0)!;
  // One ASCII character is never one (a keycap is three code points): no property class is needed.
  if (first < 0x80 && cluster.length === 1) return false;
  if (regional().test(cluster) || cluster.includes('\u20e3')) return true;
  if (!pictograph().test(cluster)) return false;
  return first > 0xff || cluster.includes('\ufe0f');
}

const utf8 = new TextEncoder();
const utf8Bytes = (text: string) => utf8.encode(text).byteLength;

function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

// URLs as X finds them: with http(s):// any valid host; without a scheme, hosts ending in a
// common top-level domain (X knows every TLD; write the scheme to be sure a URL counts 23).
// Domain characters are written as ranges they are not (ASCII and CJK punctuation, spaces, arrows,
// dingbats, astral emoji) rather than \p{L}\p{N}: the property tables made this pattern ten times
// slower to compile (~10 ms CPU against ~1 ms).
const NOT_DOMAIN =
  '\\s\\x00-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\xbf\\u2000-\\u206f\\u2190-\\u21ff\\u2700-\\u27bf\\u2b00-\\u2bff\\u3000-\\u303f\\ufe30-\\ufe4f\\uff00-\\uff0f\\uff1a-\\uff20\\uff3b-\\uff40\\uff5b-\\uff65\\u{10000}-\\u{10ffff}';
const DOMAIN_CHAR = `[^${NOT_DOMAIN}]`;
const DOMAIN_INNER = `(?:${DOMAIN_CHAR}|[_-])`;
const LABEL = `${DOMAIN_CHAR}(?:${DOMAIN_INNER}{0,61}${DOMAIN_CHAR})?`;
const TLD = `[^${NOT_DOMAIN}0-9]{2,63}`;
const ASCII_LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
// No "i" flag: with "u" it folds case across the negated ranges above (k matches the Kelvin sign).
const anyCase = (word: string) => word.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`);
const BARE_TLDS = 'com|net|org|edu|gov|mil|int|info|biz|io|co|ai|dev|app|me|tv|ly|gg|xyz|news|blog|shop|site|online|tech|us|uk|de|fr|jp|cn|in|br|ru|it|es|nl|ca|au|ch|se|no|dk|fi|pl|be|at|ie|nz|kr|mx';
// Path characters as twitter-text takes them: printable ASCII but " < >, and Latin and Cyrillic
// letters; a trailing . , ! ? ; : ' ( ) [ ] ends the sentence, not the URL.
const PATH_CHAR = '!#-;=?-~\\u00c0-\\u024f\\u0400-\\u04ff\\u1e00-\\u1eff';
const PATH_END = '#-&*+\\-/-9=@-Z\\\\^-~\\u00c0-\\u024f\\u0400-\\u04ff\\u1e00-\\u1eff';
const PATH = `(?:[/?#](?:[${PATH_CHAR}]*[${PATH_END}])?)?`;
// Built on first need, and only for texts that may hold a URL.
let urlRe: RegExp | undefined;
const MAY_HOLD_URL = /:\/\/|[a-z0-9]\.[a-z]/i;
const urlPattern = () =>
  (urlRe ??= new RegExp(
    `${anyCase('https')}?://(?:${LABEL}\\.)+${TLD}(?::\\d{1,5})?${PATH}|${anyCase('https')}?://(?:\\d{1,3}\\.){3}\\d{1,3}(?::\\d{1,5})?${PATH}|(?<!${DOMAIN_CHAR}|[@._/-])(?:${ASCII_LABEL}\\.)+(?:${anyCase(BARE_TLDS)})(?!${DOMAIN_INNER})${PATH}`,
    'gu',
  ));

function urlMatches(text: string): RegExpMatchArray[] {
  return MAY_HOLD_URL.test(text) ? Array.from(text.matchAll(urlPattern())).filter((m) => acceptable(m[0])) : [];
}

/** Where the URLs of a text are, as X's counter finds them (the one URL finder every platform's count shares). */
export function urlSpans(text: string): Array<{ start: number; end: number }> {
  return urlMatches(text).map((m) => ({ start: m.index!, end: m.index! + m[0].length }));
}

/**
 * A dotted-quad host is a URL only when every part is an octet; a host with letters beyond ASCII
 * only when each label still fits DNS's 63 characters once punycode-encoded (as twitter-text
 * checks: 53 kana make a label of more than 63).
 */
function acceptable(url: string): boolean {
  const ip = /^https?:\/\/((?:\d{1,3}\.){3}\d{1,3})(?![\d.])/i.exec(url);
  if (ip) return ip[1]!.split('.').every((o) => Number(o) <= 255);
  const host = /^(?:https?:\/\/)?([^/?#:]+)/i.exec(url)?.[1] ?? '';
  if (/^[\x00-\x7f]*$/.test(host)) return true;
  try {
    // The WHATWG URL parser applies IDNA: its hostname is the ASCII (xn--) form.
    return new URL(`http://${host}/`).hostname.split('.').every((label) => label.length <= 63);
  } catch {
    return false;
  }
}

// Characters X refuses in a post: noncharacters and the byte order mark.
const X_INVALID = /[\ufffe\ufeff\uffff]/u;
const OPENS = /[\u202a-\u202b\u202d-\u202e\u2066-\u2068]/u;

/**
 * Why X would refuse this text as it stands, whatever its length: characters it never accepts, or
 * a directional embedding, override or isolate that is never closed (U+202C, U+2069).
 */
export function xInvalidCharacters(text: string): string | undefined {
  const bad = X_INVALID.exec(text);
  if (bad) return `it holds U+${bad[0].codePointAt(0)!.toString(16).toUpperCase()}, a character X does not accept`;
  if (!OPENS.test(text)) return undefined;
  const open: string[] = [];
  for (const ch of text) {
    if (/[\u202a\u202b\u202d\u202e]/u.test(ch)) open.push('\u202c');
    else if (/[\u2066-\u2068]/u.test(ch)) open.push('\u2069');
    else if ((ch === '\u202c' || ch === '\u2069') && open.at(-1) === ch) open.pop();
  }
  return open.length ? `a directional mark (U+202A–U+202E or U+2066–U+2068) is never closed` : undefined;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function xWeighted(input: string): TextCount {
  const text = input.normalize('NFC');
  // The text between URLs is weighed; each URL counts a fixed length whatever it holds.
  const between: string[] = [];
  let urls = 0;
  let last = 0;
  for (const m of urlMatches(text)) {
    between.push(text.slice(last, m.index));
    last = m.index! + m[0].length;
    urls++;
  }
  between.push(text.slice(last));
  let weight = urls * X_URL_LENGTH * 100;
  let emoji = 0;
  let cjk = 0;
  let otherHeavy = 0;
  for (const cluster of between.flatMap(graphemes)) {
    if (isEmoji(cluster)) {
      weight += 200;
      emoji++;
      continue;
    }
    for (const ch of cluster) {
      const cp = ch.codePointAt(0)!;
      const light = X_LIGHT_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi);
      weight += light ? 100 : 200;
      if (!light) {
        if (cjkCharacter().test(ch)) cjk++;
        else otherHeavy++;
      }
    }
  }
  const reasons: string[] = [];
  if (urls) reasons.push(`${plural(urls, 'URL counts', 'URLs count')} ${X_URL_LENGTH}${urls === 1 ? '' : ' each'}`);
  if (emoji) reasons.push(`${plural(emoji, 'emoji counts', 'emoji count')} 2${emoji === 1 ? '' : ' each'}`);
  if (cjk) reasons.push(`${plural(cjk, 'CJK character counts', 'CJK characters count')} 2${cjk === 1 ? '' : ' each'}`);
  if (otherHeavy) reasons.push(`${plural(otherHeavy, 'symbol', 'symbols')} such as € or → count${otherHeavy === 1 ? 's' : ''} 2${otherHeavy === 1 ? '' : ' each'}`);
  return { length: weight / 100, unit: 'x-weighted', reasons };
}

/** Threads: characters, but an emoji counts as many as its UTF-8 bytes. */
function threadsCount(text: string): TextCount {
  let length = 0;
  let emoji = 0;
  for (const cluster of graphemes(text)) {
    if (isEmoji(cluster)) {
      length += utf8Bytes(cluster);
      emoji++;
    } else length += codePoints(cluster);
  }
  return { length, unit: 'threads', reasons: emoji ? [`${plural(emoji, 'emoji counts', 'emoji count')} as ${emoji === 1 ? 'its' : 'their'} UTF-8 bytes (👍 is 4)`] : [] };
}

/** The length of a text in a unit, with what made it differ from the characters a reader sees. */
export function countText(text: string, unit: TextUnit): TextCount {
  switch (unit) {
    case 'x-weighted':
      return xWeighted(text);
    case 'threads':
      return threadsCount(text);
    case 'graphemes': {
      const points = codePoints(text);
      // Without a clustering character every code point is its own cluster: nothing to segment.
      const length = mayCluster(text) ? graphemes(text).length : points;
      const joined = points - length;
      return { length, unit, reasons: joined ? [`${plural(joined, 'skin tone, joiner or mark counts', 'skin tones, joiners or marks count')} with the character before ${joined === 1 ? 'it' : 'them'}`] : [] };
    }
    case 'code-points':
      return { length: codePoints(text), unit, reasons: [] };
    case 'utf16': {
      const astral = text.length - codePoints(text);
      return { length: text.length, unit, reasons: astral ? [`${plural(astral, 'character', 'characters')} outside the Basic Multilingual Plane (emoji among them) count${astral === 1 ? 's' : ''} 2`] : [] };
    }
    case 'utf8-bytes': {
      const bytes = utf8Bytes(text);
      return { length: bytes, unit, reasons: bytes !== text.length ? ['accented letters take 2, CJK 3, emoji 4 or more'] : [] };
    }
  }
}

/** "X counts this text as 281: 2 URLs count 23 each", or undefined when nothing needs saying. */
export function explainCount(count: TextCount, who: string): string | undefined {
  if (count.reasons.length === 0) return undefined;
  const unitName: Record<TextUnit, string> = {
    'x-weighted': '',
    graphemes: ' grapheme clusters',
    utf16: ' UTF-16 code units',
    'code-points': ' characters',
    threads: '',
    'utf8-bytes': ' UTF-8 bytes',
  };
  return `${who} counts this text as ${count.length}${unitName[count.unit]}: ${count.reasons.join(', ')}`;
}
