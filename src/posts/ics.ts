// `posts list -o ics`: RFC 5545 iCalendar, one VEVENT per scheduled post. Our own small writer:
// it streams (one event per post as the pages arrive, where the generators build the whole
// calendar first), adds nothing to the bundle, and the part that is easy to get wrong (escaping,
// folding at 75 octets without splitting a UTF-8 sequence) is a few lines tested against a parser.
import type { Post } from '../wire/schemas.js';

const CRLF = '\r\n';
/** Octets per line before the CRLF (RFC 5545 section 3.1). */
export const FOLD_OCTETS = 75;
/** SUMMARY from the text when there is no title: about this many characters, cut at a word. */
const SUMMARY_CHARS = 60;

export interface IcsOptions {
  /** DTSTAMP of every event: when the calendar was written (epoch ms). */
  now: number;
  /** PRODID text. */
  product?: string;
}

/** TEXT value escaping: backslash, semicolon, comma and line breaks; other control characters (C1 too) dropped. */
export function escapeText(value: string): string {
  return value
    .replace(/\r\n?/g, '\n')
    .replace(/[\\;,]/g, (c) => `\\${c}`)
    .replace(/\n/g, '\\n')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}

/**
 * Folds one content line: at most 75 octets of UTF-8 per physical line (continuations start with
 * one space, which counts), never inside a code point's bytes. Returns the line with CRLFs.
 */
export function foldLine(line: string): string {
  let out = '';
  let octets = 0;
  for (const ch of line) {
    const size = utf8Length(ch);
    if (octets + size > FOLD_OCTETS) {
      out += `${CRLF} `;
      octets = 1;
    }
    out += ch;
    octets += size;
  }
  return out + CRLF;
}

function utf8Length(ch: string): number {
  const cp = ch.codePointAt(0)!;
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/** "YYYYMMDDTHHMMSSZ" (UTC date-time form). */
export function icsTime(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

/** The post's text: the first payload that has one. */
export function postText(post: Pick<Post, 'payloads'>): string {
  for (const payload of Object.values(post.payloads)) {
    const text = (payload as { text?: unknown } | null)?.text;
    if (typeof text === 'string' && text.trim() !== '') return text;
  }
  return '';
}

/** The title, or the start of the text's first line cut at a word with "…". */
export function postSummary(post: Pick<Post, 'payloads' | 'title'>, max = SUMMARY_CHARS): string {
  if (typeof post.title === 'string' && post.title.trim() !== '') return post.title.trim();
  const first = postText(post).trim().split('\n')[0]!.trim();
  const chars = [...first];
  if (chars.length <= max) return first || '(no text)';
  const cut = chars.slice(0, max - 1).join('');
  const atWord = cut.replace(/\s+\S*$/, '');
  return `${atWord.length >= max / 2 ? atWord : cut}…`;
}

/** "Platforms: instagram, linkedin" and the text (each platform's own when they differ). */
export function postDescription(post: Pick<Post, 'payloads'>): string {
  const platforms = Object.keys(post.payloads);
  const texts = platforms.map((p) => (post.payloads[p] as { text?: unknown } | null)?.text).map((t) => (typeof t === 'string' ? t : ''));
  const distinct = new Set(texts);
  const body = distinct.size <= 1 ? texts[0] ?? '' : platforms.map((p, i) => `${p}: ${texts[i]}`).join('\n\n');
  return `Platforms: ${platforms.join(', ')}\n\n${body}`;
}

/** The calendar's opening lines. */
export function icsHeader(options: Pick<IcsOptions, 'product'> = {}): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:${escapeText(options.product ?? '-//socialpub//socialpub CLI//EN')}`, 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH'].map(foldLine).join('');
}

export function icsFooter(): string {
  return foldLine('END:VCALENDAR');
}

/** How long a post's event lasts on a calendar. */
const EVENT_MS = 15 * 60_000;

/** CONFIRMED for a post that goes or went out; CANCELLED for one that failed on every platform. */
function eventStatus(post: Post): 'CONFIRMED' | 'CANCELLED' {
  if (post.status !== 'failed') return 'CONFIRMED';
  return Object.values(post.targets ?? {}).includes('published') ? 'CONFIRMED' : 'CANCELLED';
}

/** One VEVENT, or undefined for a post without a time (a draft): an event needs DTSTART. */
export function icsEvent(post: Post, options: IcsOptions): string | undefined {
  const start = post.scheduledAt ? Date.parse(post.scheduledAt) : NaN;
  if (Number.isNaN(start)) return undefined;
  const lines = [
    'BEGIN:VEVENT',
    `UID:${escapeText(post.id)}`,
    `DTSTAMP:${icsTime(options.now)}`,
    `DTSTART:${icsTime(start)}`,
    // A post is an instant; calendars draw an event without an end as nothing or as a whole day.
    `DTEND:${icsTime(start + EVENT_MS)}`,
    `STATUS:${eventStatus(post)}`,
    `SUMMARY:${escapeText(postSummary(post))}`,
    `DESCRIPTION:${escapeText(postDescription(post))}`,
    `CATEGORIES:${Object.keys(post.payloads).map(escapeText).join(',')}`,
    'END:VEVENT',
  ];
  return lines.map(foldLine).join('');
}
