// Local validation of a draft against each platform's published limits (src/wire/platforms.ts),
// before anything is sent: the service would refuse these anyway, later and less helpfully.
import { threadOffer } from '../wire/post-extras.js';
import { PLATFORM_LIMITS, PLATFORMS, formatBytesFor, isPlatform, mediaKind, type Platform } from '../wire/platforms.js';
import { judgeText, overLimit, possessive, unitWord } from '../wire/text-limits.js';
import { judgePayload, sizeLimit, type MediaItemFacts, type PayloadFacts, type RuleCheck } from '../wire/post-rules.js';
import { judgeOptions } from '../wire/post-options.js';
import { isUrl, type Issue, type MediaSource, type PlatformDraft, type PostDraft } from './draft.js';
import { cutWarning } from './thread-split.js';
import type { MediaFacts } from './media-facts.js';
import { didYouMean, suggestPlatform } from '../wire/suggest.js';


export type FactsOf = (m: MediaSource) => MediaFacts | undefined;

export interface ValidateOptions {
  /**
   * Leave out what is merely missing (no platform, no text, no media or title where needed): a terminal
   * is about to ask for it, and everything given must be judged before the first question.
   */
  skipMissing?: boolean;
  /**
   * false (--no-local-checks): leave each platform's own rules (text length, media count, media
   * needed, media type and size, and the rules of src/wire/post-rules.ts) to the service, for users who know a platform has changed them.
   * What the client needs to send at all (known platform ids, readable media files) is still
   * checked.
   */
  platformRules?: boolean;
  /**
   * false: the API has no title to send (SyncPostly), so a platform's own need of one (YouTube)
   * is left to the service rather than made impossible to meet.
   */
  titleRequired?: boolean;
}

/** A text on the command line, not split yet: where the platform publishes threads, --thread would split it. */
/** A text given on the command line, not yet split: a thread is a fix --thread can make of it. */
export const threadable = (p: PostDraft['platforms'][number]) => !p.thread && p.textLabel.startsWith('--');

/** Every problem of the draft; an empty list means it can be sent. */
export function validateDraft(draft: PostDraft, factsOf: FactsOf, options: ValidateOptions = {}): Issue[] {
  const issues: Issue[] = [];
  const reportMissing = !options.skipMissing;
  const rules = options.platformRules !== false;
  if (draft.platforms.length === 0 && reportMissing) {
    issues.push({ field: draft.platformLabel, message: `${draft.platformLabel}: no platform given`, fix: `name at least one: ${PLATFORMS.join(', ')}` });
  }
  if (draft.title !== undefined && draft.title.trim() === '') {
    const field = draft.titleLabel ?? '--title';
    issues.push({ field, message: `${field} is empty`, fix: `leave ${field === '--title' ? '--title' : 'it'} out, or give it some text` });
  }
  // Made when first needed: a post without problems (every row of a clean bulk file) makes none.
  let reportedMedia: Set<string> | undefined;
  for (const p of draft.platforms) {
    if (!isPlatform(p.platform)) {
      const s = suggestPlatform(p.platform);
      const label = p.namedBy ?? draft.platformLabel;
      const valid = label === '--text-for' ? ` (--text-for takes the ids --platform takes)` : '';
      issues.push({ field: label, message: `${label}: "${p.platform}" is not a platform id`, fix: `${didYouMean(s, PLATFORMS)}${valid}` });
      continue;
    }
    const limits = PLATFORM_LIMITS[p.platform];
    if (p.text === undefined) {
      if (reportMissing) issues.push({ field: p.textLabel, message: `text for ${p.platform} is missing`, fix: draft.missingTextFix(p.platform) });
    } else if (p.text.trim() === '') {
      issues.push({ field: p.textLabel, message: `${p.textLabel}: the text for ${p.platform} is empty`, fix: 'write the text of the post' });
    } else if (rules) {
      const verdict = judgeText(p.platform, p.text);
      // A text shared by several platforms can also be given its own for the platform it is too long for.
      const ownText =
        p.textLabel === '--text' ? `, or give ${p.platform} its own text with --text-for ${p.platform}="…"` : p.textLabel === 'text' ? `, or give ${p.platform} its own text in text_for.${p.platform}` : '';
      if (verdict.over > 0) {
        issues.push({
          field: p.textLabel,
          message: `${p.textLabel}: ${overLimit(p.platform, verdict)}`,
          fix: `shorten it by ${verdict.over} ${unitWord(p.platform, verdict.over)}${ownText}${threadable(p) ? threadOffer(p.platform, '--thread') : ''}`,
        });
      } else if (verdict.invalid) {
        issues.push({ field: p.textLabel, message: `${p.textLabel}: ${p.platform} refuses this text: ${verdict.invalid}`, fix: 'remove the character (or close the directional mark with U+202C or U+2069)' });
      } else if (verdict.bytesOver) {
        const b = verdict.bytesOver;
        issues.push({ field: p.textLabel, message: `${p.textLabel}: ${b.length} UTF-8 bytes is ${b.over} over ${possessive(p.platform)} limit of ${b.max} bytes`, fix: `shorten it by ${b.over} bytes${ownText}` });
      }
    }
    const mediaLabel = draft.mediaLabel(p.platform);
    if (rules && p.media.length > limits.maxMedia) {
      issues.push({ field: mediaLabel, message: `${mediaLabel}: ${p.media.length} items, ${p.platform} takes at most ${limits.maxMedia}`, fix: `remove ${p.media.length - limits.maxMedia}` });
    }
    if (rules && limits.requiresMedia && p.media.length === 0 && reportMissing) {
      const kinds = Object.keys(limits.media).join(' or ');
      // Said in the words of where the post came from: a flag, a JSON file, a CSV row, or the MCP tools' "media" argument.
      const where = mediaLabel.startsWith('--')
        ? 'add --media <file or URL>'
        : mediaLabel.includes('payloads.')
          ? `add "media": [{ "url": … }] to payloads.${p.platform}`
          : mediaLabel === 'media'
            ? 'give media: an https:// URL, or a local file'
            : 'add a media column with a file or URL';
      issues.push({ field: mediaLabel, message: `${mediaLabel}: ${p.platform} needs at least one ${kinds}`, fix: `${where} (${kinds})` });
    }
    // A thread part's media are files and addresses like the post's own.
    for (const m of p.thread?.length ? [...p.media, ...p.thread.flatMap((t) => t.media)] : p.media) {
      const problem = mediaProblem(p.platform, m, factsOf(m));
      if (!problem || (problem.perPlatform && !rules)) continue;
      // A missing file is one problem, not one per platform.
      const key = `${m.label}\0${problem.perPlatform ? p.platform : ''}`;
      if (reportedMedia?.has(key)) continue;
      (reportedMedia ??= new Set()).add(key);
      issues.push(problem.issue);
    }
    if (rules) issues.push(...ruleIssues(draft, p, p.platform, factsOf, reportMissing, options.titleRequired !== false));
    // A setting the platform does not have is no rule of the platform's to relax: named always.
    else if (p.options !== undefined) issues.push(...optionIssues(p.platform, p.options, (key) => p.fieldOf?.(key ? `options.${key}` : 'options') ?? `payloads.${p.platform}.options`));
  }
  // The same problem met on several platforms (an http:// URL) is told once.
  if (issues.length < 2) return issues;
  const told = new Set<string>();
  return issues.filter((i) => !told.has(`${i.field}\0${i.message}`) && told.add(`${i.field}\0${i.message}`));
}

/** The problems of a platform's settings as issues, each named by `fieldOf` (given the key; '' for the settings as a whole). */
export function optionIssues(platform: Platform, options: unknown, fieldOf: (key: string) => string): Issue[] {
  return judgeOptions(platform, options).map((o) => {
    const field = fieldOf(o.key);
    return { field, message: `${field}: ${o.message}`, fix: o.fix };
  });
}

// Judged above with messages that name the field; the other rules come from the shared judge.
const JUDGED_ABOVE = new Set(['text.length', 'text.bytes', 'text.characters', 'media.required', 'media.count', 'media.type', 'media.size']);

/** What the platform's rules say of this payload, beyond length, count, type and size. */
function ruleIssues(draft: PostDraft, p: PlatformDraft, platform: Platform, factsOf: FactsOf, reportMissing: boolean, titleRequired: boolean): Issue[] {
  return judgePayload(platform, payloadFacts(draft, p, factsOf))
    // A missing title is asked for too (a platform that needs one), like missing media.
    .filter((c) => c.verdict === 'fail' && !JUDGED_ABOVE.has(c.rule) && ((reportMissing && titleRequired) || c.rule !== 'title.required'))
    .map((c) => checkIssue(draft, p, c));
}

/** A failing rule check as the problem it is, named by the field it is about (the text, the title, a media item, a setting). */
export function checkIssue(draft: PostDraft, p: PlatformDraft, c: RuleCheck): Issue {
  const title = typeof p.extra.title === 'string' ? payloadField(p, 'title') : (draft.titleLabel ?? '--title');
  // A thread part's media item is named by its own label, except for its alt text: a field of its own.
  const byItem = c.item && c.part !== undefined && !c.rule.startsWith('thread.text') && c.rule !== 'thread.media.alt';
  const byPath = c.path !== undefined && !byItem ? (p.fieldOf?.(c.path) ?? payloadField(p, c.path)) : undefined;
  const field = byPath ?? c.item ?? (c.rule.startsWith('text.') ? p.textLabel : c.rule.startsWith('title.') ? title : c.rule.startsWith('link.') ? payloadField(p, 'link') : draft.mediaLabel(p.platform));
  return { field, message: `${field}: ${c.message}`, ...(c.fix ? { fix: c.fix } : {}) };
}

/** A field of a payload from a body, named as its text is ("line 4: payloads.pinterest.link"). */
function payloadField(p: PlatformDraft, key: string): string {
  const text = `payloads.${p.platform}.text`;
  return p.textLabel.endsWith(text) ? `${p.textLabel.slice(0, -'text'.length)}${key}` : `payloads.${p.platform}.${key}`;
}

/** A platform's payload as the rules judge it: its text, title, link and media facts. */
export function payloadFacts(draft: PostDraft, p: PlatformDraft, factsOf: FactsOf): PayloadFacts {
  // Filled a field at a time, not spread together: this runs for every target of a bulk file.
  const facts: PayloadFacts = { text: p.text ?? '', media: p.media.map((m) => mediaFacts(m, factsOf)) };
  const title = typeof p.extra.title === 'string' ? p.extra.title : draft.title;
  if (title !== undefined) facts.title = title;
  if (typeof p.extra.link === 'string') facts.link = p.extra.link;
  if (p.thread) facts.thread = p.thread.map((part) => ({ text: part.text, media: part.media.map((m) => mediaFacts(m, factsOf)) }));
  if (p.firstComment !== undefined) facts.firstComment = p.firstComment;
  if (p.options !== undefined) facts.options = p.options;
  return facts;
}

function mediaFacts(m: MediaSource, factsOf: FactsOf): MediaItemFacts {
  const f = factsOf(m);
  const facts: MediaItemFacts = { label: m.label };
  if (m.isUrl && !m.onService) facts.url = m.source;
  if (f?.mimeType) facts.mimeType = f.mimeType;
  if (m.declaredType === 'image' || m.declaredType === 'video') facts.declaredKind = m.declaredType;
  if (f?.sizeBytes !== undefined) facts.sizeBytes = f.sizeBytes;
  if (f?.extensionMime && f.mimeType) facts.nameMimeType = f.extensionMime;
  if (f?.info) facts.info = f.info;
  if (m.alt !== undefined) facts.alt = m.alt;
  return facts;
}

/** A label that quotes a long source (a data: URL can be megabytes) quotes its start only. */
function shortened(label: string, source: string): string {
  return source.length > 60 ? label.replace(source, () => `${source.slice(0, 40)}…`) : label;
}

function mediaProblem(platform: Platform, m: MediaSource, facts: MediaFacts | undefined): { issue: Issue; perPlatform: boolean } | undefined {
  const field = m.label;
  const limits = PLATFORM_LIMITS[platform];
  if (m.source === '') return { issue: { field: field.trimEnd(), message: `${field.trimEnd()}: empty`, fix: 'give a path to an image or video file, or an https:// URL' }, perPlatform: false };
  // An address the post already carries was the service's to take.
  if (m.isUrl && !m.onService && !isUrl(m.source)) {
    const shown = shortened(field, m.source);
    return { issue: { field: shown, message: `${shown}: only https:// URLs or local files are taken`, fix: 'download it first and give the local file, or give its https:// URL' }, perPlatform: false };
  }
  if (m.isUrl && !m.onService && !URL.canParse(m.source)) return { issue: { field, message: `${field}: not a valid URL`, fix: 'give the whole address, https://host/path/photo.jpg' }, perPlatform: false };
  if (!m.isUrl) {
    // The MCP tools' media (labelled media[i]) take absolute paths only: no word on relative ones there.
    const where = field.startsWith('media') ? 'it must name a file that exists' : "relative paths start from the current folder, or the file's folder for --file and bulk files";
    if (!facts || !facts.exists) return { issue: { field, message: `${field}: no such file`, fix: `check the path (${where})` }, perPlatform: false };
    if (facts.unreadable) {
      // A link that leads in circles is not fixed by permissions.
      const fix = facts.unreadable.startsWith('permission denied') ? 'check its permissions (ls -l), or copy it somewhere this user can read' : 'check the path (ls -l shows where a link leads), or copy the file itself there';
      return { issue: { field, message: `${field}: cannot read the file: ${facts.unreadable}`, fix }, perPlatform: false };
    }
    if (!facts.isFile) return { issue: { field, message: `${field}: not a regular file`, fix: 'give a path to an image or video file' }, perPlatform: false };
    if (facts.sizeBytes === 0) return { issue: { field, message: `${field}: the file is empty`, fix: 'give a real image or video' }, perPlatform: false };
    // A name that says another type (a PNG named .jpg) is no refusal: the content is what is
    // judged and uploaded, and a platform that takes the content takes the file (see mediaNameNotes).
    if (!facts.mimeType || !mediaKind(facts.mimeType)) {
      return { issue: { field, message: `${field}: the content is not an image or video the platforms take (looks like ${facts.content ?? 'something else'}${facts.mimeType ? '' : '; unknown media type'})`, fix: 'give an image (JPEG, PNG, GIF, WebP) or a video (MP4, MOV, WebM); the file name does not change what it holds' }, perPlatform: false };
    }
  }
  const mime = facts?.mimeType;
  if (!mime) return undefined; // a URL without a telling extension: the service decides
  const kind = mediaKind(mime);
  const declared = m.declaredType;
  if (declared && kind && declared !== kind) {
    return { issue: { field, message: `${field}: declared as ${declared} but it is ${mime}`, fix: `set "type": "${kind}" or leave "type" out` }, perPlatform: false };
  }
  const limit = kind ? limits.media[kind] : undefined;
  if (!kind || !limit || !limit.mimeTypes.includes(mime)) {
    const takes = Object.values(limits.media).flatMap((l) => [...l.mimeTypes]);
    return { issue: { field, message: `${field}: ${platform} does not take ${mime}`, fix: `${platform} takes ${takes.join(', ')}` }, perPlatform: true };
  }
  const maxBytes = sizeLimit(platform, mime) ?? limit.maxBytes;
  if (facts?.sizeBytes !== undefined && facts.sizeBytes > maxBytes) {
    const over = facts.sizeBytes - maxBytes;
    return {
      issue: { field, message: `${field}: ${formatBytesFor(facts.sizeBytes, maxBytes)} is over ${possessive(platform)} ${kind} limit of ${formatBytesFor(maxBytes, maxBytes)} by ${formatBytesFor(over, maxBytes)}`, fix: `compress or resize it to at most ${formatBytesFor(maxBytes, maxBytes)}` },
      perPlatform: true,
    };
  }
  return undefined;
}

/** "--text: bluesky: a URL of 412 characters is … cut between thread parts 4 and 5", for each word --thread had to cut. */
export function threadCutNotes(draft: PostDraft): string[] {
  return draft.platforms.flatMap((p) => (isPlatform(p.platform) ? (p.threadCuts ?? []).map((c) => `${p.textLabel}: ${p.platform}: ${cutWarning(p.platform as Platform, c).message}`) : []));
}

/** Each word --thread had to cut, as a warning row of `posts check` (on the later part of the two). */
export function threadCutChecks(p: PlatformDraft): RuleCheck[] {
  if (!isPlatform(p.platform) || !p.threadCuts) return [];
  const platform = p.platform;
  return p.threadCuts.map((c) => ({ rule: 'thread.cut', verdict: 'warn' as const, part: c.part - 1, path: `thread[${c.part - 1}].text`, ...cutWarning(platform, c), source: 'the thread splitter (--thread, src/posts/thread-split.ts)' }));
}

/** "photo.jpg is image/png (its name says image/jpeg): sent as image/png", once per file whose name and content disagree. */
export function mediaNameNotes(draft: PostDraft, factsOf: (m: MediaSource) => MediaFacts | undefined): string[] {
  const notes = new Map<string, string>();
  for (const p of draft.platforms) {
    for (const m of p.media) {
      const f = factsOf(m);
      if (!m.isUrl && f?.extensionMime && f.mimeType && !notes.has(m.source)) notes.set(m.source, `${m.label} is ${f.mimeType} (its name says ${f.extensionMime}): judged and sent as ${f.mimeType}`);
    }
  }
  return [...notes.values()];
}
