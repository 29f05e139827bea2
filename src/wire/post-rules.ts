// One platform's payload judged against that platform's rules (src/wire/platforms.ts), rule by
// rule, as the platform would: the text's count, the title and link, how many media items of each
// kind, and each item's type, size, dimensions, aspect ratio, duration, codec and GIF frames.
// Pure: the client judges what it read from files, the sandbox what it was uploaded; a fact that
// is not known (a URL's size) leaves its rule unjudged rather than guessed.
import { formatCount } from './numbers.js';
import { formatBytesFor, mediaKind, PLATFORM_LIMITS, textLength, type Bound, type MediaRules, type Platform, type PlatformRules } from './platforms.js';
import { judgeText, PLATFORM_NAMES, possessive, unitWord } from './text-limits.js';
import type { MediaInfo } from './media-probe.js';
import { judgeExtras } from './extras-rules.js';
import { patternOnFirstUse } from './pattern-on-first-use.js';

/** The result codes a platform's refusal carries. */
export type RuleCode = 'TEXT_TOO_LONG' | 'TEXT_INVALID' | 'MEDIA_REQUIRED' | 'MEDIA_REJECTED' | 'TITLE_REQUIRED' | 'OPTION_INVALID' | 'NOT_SUPPORTED';

/** `unknown`: a fact the rule needs could not be read (a URL's size, a damaged file's duration), so it is left to the platform. */
export type Verdict = 'pass' | 'fail' | 'warn' | 'unknown';

export interface MediaItemFacts {
  /** How the item is named in messages (a path, a URL, a flag). */
  label: string;
  /** Where the platform fetches it from, when it is given as a URL. */
  url?: string;
  /** From the content (or, for a URL, the extension); undefined when unknown. */
  mimeType?: string;
  /** The kind the payload declares, when the type is not known. */
  declaredKind?: 'image' | 'video';
  sizeBytes?: number;
  info?: MediaInfo;
  /** The type the file's name claims, when its content is another (a PNG named .jpg). */
  nameMimeType?: string;
  /** Alt text given for the item. */
  alt?: string;
}

/** One later part of a thread (the first part is the payload's own text and media). */
export interface ThreadPartFacts {
  text: string;
  media: readonly MediaItemFacts[];
}

export interface PayloadFacts {
  text: string;
  /** The payload's own title, else the post's. */
  title?: string;
  link?: string;
  media: readonly MediaItemFacts[];
  /** The parts published as replies after the first (`thread`). */
  thread?: readonly ThreadPartFacts[];
  firstComment?: string;
  /** The platform's settings as given (`options`), judged against its schema. */
  options?: unknown;
}

export interface RuleCheck {
  /** Stable id: text.length, media.mix, video.duration, image.aspect, … */
  rule: string;
  verdict: Verdict;
  /** The media item judged, for rules about one item. */
  item?: string;
  /** What was found ("281", "1080×1920", "200 s") and what the platform takes ("≤ 280"). */
  actual: string;
  limit: string;
  /** For fail and warn: what is wrong, and how to fix it. */
  message?: string;
  fix?: string;
  code?: RuleCode;
  source: string;
  /** Where in the payload, for rules beyond the text and the media list: `thread[0].text`, `firstComment`, `options.privacy`, `media[1].alt`. */
  path?: string;
  /** For a thread part's rules: its index in `thread` (0 = the first reply). */
  part?: number;
}

const seconds = (s: number) => (s >= 120 ? `${Math.round(s)} s (${(s / 60).toFixed(1).replace(/\.0$/, '')} min)` : `${Number(s.toFixed(2))} s`);
const bound = (b: Bound, unit = '') => (b.min !== undefined && b.max !== undefined ? `${b.min}${unit}–${b.max}${unit}` : b.max !== undefined ? `≤ ${b.max}${unit}` : `≥ ${b.min}${unit}`);
const within = (v: number, b: Bound) => (b.min === undefined || v >= b.min) && (b.max === undefined || v <= b.max);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// A hashtag as the platforms link one: # after a non-word character, holding at least one letter.
const hashtag = patternOnFirstUse(() => /(?<![\p{L}\p{N}_&])[#＃][\p{L}\p{M}\p{N}_]*\p{L}[\p{L}\p{M}\p{N}_]*/gu);
// Its letter classes cost ~7 ms to build and match with: a text without a # needs neither.
export const countHashtags = (text: string) => (/[#＃]/.test(text) ? (text.match(hashtag()) ?? []).length : 0);

type Kind = 'image' | 'video' | 'gif';

/** The kind an item counts as on a platform: a GIF is its own kind where the platform says so. */
function kindOf(platform: Platform, m: MediaItemFacts): Kind | undefined {
  const kind = m.mimeType ? mediaKind(m.mimeType) : m.declaredKind;
  if (kind === 'image' && m.mimeType === 'image/gif' && PLATFORM_LIMITS[platform].rules.gif) return 'gif';
  return kind;
}

/** Largest file a platform takes for an item of this type. */
export function sizeLimit(platform: Platform, mimeType: string): number | undefined {
  const limits = PLATFORM_LIMITS[platform];
  const kind = mediaKind(mimeType);
  if (mimeType === 'image/gif' && limits.rules.gif?.maxBytes) return limits.rules.gif.maxBytes;
  return kind ? limits.media[kind]?.maxBytes : undefined;
}

const MEDIA_SOURCE = 'platform table (src/wire/platforms.ts), from each platform\'s publishing API';

/** A platform's limits as every verdict words them: the same for each post, so worked out once per platform. */
interface Wording {
  /** "≤ 300" */
  textLimit: string;
  /** The kinds it takes: "image or video". */
  kinds: string;
  /** "≤ 4" */
  mediaLimit: string;
  /** "up to 4 images or one video" */
  mix: string | undefined;
  /** Every MIME type it takes: "image/jpeg, image/png, …" */
  takes: string;
}

const WORDING = new Map<Platform, Wording>();
function wordingOf(platform: Platform): Wording {
  let w = WORDING.get(platform);
  if (!w) {
    const limits = PLATFORM_LIMITS[platform];
    w = {
      textLimit: `≤ ${limits.maxText}`,
      kinds: Object.keys(limits.media).join(' or '),
      mediaLimit: `≤ ${limits.maxMedia}`,
      mix: limits.rules.mix && mixText(limits.rules.mix),
      takes: Object.values(limits.media)
        .flatMap((l) => [...l.mimeTypes])
        .join(', '),
    };
    WORDING.set(platform, w);
  }
  return w;
}

export function judgePayload(platform: Platform, facts: PayloadFacts): RuleCheck[] {
  const limits = PLATFORM_LIMITS[platform];
  const rules = limits.rules;
  const name = PLATFORM_NAMES[platform];
  const checks: RuleCheck[] = [];

  const text = judgeText(platform, facts.text);
  // The explanation starts "X counts this text as 486: …": the count said once, with why.
  const counted = () => (text.explanation ? `${text.explanation};` : `${name} counts this text as ${text.count.length},`);
  checks.push({
    rule: 'text.length',
    verdict: text.over > 0 ? 'fail' : 'pass',
    actual: String(text.count.length),
    limit: wordingOf(platform).textLimit,
    ...(text.over > 0 ? { message: `${counted()} ${text.over} over its limit of ${text.limit}`, fix: `shorten it by ${text.over} ${unitWord(platform, text.over)}`, code: 'TEXT_TOO_LONG' as const } : {}),
    source: limits.textSource,
  });
  if (text.bytesOver) {
    const b = text.bytesOver;
    checks.push({ rule: 'text.bytes', verdict: 'fail', actual: `${b.length} bytes`, limit: `≤ ${b.max} bytes`, message: `${b.length} UTF-8 bytes is ${b.over} over ${possessive(name)} limit of ${b.max}`, fix: `shorten it by ${b.over} bytes`, code: 'TEXT_TOO_LONG', source: limits.textSource });
  }
  if (text.invalid) {
    checks.push({ rule: 'text.characters', verdict: 'fail', actual: 'invalid', limit: 'valid Unicode text', message: `${name} refuses this text: ${text.invalid}`, fix: 'remove the character (or close the directional mark with U+202C or U+2069)', code: 'TEXT_INVALID', source: limits.textSource });
  }
  if (rules.hashtags) {
    const n = countHashtags(facts.text);
    const over = n > rules.hashtags.max;
    checks.push({
      rule: 'text.hashtags',
      verdict: over ? 'fail' : 'pass',
      actual: String(n),
      limit: `≤ ${rules.hashtags.max}`,
      ...(over ? { message: `${plural(n, 'hashtag')}: ${name} takes at most ${rules.hashtags.max}`, fix: `remove ${n - rules.hashtags.max}`, code: 'TEXT_TOO_LONG' as const } : {}),
      source: rules.hashtags.source,
    });
  }
  if (rules.title) {
    const t = rules.title;
    const title = facts.title?.trim() ? facts.title : undefined;
    if (title === undefined) {
      if (t.required) checks.push({ rule: 'title.required', verdict: 'fail', actual: 'none', limit: 'required', message: `${name} needs a title`, fix: `give the post a title (at most ${t.max} characters)`, code: 'TITLE_REQUIRED', source: t.source });
    } else {
      if (t.required) checks.push({ rule: 'title.required', verdict: 'pass', actual: 'given', limit: 'required', source: t.source });
      const n = textLength(title);
      checks.push({
        rule: 'title.length',
        verdict: n > t.max ? 'fail' : 'pass',
        actual: String(n),
        limit: `≤ ${t.max}`,
        ...(n > t.max ? { message: `the title is ${n} characters; ${name} takes at most ${t.max}`, fix: `shorten it by ${n - t.max}`, code: 'TEXT_TOO_LONG' as const } : {}),
        source: t.source,
      });
    }
  }
  if (rules.link && facts.link !== undefined) {
    const n = textLength(facts.link);
    const max = rules.link.max;
    checks.push({ rule: 'link.length', verdict: n > max ? 'fail' : 'pass', actual: String(n), limit: `≤ ${max}`, ...(n > max ? { message: `the link is ${n} characters; ${name} takes at most ${max}`, fix: 'use a shorter link', code: 'TEXT_TOO_LONG' as const } : {}), source: rules.link.source });
  }

  judgeMediaSet(platform, facts.media, checks);
  for (const m of facts.media) judgeItem(platform, m, facts, checks);
  if (facts.thread !== undefined || facts.firstComment !== undefined || facts.options !== undefined || facts.media.some((m) => m.alt !== undefined)) {
    checks.push(...judgeExtras(platform, facts, (part) => judgePayload(platform, { text: part.text, media: part.media })));
  }
  return checks;
}

/** Whether media is present when needed, how many, and how kinds combine (added to `checks`). */
function judgeMediaSet(platform: Platform, media: readonly MediaItemFacts[], checks: RuleCheck[]): void {
  const limits = PLATFORM_LIMITS[platform];
  const name = PLATFORM_NAMES[platform];
  const wording = wordingOf(platform);
  const takes = wording.kinds;
  const source = MEDIA_SOURCE;
  if (limits.requiresMedia) {
    const none = media.length === 0;
    checks.push({ rule: 'media.required', verdict: none ? 'fail' : 'pass', actual: plural(media.length, 'item'), limit: `at least one ${takes}`, ...(none ? { message: `${name} publishes only posts with ${/^[aeiou]/.test(takes) ? 'an' : 'a'} ${takes}`, fix: `add ${takes === 'video' ? 'a video' : 'an image or a video'} (a local file or an https URL)`, code: 'MEDIA_REQUIRED' as const } : {}), source });
  }
  if (media.length === 0) return;
  const over = media.length > limits.maxMedia;
  checks.push({ rule: 'media.count', verdict: over ? 'fail' : 'pass', actual: String(media.length), limit: wording.mediaLimit, ...(over ? { message: `${plural(media.length, 'media item')}: ${name} takes at most ${limits.maxMedia}`, fix: `remove ${media.length - limits.maxMedia}`, code: 'MEDIA_REJECTED' as const } : {}), source });
  const mix = limits.rules.mix;
  if (!mix) return;
  let images = 0;
  let videos = 0;
  let gifs = 0;
  for (const m of media) {
    const kind = kindOf(platform, m);
    if (kind === undefined) {
      checks.push({ rule: 'media.mix', verdict: 'unknown', actual: 'kinds not known', limit: wording.mix!, source: mix.source });
      return;
    }
    // A kind the platform does not take at all (images on YouTube) fails on each item's
    // media.type row, which names the file and what the platform takes; counted here it would
    // either pass ("2 images ✓ one video") or fail the same items a second time.
    if (!limits.media[kind === 'gif' ? 'image' : kind]) continue;
    if (kind === 'image') images++;
    else if (kind === 'video') videos++;
    else gifs++;
  }
  if (images + videos + gifs === 0) return;
  const actual = [images && plural(images, 'image'), videos && plural(videos, 'video'), gifs && plural(gifs, 'GIF')].filter(Boolean).join(' + ');
  const mixedKinds = [images, videos, gifs].filter((n) => n > 0).length > 1;
  const problem =
    !mix.mixed && mixedKinds
      ? { message: `${name} takes ${wording.mix!}, not a mix`, fix: videos ? 'remove the video or post it separately' : 'remove the GIF or post it separately' }
      : videos > mix.videos
        ? { message: `${plural(videos, 'video')}: ${name} takes ${mix.videos === 1 ? 'one' : `at most ${mix.videos}`}`, fix: 'post the others separately' }
        : images > mix.images && mix.images > 0
          ? { message: `${plural(images, 'image')}: ${name} takes at most ${mix.images}`, fix: `remove ${images - mix.images}` }
          : gifs > (mix.gifs ?? Infinity)
            ? { message: `${plural(gifs, 'GIF')}: ${name} takes one`, fix: 'post the others separately' }
            : undefined;
  checks.push({ rule: 'media.mix', verdict: problem ? 'fail' : 'pass', actual, limit: wording.mix!, ...(problem ? { ...problem, code: 'MEDIA_REJECTED' as const } : {}), source: mix.source });
}

function mixText(mix: NonNullable<PlatformRules['mix']>): string {
  const parts = [mix.images ? `up to ${mix.images} images` : '', mix.videos === 1 ? 'one video' : `up to ${mix.videos} videos`, mix.gifs ? 'one GIF' : ''].filter(Boolean);
  return mix.mixed ? `${parts.join(' and ')}, mixed` : parts.join(' or ');
}

/** "≤ 1 MB": one size limit as the verdicts write it, worked out once. */
const SIZE_LIMITS = new Map<number, string>();
function sizeLimitText(max: number): string {
  let text = SIZE_LIMITS.get(max);
  if (text === undefined) SIZE_LIMITS.set(max, (text = `≤ ${formatBytesFor(max, max)}`));
  return text;
}

/** One item: its type and size, then its kind's rules on dimensions, aspect, duration, codec, frames (added to `checks`). */
function judgeItem(platform: Platform, m: MediaItemFacts, facts: PayloadFacts, checks: RuleCheck[]): void {
  const limits = PLATFORM_LIMITS[platform];
  const name = PLATFORM_NAMES[platform];
  const item = m.label;
  const source = MEDIA_SOURCE;
  const kind = kindOf(platform, m);
  const takes = wordingOf(platform).takes;
  if (m.url !== undefined && /^http:/i.test(m.url)) {
    checks.push({ rule: 'media.url', verdict: 'fail', item, actual: 'http://', limit: 'https://', message: 'an http:// URL; the platforms fetch media over https only', fix: `use its https:// address (${m.url.replace(/^http:/i, 'https:')}), or give a local file, which is uploaded`, code: 'MEDIA_REJECTED', source: 'each platform\'s publishing API fetches media by https URL (X, Instagram, Threads, Pinterest, TikTok PULL_FROM_URL)' });
  }
  if (m.mimeType && m.nameMimeType) {
    // Judged by what it holds: the platform reads the bytes, not the name.
    checks.push({ rule: 'media.name', verdict: 'warn', item, actual: m.mimeType, limit: m.nameMimeType, message: `the name says ${m.nameMimeType} but the file is ${m.mimeType}: judged and sent as ${m.mimeType}`, fix: 'rename it to match its content, to avoid confusion later', source });
  }
  if (m.mimeType) {
    const base = mediaKind(m.mimeType);
    const ok = base !== undefined && (limits.media[base]?.mimeTypes.includes(m.mimeType) ?? false);
    checks.push({ rule: 'media.type', verdict: ok ? 'pass' : 'fail', item, actual: m.mimeType, limit: takes, ...(ok ? {} : { message: `${name} does not take ${m.mimeType}`, fix: `${name} takes ${takes}`, code: 'MEDIA_REJECTED' as const }), source });
    if (!ok) return;
    const max = sizeLimit(platform, m.mimeType)!;
    if (m.sizeBytes === undefined) checks.push({ rule: 'media.size', verdict: 'unknown', item, actual: 'not known', limit: sizeLimitText(max), source });
    else {
      const over = m.sizeBytes > max;
      const size = (n: number) => formatBytesFor(n, max);
      checks.push({ rule: 'media.size', verdict: over ? 'fail' : 'pass', item, actual: size(m.sizeBytes), limit: sizeLimitText(max), ...(over ? { message: `${size(m.sizeBytes)} is over ${possessive(name)} limit of ${size(max)}`, fix: `compress or resize it to at most ${size(max)}`, code: 'MEDIA_REJECTED' as const } : {}), source });
      // The bytes were at hand (a local file, an upload) in a format whose headers are read, and
      // they could not be: cut short (an MP4 without its moov) or damaged. Told, not refused: the
      // platform has the last word, and what it would check is left unjudged.
      if (m.info === undefined && READ_FORMATS.has(m.mimeType)) {
        checks.push({ rule: 'media.headers', verdict: 'warn', item, actual: 'not readable', limit: 'readable headers', message: `its ${kind === 'video' ? 'duration, dimensions and codec' : 'dimensions'} cannot be read: the file looks cut short or damaged`, fix: 'export or copy it again whole, then check again', source });
      }
    }
  } else if (m.declaredKind && !limits.media[m.declaredKind]) {
    checks.push({ rule: 'media.type', verdict: 'fail', item, actual: m.declaredKind, limit: takes, message: `${name} does not take ${m.declaredKind}s`, fix: `${name} takes ${takes}`, code: 'MEDIA_REJECTED', source });
    return;
  }
  const rules = kind ? limits.rules[kind] : undefined;
  if (rules) checks.push(...judgeShape(platform, kind!, m, rules));
  const shorts = limits.rules.shorts;
  if (shorts && kind === 'video' && /#shorts\b/i.test(`${facts.text} ${facts.title ?? ''}`)) checks.push(...judgeShort(name, m, shorts));
}

/** The formats whose headers src/wire/media-probe.ts reads. */
const READ_FORMATS = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'video/mp4', 'video/quicktime']);

const KIND_WORD: Record<Kind, string> = { image: 'image', video: 'video', gif: 'GIF' };

function judgeShape(platform: Platform, kind: Kind, m: MediaItemFacts, rules: MediaRules): RuleCheck[] {
  const name = PLATFORM_NAMES[platform];
  const item = m.label;
  const info = m.info;
  const checks: RuleCheck[] = [];
  const what = KIND_WORD[kind];
  const check = (rule: string, limit: string, value: string | undefined, ok: boolean, message: string, fix: string, guidance = false) =>
    checks.push(
      value === undefined
        ? { rule, verdict: 'unknown', item, actual: 'not known', limit, source: rules.source }
        : { rule, verdict: ok ? 'pass' : guidance ? 'warn' : 'fail', item, actual: value, limit, ...(ok ? {} : { message, fix, ...(guidance ? {} : { code: 'MEDIA_REJECTED' as const }) }), source: rules.source },
    );
  const w = info?.width;
  const h = info?.height;
  const dims = w !== undefined && h !== undefined ? `${w}×${h}` : undefined;
  if (rules.shortSide || rules.longSide) {
    const short = Math.min(w ?? 0, h ?? 0);
    const long = Math.max(w ?? 0, h ?? 0);
    const ok = (!rules.shortSide || within(short, rules.shortSide)) && (!rules.longSide || within(long, rules.longSide));
    const limit = [rules.shortSide && `short side ${bound(rules.shortSide)}`, rules.longSide && `long side ${bound(rules.longSide)}`].filter(Boolean).join(', ');
    check(`${kind}.dimensions`, limit, dims, ok, `a ${dims} ${what}: ${name} takes ${limit} pixels`, `resize it to fit ${limit} pixels`);
  }
  if (rules.maxPixels !== undefined) {
    const px = w !== undefined && h !== undefined ? w * h : undefined;
    check(`${kind}.pixels`, `≤ ${formatCount(rules.maxPixels)} pixels`, dims, (px ?? 0) <= rules.maxPixels, `a ${dims} ${what} has ${px === undefined ? 'undefined' : formatCount(px)} pixels; ${name} takes at most ${formatCount(rules.maxPixels)}`, 'resize it smaller');
  }
  if (rules.aspect) {
    const a = rules.aspect;
    const ratio = w && h ? w / h : undefined;
    const ok = ratio !== undefined && within(ratio, a);
    const fix = a.guidance ? `crop it toward ${a.text}` : `crop it to an aspect ratio from ${a.text}`;
    check(`${kind}.aspect`, a.text, ratio === undefined ? undefined : `${dims} (${ratio.toFixed(2)}:1)`, ok, `a ${dims} ${what} is ${ratio?.toFixed(2)}:1; ${name} takes ${a.text}`, fix, a.guidance);
  }
  if (rules.durationSec) {
    const d = info?.durationSec;
    const b = rules.durationSec;
    check(`${kind}.duration`, bound(b, ' s'), d === undefined ? undefined : seconds(d), d !== undefined && within(d, b), `a ${seconds(d ?? 0)} ${what}: ${name} takes ${bound(b, ' s')}`, d !== undefined && b.max !== undefined && d > b.max ? `trim it to at most ${seconds(b.max)}` : `make it at least ${seconds(b.min ?? 0)} long`);
  }
  if (rules.codecs) {
    const c = info?.codec;
    check(`${kind}.codec`, rules.codecs.join(', '), c, c !== undefined && rules.codecs.includes(c), `${name} does not take ${c} video`, `re-encode it as ${rules.codecs[0] === 'h264' ? 'H.264' : rules.codecs.join(' or ')} (MP4)`);
  }
  if (rules.frames) {
    const f = info?.frames;
    check(`${kind}.frames`, bound(rules.frames), f === undefined ? undefined : info?.framesMore ? `${f - 1}+` : String(f), f !== undefined && within(f, rules.frames), `${info?.framesMore ? `more than ${(f ?? 1) - 1} frames` : plural(f ?? 0, 'frame')}: ${name} takes ${bound(rules.frames)}`, 'drop frames or shorten the animation');
  }
  return checks;
}

function judgeShort(name: string, m: MediaItemFacts, shorts: { maxSec: number; source: string }): RuleCheck[] {
  const info = m.info;
  if (info?.durationSec === undefined || info.width === undefined || info.height === undefined) {
    return [{ rule: 'video.shorts', verdict: 'unknown', item: m.label, actual: 'not known', limit: `≤ ${shorts.maxSec} s, square or vertical`, source: shorts.source }];
  }
  const ok = info.durationSec <= shorts.maxSec && info.width <= info.height;
  return [
    {
      rule: 'video.shorts',
      verdict: ok ? 'pass' : 'fail',
      item: m.label,
      actual: `${seconds(info.durationSec)}, ${info.width}×${info.height}`,
      limit: `≤ ${shorts.maxSec} s, square or vertical`,
      ...(ok ? {} : { message: `this post says #Shorts, and ${name} Shorts are at most ${shorts.maxSec} s, square or vertical`, fix: 'trim or crop the video, or drop #Shorts to publish it as a regular video', code: 'MEDIA_REJECTED' as const }),
      source: shorts.source,
    },
  ];
}

/** The checks that failed, in order: what refuses the post. */
export const failures = (checks: readonly RuleCheck[]) => checks.filter((c) => c.verdict === 'fail');
