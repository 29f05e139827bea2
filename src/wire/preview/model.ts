// A post as each platform's feed would show it: the text up to the "more" fold and what it hides,
// thread parts numbered, media with alt text and the feed's crop, the first comment, options.
// Made from the payloads alone (no request), read tolerantly: a field of the wrong type is left
// out, never fatal. The CLI prints it, the sandbox's pages and a local file render it as HTML,
// and the MCP tool returns it.
import { isPlatform, mediaKind, mimeTypeFor, type Platform } from '../platforms.js';
import { judgeText, overLimit, possessive, unitWord } from '../text-limits.js';
import { PLATFORM_EXTRAS, threadOffer, valueMedia } from '../post-extras.js';
import { FOLDS, type FoldRule } from './folds.js';

export interface FoldedText {
  /** What the feed shows before "more". */
  visible: string;
  /** What "more" hides ('' when everything shows). */
  hidden: string;
  /** Code points of the whole text. */
  length: number;
}

/** A text as its platform counts it (X: weighted, every URL 23; Bluesky: graphemes), against its limit. */
export interface TextLimit {
  count: number;
  max: number;
  /** "characters", or "bytes" for a platform that counts UTF-8 bytes. */
  unit: string;
  /** How far over the limit; 0 when it fits. */
  over: number;
}

export interface MediaPreview {
  url: string;
  type: string | null;
  alt: string | null;
}

export interface PlatformPreview {
  platform: string;
  /** False for a key that is not a platform id (shown as given, with no fold and no limit). */
  known: boolean;
  text: FoldedText;
  /** The text against the platform's limit, as the platform counts it; null for an unknown platform. */
  limit: TextLimit | null;
  title: string | null;
  /** Part 1 is the post itself; replies follow, numbered from 2. Each part has the platform's limit. */
  thread: { part: number; text: FoldedText; limit: TextLimit | null; media: MediaPreview[] }[];
  media: MediaPreview[];
  /** What a feed shows of an image on this platform. */
  crop: string | null;
  firstComment: string | null;
  options: Record<string, unknown> | null;
  accounts: string[];
  fold: { chars: number | null; lines: number | null; source: string | null };
  notes: string[];
}

export interface PostPreview {
  id: string | null;
  title: string | null;
  status: string | null;
  scheduledAt: string | null;
  platforms: PlatformPreview[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Splits `text` where the platform folds it: at a number of code points or of lines, backing off to a space nearby. */
export function foldText(text: string, chars?: number, lines?: number): FoldedText {
  const points = Array.from(text);
  let cut = chars !== undefined && points.length > chars ? chars : points.length;
  if (lines !== undefined) {
    let seen = 0;
    for (let i = 0; i < cut; i++) {
      if (points[i] === '\n' && ++seen === lines) {
        cut = i;
        break;
      }
    }
  }
  if (cut < points.length && chars !== undefined && cut === chars) {
    // A fold lands between words when one ends close before it.
    for (let i = cut; i > cut - 20 && i > 0; i--) {
      if (/\s/.test(points[i]!)) {
        cut = i;
        break;
      }
    }
  }
  return { visible: points.slice(0, cut).join('').replace(/\s+$/, ''), hidden: points.slice(cut).join('').replace(/^\s+/, ''), length: points.length };
}

function mediaOf(value: unknown): MediaPreview[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).flatMap((m) => (typeof m.url === 'string' ? [{ url: m.url, type: str(m.type), alt: str(m.alt) }] : []));
}

export interface PreviewOptions {
  /** How a text not split yet is split into a thread (`--thread`): offered in an over-the-limit note where the platform takes threads. */
  threadWith?: string;
}

export function previewPlatform(platform: string, payload: unknown, postTitle: string | null, options: PreviewOptions = {}): PlatformPreview {
  const p = isObject(payload) ? payload : {};
  const known = isPlatform(platform);
  const rule = known ? FOLDS[platform] : undefined;
  const fold = (t: string) => foldText(t, rule?.chars, rule?.lines);
  const text = str(p.text) ?? '';
  const media = mediaOf(p.media);
  const notes: string[] = [];
  const parts = Array.isArray(p.thread) ? p.thread.filter(isObject) : [];
  // A part of a thread is already split: only a text not split yet is offered the split.
  const judged = (t: string, label: string) => (known ? limitOf(platform, t, label, notes, label === '' && options.threadWith ? threadOffer(platform, options.threadWith) : '') : null);
  const thread = parts.length
    ? [{ part: 1, text: fold(text), limit: judged(text, 'part 1: '), media }, ...parts.map((t, i) => ({ part: i + 2, text: fold(str(t.text) ?? ''), limit: judged(str(t.text) ?? '', `part ${i + 2}: `), media: mediaOf(t.media) }))]
    : [];
  const limit = thread.length ? thread[0]!.limit : judged(text, '');
  if (thread.length && rule && !rule.threads) notes.push(`${platform} does not publish threads: only part 1 goes out`);
  const withoutAlt = media.filter((m) => m.type !== 'video' && !m.alt).length;
  if (withoutAlt) notes.push(`${withoutAlt === 1 ? 'an image has' : `${withoutAlt} images have`} no alt text`);
  const accounts = Array.isArray(p.accounts) ? p.accounts.filter((a): a is string => typeof a === 'string') : [];
  return {
    platform,
    known,
    text: fold(text),
    limit,
    title: str(p.title) ?? postTitle,
    thread,
    media,
    crop: isPlatform(platform) && rule ? cropNote(platform, rule, media, isObject(p.options) ? p.options : {}) : null,
    firstComment: str(p.firstComment),
    options: isObject(p.options) ? p.options : null,
    accounts,
    fold: { chars: rule?.chars ?? null, lines: rule?.lines ?? null, source: rule?.source ?? null },
    notes,
  };
}

/** An item's kind: as declared, else by its name's extension; an item of no known kind is taken for an image, as the alt note takes it. */
const kindOf = (m: MediaPreview) => (m.type === 'video' || m.type === 'image' ? m.type : (mediaKind(mimeTypeFor(m.url) ?? '') ?? 'image'));

/**
 * What the feed shows of the post's media, saying what they are ("the video: …", "2 images: …"):
 * a setting's value that frames its media (an Instagram reel: 9:16) as post-extras.ts says, else
 * each kind as the fold table says.
 */
function cropNote(platform: Platform, rule: FoldRule, media: MediaPreview[], options: Record<string, unknown>): string | null {
  if (!media.length) return null;
  for (const spec of PLATFORM_EXTRAS[platform].options) {
    const value = options[spec.key];
    const framed = valueMedia(spec, value);
    if (framed?.frame) return `a ${String(value)} (${framed.describe}): ${framed.frame.shows}`;
  }
  const count = (kind: 'image' | 'video') => media.filter((m) => kindOf(m) === kind).length;
  const said = (n: number, kind: 'image' | 'video', shows: string) => (n === 0 ? [] : [`${n === 1 ? `the ${kind}` : `${n} ${kind}s`}: ${shows}`]);
  return [...said(count('image'), 'image', rule.crop), ...said(count('video'), 'video', rule.video)].join('; ');
}

/** The text counted as the platform counts it; a text over the limit (or Bluesky's bytes) adds a note saying by how much. */
function limitOf(platform: Platform, text: string, label: string, notes: string[], offer: string): TextLimit {
  const v = judgeText(platform, text);
  if (v.over > 0) notes.push(`${label}${overLimit(platform, v)}: the platform refuses it; shorten it by ${v.over} ${unitWord(platform, v.over)}${offer}`);
  if (v.bytesOver) notes.push(`${label}${v.bytesOver.length} UTF-8 bytes is ${v.bytesOver.over} over ${possessive(platform)} limit of ${v.bytesOver.max} bytes: shorten it`);
  return { count: v.count.length, max: v.limit, unit: unitWord(platform, 2), over: v.over };
}

/** "303 of 280 characters, 23 over the limit" (the platform's count), or "12 characters" without a limit. */
export function countLine(limit: TextLimit | null, text: FoldedText): { text: string; over: boolean } {
  if (!limit) return { text: `${text.length} characters`, over: false };
  const count = `${limit.count} of ${limit.max} ${limit.unit}`;
  return limit.over > 0 ? { text: `${count}, ${limit.over} over the limit`, over: true } : { text: count, over: false };
}

/** A post object (or a create body) as each of its platforms would show it. */
export function previewPost(post: unknown, options: PreviewOptions = {}): PostPreview {
  const p = isObject(post) ? post : {};
  const title = str(p.title);
  const payloads = isObject(p.payloads) ? p.payloads : {};
  return {
    id: str(p.id),
    title,
    status: str(p.status),
    scheduledAt: str(p.scheduledAt),
    platforms: Object.entries(payloads).map(([platform, payload]) => previewPlatform(platform, payload, title, options)),
  };
}
