// The post as the user described it, before validation: from flags (--platform, --text,
// --text-for, --media, --title) or from a whole body (--file, a bulk row). Field labels are kept
// so that every validation message names what the user actually typed.

import { isPlatform, PLATFORMS, type Platform } from '../wire/platforms.js';
import { nearest, suggestPlatform } from '../wire/suggest.js';
import { takesFirstComment, takesThread } from '../wire/post-extras.js';
import { cutsToSay, joinMarked, splitThreadWithCuts, type ThreadCut } from './thread-split.js';
import { applyAlts, parseOptionFlags } from './extras.js';

/** What the user typed that is wrong: "--text", "--media", "payloads.bluesky.text", "line 4: at". */
export type { InputIssue as Issue } from '../wire/invalid-input.js';
import type { InputIssue as Issue } from '../wire/invalid-input.js';

export interface MediaSource {
  /** As given: a path or a URL. */
  source: string;
  /** An address, not a path (isAddress): only an http(s) one gets past validation. */
  isUrl: boolean;
  /** Absolute path for local files. */
  path?: string;
  /** `type` given in a body, if any. */
  declaredType?: string;
  /** Extra fields of a body's media item, kept as they are. */
  extra?: Record<string, unknown>;
  /** Alt text for the item (--alt after its --media, an `alt` column, a body's media[].alt). */
  alt?: string;
  /** Where this item came from, for messages. */
  label: string;
  /**
   * An item the post already carries (an edit keeps it): the service took its URL before, which
   * may be its own plain-http address (a local sandbox), so the https rule is not judged again.
   */
  onService?: boolean;
}

export interface PlatformDraft {
  platform: string;
  /** The field that named the platform, when not the draft's platformLabel ("--text-for"). */
  namedBy?: string;
  text: string | undefined;
  /** Which field the text came from ("--text", "--text-for bluesky", "payloads.bluesky.text"). */
  textLabel: string;
  media: MediaSource[];
  /** Platform options from a body, sent unchanged. */
  extra: Record<string, unknown>;
  /** The later parts of a thread (the first is `text`). */
  thread?: ThreadPart[];
  /** Words or URLs longer than a whole part that --thread had to cut (to be said, never silently). */
  threadCuts?: ThreadCut[];
  firstComment?: string;
  /** The platform's settings (`options`), judged against its schema. */
  options?: Record<string, unknown>;
  /** How a field beyond text and media is named in messages, from its path in the payload (`thread[0].text`, `options.privacy`). */
  fieldOf?: (path: string) => string;
}

export interface ThreadPart {
  text: string;
  media: MediaSource[];
}

export interface PostDraft {
  platforms: PlatformDraft[];
  /** Field used for platform problems ("--platform", "payloads"). */
  platformLabel: string;
  /** Field used for media-count problems ("--media", "payloads.<p>.media"). */
  mediaLabel: (platform: string) => string;
  /** Field for missing text. */
  missingTextFix: (platform: string) => string;
  title: string | undefined;
  /** Field for title problems ("line 4: title", "post.json: title"); "--title" when not set. */
  titleLabel?: string;
  /** Fields outside payloads that a body carried and that are sent unchanged. */
  extraTop: Record<string, unknown>;
}

/** An http(s) address: sent as it is (the platform rules refuse plain http). */
export const isUrl = (s: string) => /^https?:\/\//i.test(s.trim());

/**
 * An address rather than a path: http(s), or another kind the client cannot take (ftp://,
 * file:///, s3://, data:…), which must be refused as such rather than looked for as a file. A
 * scheme is two characters or more, so a Windows drive (C:\x.png) stays a path; it must open the
 * text and be followed by "/" (data: excepted), so ./a:b.png and a:b.png stay paths too.
 */
export const isAddress = (s: string) => isUrl(s) || /^(?:[a-z][a-z0-9+.-]+:\/|data:)/i.test(s.trim());

export function mediaSource(source: string, label: string, resolvePath: (p: string) => string): MediaSource {
  const s = source.trim();
  return isAddress(s) ? { source: s, isUrl: true, label } : { source: s, isUrl: false, path: resolvePath(s), label };
}

export interface FlagValues {
  platform?: string[];
  text?: string;
  textFor?: string[];
  media?: string[];
  title?: string;
  /** Per-platform texts already split (CSV text:<platform> columns). */
  textForMap?: Map<string, string>;
  /** Split texts too long for a platform that takes threads into a thread (and honour `---` lines). */
  thread?: true;
  firstComment?: string;
  /** Alt texts, each for the media item at `index` (the --media before it). */
  alt?: AltFlag[];
  /** PLATFORM.KEY=VALUE settings. */
  option?: string[];
  /** Media of a thread's later parts (asked for at the prompts), each part by its number (2 is the first reply). */
  partMedia?: PartMedia[];
}

export interface PartMedia {
  part: number;
  /** Paths or URLs, as --media takes them. */
  media: string[];
  /** Alt texts of these media, each for the item at `index`, as --alt for the post's own. */
  alt?: AltFlag[];
}

/** How a thread part's media item is named in messages. */
export const partMediaLabel = (part: number, source: string) => `thread part ${part} media ${source}`;

export interface AltFlag {
  /** The media item it describes (-1: no --media before it). */
  index: number;
  text: string;
}

/** Splits "platform=text" values of --text-for; a value without "=" is an issue. */
export function parseTextFor(values: readonly string[], issues: Issue[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const v of values) {
    const eq = v.indexOf('=');
    if (eq <= 0) {
      issues.push({ field: '--text-for', message: `--text-for: "${v}" is not platform=text`, fix: 'write it as --text-for bluesky="Hello from Bluesky"' });
      continue;
    }
    map.set(v.slice(0, eq).trim(), v.slice(eq + 1));
  }
  return map;
}

/** How fields are named in messages: flags on the command line, columns in a CSV row. */
export interface FlagLabels {
  platform: string;
  text: string;
  textFor: (platform: string) => string;
  media: (source: string) => string;
  mediaCount: string;
  missingTextFix: (platform: string) => string;
  /** "--title" when not given. */
  title?: string;
  /** How --thread parts, --first-comment, --alt and --option are named (the command line's by default). */
  firstComment?: string;
  alt?: (media: string, index: number) => string;
  /** With `alt`: the fix for an alt text that has no media item to describe (how the two pair). */
  altFix?: string;
  option?: (platform: string, key: string) => string;
  /** With `option`: the fix for a setting of a platform the post does not go to. */
  offTargetOptionFix?: (platform: string, key: string) => string;
}

export const COMMAND_LINE_LABELS: FlagLabels = {
  platform: '--platform',
  text: '--text',
  textFor: (p) => `--text-for ${p}`,
  media: (m) => `--media ${m}`,
  mediaCount: '--media',
  missingTextFix: (p) => `give --text "…" for every platform, or --text-for ${p}="…"`,
};

/** A field of the flags' payload named as the user typed it: `--thread (part 3)`, `--option tiktok.privacy`. */
function flagField(labels: FlagLabels, platform: string, media: readonly MediaSource[]): (path: string) => string {
  return (path) => {
    const part = /^thread\[(\d+)\]/.exec(path);
    if (part) return `${labels.text} (thread part ${Number(part[1]) + 2} for ${platform})`;
    if (path === 'firstComment') return labels.firstComment ?? '--first-comment';
    const option = /^options\.(.+)$/.exec(path);
    if (option) return labels.option ? labels.option(platform, option[1]!) : `--option ${platform}.${option[1]}`;
    const alt = /^media\[(\d+)\]\.alt$/.exec(path);
    if (alt) {
      const m = media[Number(alt[1])];
      return labels.alt ? labels.alt(m?.source ?? '', Number(alt[1])) : `--alt (for --media ${m?.source ?? '?'})`;
    }
    return path === 'options' ? (labels.option ? labels.option(platform, '') : '--option') : path;
  };
}

/**
 * A function that names one field, made outside draftFromFlags: a closure made there would share
 * its scope, and keep every map and flag of the call alive as long as the draft (a bulk file's
 * thousands of drafts).
 */
const constant = (label: string) => () => label;

/** What a text split for a platform makes: "one post, no thread", "a thread of 6 parts". */
export const partsMade = (parts: number): string => (parts === 1 ? 'one post, no thread' : `a thread of ${parts} parts`);

function noSuchPart(platform: string, part: number, parts: number): Issue {
  const field = partMediaLabel(part, '').trimEnd();
  return { field, message: `${field}: the text for ${platform} makes ${partsMade(parts)}, so there is no part ${part}`, fix: 'choose the part again, or mark the parts with --- lines' };
}

/** A draft from the payload flags. Platforms named only by --text-for are included. */
export function draftFromFlags(flags: FlagValues, resolvePath: (p: string) => string, issues: Issue[], labels: FlagLabels = COMMAND_LINE_LABELS): PostDraft {
  const perPlatform = flags.textForMap ?? parseTextFor(flags.textFor ?? [], issues);
  const names: string[] = [];
  const targets = (flags.platform ?? []).flatMap((v) => v.split(',')).map((p) => p.trim()).filter(Boolean);
  for (const id of targets) if (!names.includes(id)) names.push(id);
  let byTextFor: Set<string> | undefined;
  for (const p of perPlatform.keys()) {
    const id = p.trim();
    if (!id || names.includes(id)) continue;
    // On the command line --platform names the targets; a --text-for for another platform is a
    // slip (a typo, or a platform dropped from --platform), not a request to post there too.
    // Without --platform (and in CSV rows, whose text:<platform> columns span rows) it adds it.
    if (targets.length && !flags.textForMap) {
      const meant = isPlatform(id) ? undefined : (nearest(id, targets) ?? suggestPlatform(id));
      if (!isPlatform(id)) {
        issues.push({ field: `--text-for ${id}`, message: `--text-for ${id}: "${id}" is not a platform id`, fix: meant ? `did you mean --text-for ${meant}="…"?` : `use one of the targets: ${targets.join(', ')}` });
        continue;
      }
      issues.push({
        field: `--text-for ${id}`,
        message: `--text-for ${id}: ${id} is not among the targets (--platform ${targets.join(',')})`,
        fix: `add it to the targets (--platform ${[...targets, id].join(',')}), or drop --text-for ${id}`,
      });
      continue;
    }
    names.push(id);
    (byTextFor ??= new Set()).add(id);
  }
  const media = (flags.media ?? []).map((m) => mediaSource(m, labels.media(m), resolvePath));
  applyAlts(flags.alt ?? [], media, issues, labels);
  const options = parseOptionFlags(flags.option ?? [], names, issues, labels);
  const partMedia = new Map(
    (flags.partMedia ?? []).map(({ part, media: items, alt }) => {
      const sources = items.map((m) => mediaSource(m, partMediaLabel(part, m), resolvePath));
      applyAlts(alt ?? [], sources, issues, labels);
      return [part, sources];
    }),
  );
  if (flags.firstComment !== undefined && names.length && !names.some((p) => isPlatform(p) && takesFirstComment(p))) {
    const field = labels.firstComment ?? '--first-comment';
    issues.push({ field, message: `${field}: none of the targets (${names.join(', ')}) takes a first comment`, fix: `first comments go to ${PLATFORMS.filter(takesFirstComment).join(', ')}; leave it out, or add one of those` });
  }
  return {
    platforms: names.map((platform) => {
      const own = perPlatform.get(platform);
      const text = own ?? flags.text;
      const threaded = flags.thread === true && text !== undefined && isPlatform(platform);
      const split = threaded ? (takesThread(platform) ? splitThreadWithCuts(platform, text) : { parts: [joinMarked(text)], cuts: [] }) : undefined;
      const parts = split?.parts;
      if (parts && takesThread(platform as Platform)) for (const n of partMedia.keys()) if (n > parts.length) issues.push(noSuchPart(platform, n, parts.length));
      const opts = options.get(platform);
      return {
        platform,
        ...(byTextFor?.has(platform) && labels === COMMAND_LINE_LABELS ? { namedBy: '--text-for' } : {}),
        text: parts ? parts[0] : text,
        textLabel: own !== undefined ? labels.textFor(platform) : labels.text,
        media,
        extra: {},
        ...(parts && parts.length > 1 ? { thread: parts.slice(1).map((t, i) => ({ text: t, media: partMedia.get(i + 2) ?? [] })) } : {}),
        ...(split && cutsToSay(split.cuts).length ? { threadCuts: cutsToSay(split.cuts) } : {}),
        ...(flags.firstComment !== undefined && isPlatform(platform) && takesFirstComment(platform) ? { firstComment: flags.firstComment } : {}),
        ...(opts ? { options: opts } : {}),
        fieldOf: flagField(labels, platform, media),
      };
    }),
    platformLabel: labels.platform,
    mediaLabel: constant(labels.mediaCount),
    missingTextFix: labels.missingTextFix,
    title: flags.title,
    ...(labels.title ? { titleLabel: labels.title } : {}),
    extraTop: {},
  };
}

const PAYLOAD_KEYS = new Set(['text', 'media', 'thread', 'firstComment', 'options']);

export interface BodyDraft {
  draft: PostDraft | undefined;
  scheduledAt: string | undefined;
  postId: string | undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A draft from a body in the contract's shape (create or schedule). `prefix` goes in front of
 * every field name ("post.json: ", "line 4: ").
 */
export function draftFromBody(value: unknown, prefix: string, resolvePath: (p: string) => string, issues: Issue[], allowed: { schedule: boolean }): BodyDraft {
  const f = (path: string) => `${prefix}${path}`;
  if (!isObject(value)) {
    issues.push({ field: f('(body)'), message: `${f('(body)')}: expected a JSON object`, fix: 'write { "payloads": { "twitter-x": { "text": "…" } } }' });
    return { draft: undefined, scheduledAt: undefined, postId: undefined };
  }
  checkTopFields(value, f, issues, allowed);
  const scheduledAt = optionalString(value, 'scheduledAt', f, issues, 'expected a string time');
  const title = value.title === null ? undefined : optionalString(value, 'title', f, issues, 'expected a string');
  if (value.postId !== undefined) {
    let postId: string | undefined;
    if (typeof value.postId !== 'string' || value.postId.trim() === '') issues.push({ field: f('postId'), message: `${f('postId')}: expected a draft id` });
    else postId = value.postId;
    if (value.payloads !== undefined) {
      issues.push({ field: f('postId'), message: `${f('postId')}: give either postId (schedule a draft) or payloads (create and schedule), not both` });
    }
    return { draft: undefined, scheduledAt, postId };
  }
  if (!isObject(value.payloads)) {
    issues.push({
      field: f('payloads'),
      message: value.payloads === undefined ? `${f('payloads')}: missing` : `${f('payloads')}: expected an object keyed by platform id`,
      fix: 'write "payloads": { "twitter-x": { "text": "…" } }',
    });
    return { draft: undefined, scheduledAt, postId: undefined };
  }
  const platforms: PlatformDraft[] = [];
  for (const [platform, payload] of Object.entries(value.payloads)) {
    const draft = platformFromBody(platform, payload, f, resolvePath, issues);
    if (draft) platforms.push(draft);
  }
  return {
    draft: {
      platforms,
      platformLabel: f('payloads'),
      mediaLabel: (p) => f(`payloads.${p}.media`),
      missingTextFix: (p) => `add "text" to payloads.${p}`,
      title,
      titleLabel: f('title'),
      extraTop: {},
    },
    scheduledAt,
    postId: undefined,
  };
}

type Label = (path: string) => string;

/** Fields the body does not take: each named, with the nearest one it does take. */
function checkTopFields(value: Record<string, unknown>, f: Label, issues: Issue[], allowed: { schedule: boolean }): void {
  const known = new Set(['payloads', 'title', ...(allowed.schedule ? ['scheduledAt', 'postId'] : [])]);
  for (const key of Object.keys(value)) {
    if (known.has(key)) continue;
    if (key === 'scheduledAt' && !allowed.schedule) {
      issues.push({ field: f('scheduledAt'), message: `${f('scheduledAt')}: posts create makes a draft and takes no time`, fix: 'use `socialpub posts schedule --file … ` to schedule it' });
      continue;
    }
    const near = nearest(key, [...known]);
    issues.push({ field: f(key), message: `${f(key)}: unknown field`, fix: near ? `did you mean "${near}"?` : `the body takes ${[...known].join(', ')}` });
  }
}

function optionalString(value: Record<string, unknown>, key: string, f: Label, issues: Issue[], problem: string): string | undefined {
  const v = value[key];
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v;
  issues.push({ field: f(key), message: `${f(key)}: ${problem}` });
  return undefined;
}

/** One platform's payload: its text, its media and the options the client passes through. */
function platformFromBody(platform: string, payload: unknown, f: Label, resolvePath: (p: string) => string, issues: Issue[]): PlatformDraft | undefined {
  const base = `payloads.${platform}`;
  if (!isObject(payload)) {
    issues.push({ field: f(base), message: `${f(base)}: expected an object with "text"` });
    return undefined;
  }
  // fromEntries: a "__proto__" field stays a field, passed through, instead of setting a prototype.
  const extra: Record<string, unknown> = Object.fromEntries(Object.entries(payload).filter(([k]) => !PAYLOAD_KEYS.has(k)));
  let text: string | undefined;
  if (payload.text !== undefined) {
    if (typeof payload.text !== 'string') issues.push({ field: f(`${base}.text`), message: `${f(`${base}.text`)}: expected a string` });
    else text = payload.text;
  }
  const media = mediaListFromBody(payload.media, `${base}.media`, f, resolvePath, issues);
  const draft: PlatformDraft = { platform, text, textLabel: f(`${base}.text`), media, extra, fieldOf: (path) => f(`${base}.${path}`) };
  if (payload.thread !== undefined) {
    if (!Array.isArray(payload.thread)) issues.push({ field: f(`${base}.thread`), message: `${f(`${base}.thread`)}: expected an array of { "text": … }: the parts after the first` });
    else {
      draft.thread = [];
      payload.thread.forEach((part: unknown, i) => {
        const at = `${base}.thread[${i}]`;
        if (!isObject(part) || typeof part.text !== 'string') return void issues.push({ field: f(`${at}.text`), message: `${f(`${at}.text`)}: expected a string` });
        draft.thread!.push({ text: part.text, media: mediaListFromBody(part.media, `${at}.media`, f, resolvePath, issues) });
      });
    }
  }
  if (payload.firstComment !== undefined) {
    if (typeof payload.firstComment !== 'string') issues.push({ field: f(`${base}.firstComment`), message: `${f(`${base}.firstComment`)}: expected a string` });
    else draft.firstComment = payload.firstComment;
  }
  if (payload.options !== undefined) {
    if (!isObject(payload.options)) issues.push({ field: f(`${base}.options`), message: `${f(`${base}.options`)}: expected an object of settings` });
    else draft.options = payload.options;
  }
  return draft;
}

function mediaListFromBody(value: unknown, at: string, f: Label, resolvePath: (p: string) => string, issues: Issue[]): MediaSource[] {
  const media: MediaSource[] = [];
  if (value === undefined) return media;
  if (!Array.isArray(value)) {
    issues.push({ field: f(at), message: `${f(at)}: expected an array of { "url": … }` });
    return media;
  }
  value.forEach((item, i) => {
    const m = mediaFromBody(item, `${at}[${i}]`, f, resolvePath, issues);
    if (m) media.push(m);
  });
  return media;
}

function mediaFromBody(item: unknown, at: string, f: Label, resolvePath: (p: string) => string, issues: Issue[]): MediaSource | undefined {
  const url = typeof item === 'string' ? item : isObject(item) ? item.url : undefined;
  if (typeof url !== 'string' || url.trim() === '') {
    issues.push({ field: f(`${at}.url`), message: `${f(`${at}.url`)}: missing`, fix: 'give a path to a local file or an https:// URL' });
    return undefined;
  }
  const m = mediaSource(url, f(`${at}.url`), resolvePath);
  if (isObject(item)) {
    const { url: _u, type, alt, ...rest } = item;
    if (alt !== undefined) {
      if (typeof alt !== 'string') issues.push({ field: f(`${at}.alt`), message: `${f(`${at}.alt`)}: expected a string` });
      else m.alt = alt;
    }
    if (type !== undefined) {
      if (type !== 'image' && type !== 'video') issues.push({ field: f(`${at}.type`), message: `${f(`${at}.type`)}: "${String(type)}" is not image or video` });
      else m.declaredType = type;
    }
    if (Object.keys(rest).length) m.extra = rest;
  }
  return m;
}
