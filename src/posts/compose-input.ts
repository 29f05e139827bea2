// A post described as structured input (an assistant's tool call, or any caller without a command
// line): platforms, texts, media, title, and for scheduling a time. Turned into a validated draft
// with its media facts, or one InvalidInputError naming every field that is wrong. Nothing here
// prompts or reads flags; times are absolute only, since a retried call must mean the same instant.
import { isAbsolute } from 'node:path';
import { draftFromFlags, isAddress, type FlagLabels, type Issue, type MediaSource, type PostDraft } from './draft.js';
import { collectFacts } from './body.js';
import { mediaInspector, type MediaFacts } from './media-facts.js';
import { validateDraft } from './validate.js';
import { checkZone, parseAt, requireFuture, TimeInputError, type ResolvedAt } from './when.js';
import { InvalidInputError } from '../wire/invalid-input.js';
import { optionStrings } from './extras.js';

export interface PostInput {
  platforms?: readonly string[];
  /** The text for every platform without its own. */
  text?: string;
  /** Per-platform texts; a platform named here is included even when `platforms` leaves it out. */
  textFor?: Readonly<Record<string, string>>;
  /** Absolute paths of local files, or http(s) URLs. */
  media?: readonly string[];
  title?: string;
  /** Schedule this existing draft instead of a new post. */
  postId?: string;
  /** RFC 3339 with an offset, or "YYYY-MM-DD HH:MM" read in `timeZone`. */
  at?: string;
  /** IANA zone for a local `at`. */
  timeZone?: string;
  /** Split a text too long for a platform that takes threads into a thread (`---` lines mark parts). */
  thread?: boolean;
  firstComment?: string;
  /** Alt text per media item, in the order of `media` ("" for none). */
  alt?: readonly string[];
  /** Settings per platform: { "youtube": { "privacy": "unlisted" } }. */
  options?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Settings as PLATFORM.KEY=VALUE, as the command line's --option takes them. */
  option?: readonly string[];
}

/** How fields are named in messages (the caller's own names, e.g. a tool's argument names). */
export interface InputLabels {
  platforms: string;
  text: string;
  /** The per-platform texts as a whole, and one of them. */
  textForAll: string;
  textFor: (platform: string) => string;
  media: string;
  title: string;
  postId: string;
  at: string;
  timeZone: string;
}

export const SNAKE_CASE_LABELS: InputLabels = {
  platforms: 'platforms',
  text: 'text',
  textForAll: 'text_for',
  textFor: (p) => `text_for.${p}`,
  media: 'media',
  title: 'title',
  postId: 'post_id',
  at: 'at',
  timeZone: 'time_zone',
};

export interface ComposeInputOptions {
  mode: 'create' | 'schedule';
  now: number;
  labels?: InputLabels;
  /** Reads media facts (by content); default: the files themselves. */
  inspect?: (m: MediaSource) => Promise<MediaFacts>;
  /**
   * The request carries an idempotency key: a time that has passed since a first call is sent
   * anyway, so the service replays that call (or refuses it), as a late CI re-run does.
   */
  keyed?: boolean;
  /** false: the API has no title (SyncPostly); a platform's need of one is left to the service. */
  titleRequired?: boolean;
}

export interface ComposedInput {
  /** Undefined when an existing draft is scheduled. */
  draft: PostDraft | undefined;
  postId: string | undefined;
  at: ResolvedAt | undefined;
  facts: Map<MediaSource, MediaFacts>;
}

const PAYLOAD_FIELDS = ['platforms', 'text', 'textFor', 'media', 'title', 'thread', 'firstComment', 'alt', 'options', 'option'] as const;

export async function composeInput(input: PostInput, options: ComposeInputOptions): Promise<ComposedInput> {
  const labels = options.labels ?? SNAKE_CASE_LABELS;
  const issues: Issue[] = [];
  const payloadGiven = PAYLOAD_FIELDS.filter((k) => {
    const v = input[k];
    return v !== undefined && (typeof v !== 'object' || Object.keys(v).length > 0);
  });

  let draft: PostDraft | undefined;
  let postId: string | undefined;
  if (input.postId !== undefined) {
    if (options.mode === 'create') issues.push({ field: labels.postId, message: `${labels.postId}: a draft is created from a payload, not from an id` });
    else if (input.postId.trim() === '') issues.push({ field: labels.postId, message: `${labels.postId} is empty`, fix: 'give the id of a draft (post_…), or leave it out to create and schedule a new post' });
    else postId = input.postId.trim();
    if (payloadGiven.length) {
      const names = payloadGiven.map((k) => fieldName(labels, k));
      issues.push({ field: labels.postId, message: `${labels.postId} cannot be combined with ${names.join(', ')}`, fix: `schedule the draft as it is (only ${labels.postId} and ${labels.at}), or leave ${labels.postId} out to create and schedule a new post` });
    }
  } else {
    draft = inputDraft(input, labels, issues);
  }

  let at: ResolvedAt | undefined;
  if (options.mode === 'schedule') at = resolveAt(input, labels, options.now, issues, options.keyed ?? false);

  // A relative path is its own problem: reading it (from wherever the server runs) would add a confusing second one.
  if (issues.some((i) => i.field.startsWith(`${labels.media}[`))) throw new InvalidInputError(issues);
  const facts = draft ? await collectFacts([draft], options.inspect ?? mediaInspector()) : new Map<MediaSource, MediaFacts>();
  if (draft) issues.push(...validateDraft(draft, (m) => facts.get(m), { titleRequired: options.titleRequired !== false }).map((i) => relabel(i, '--title', labels.title)));
  if (issues.length) throw new InvalidInputError(issues);
  return { draft, postId, at, facts };
}

/** The draft the input describes (undefined when it names no platform), with its problems in `issues`. */
export function inputDraft(input: PostInput, labels: InputLabels, issues: Issue[]): PostDraft | undefined {
  const textFor = new Map(Object.entries(input.textFor ?? {}));
  const named = [...(input.platforms ?? []), ...textFor.keys()];
  if (named.length === 0) issues.push({ field: labels.platforms, message: `${labels.platforms}: no platform given`, fix: 'name at least one platform id, e.g. ["bluesky"]' });
  const mediaLabel = (i: number) => `${labels.media}[${i}]`;
  (input.media ?? []).forEach((m, i) => {
    // An address of another kind (ftp://, file://) is not a relative path: validation names it.
    if (!isAddress(m) && !isAbsolute(m.trim())) {
      issues.push({ field: mediaLabel(i), message: `${mediaLabel(i)}: "${m}" is a relative path`, fix: 'give an absolute path to a local file, or an https:// URL' });
    }
  });
  const flagLabels: FlagLabels = {
    platform: labels.platforms,
    text: labels.text,
    textFor: labels.textFor,
    media: (source) => `${mediaLabel((input.media ?? []).indexOf(source))}`,
    mediaCount: labels.media,
    // A blank title is named as the tool's argument (check_post judged it as "--title").
    title: labels.title,
    missingTextFix: (p) => `give "${labels.text}" for every platform, or "${labels.textFor(p)}"`,
    firstComment: 'first_comment',
    alt: (_source, index) => `alt[${index}]`,
    option: (p, k) => (p ? `options.${p}${k ? `.${k}` : ''}` : 'options'),
  };
  // Settings as typed values, read again as each setting reads them (a list of tags, true/false).
  const option = [...optionStrings(input.options ?? {}), ...(input.option ?? [])];
  // Relative paths were refused above; absolute ones resolve to themselves.
  const built = draftFromFlags(
    {
      platform: [...(input.platforms ?? [])],
      text: input.text,
      textForMap: textFor,
      media: [...(input.media ?? [])],
      title: input.title,
      ...(input.thread ? { thread: true as const } : {}),
      ...(input.firstComment !== undefined ? { firstComment: input.firstComment } : {}),
      alt: (input.alt ?? []).flatMap((text, index) => (text ? [{ index, text }] : [])),
      option,
    },
    (p) => p,
    issues,
    flagLabels,
  );
  return named.length ? built : undefined;
}

const EXTRA_NAMES = { thread: 'thread', firstComment: 'first_comment', alt: 'alt', options: 'options' } as const;

function fieldName(labels: InputLabels, key: (typeof PAYLOAD_FIELDS)[number]): string {
  if (key === 'textFor') return labels.textForAll;
  return key in EXTRA_NAMES ? EXTRA_NAMES[key as keyof typeof EXTRA_NAMES] : labels[key as 'platforms' | 'text' | 'media' | 'title'];
}

/** The time: required, absolute, in the future; a local time needs its zone. */
function resolveAt(input: PostInput, labels: InputLabels, now: number, issues: Issue[], keyed = false): ResolvedAt | undefined {
  let zone: string | undefined;
  if (input.timeZone !== undefined) {
    try {
      zone = checkZone(input.timeZone);
    } catch (e) {
      if (!(e instanceof TimeInputError)) throw e;
      issues.push(relabel({ field: e.field, message: e.message, ...(e.hint ? { fix: e.hint } : {}) }, '--tz', labels.timeZone));
      return undefined;
    }
  }
  if (input.at === undefined) {
    issues.push({ field: labels.at, message: `${labels.at} is missing`, fix: `give the time: RFC 3339 with an offset (2026-12-01T09:00:00+01:00), or "YYYY-MM-DD HH:MM" with ${labels.timeZone}` });
    return undefined;
  }
  const text = input.at;
  try {
    const at = parseAt(text, { now, zone: zone ?? 'UTC', field: labels.at, allowRelative: false });
    if (at.kind === 'local' && zone === undefined) {
      issues.push({ field: labels.timeZone, message: `${labels.at}: "${text.trim()}" is a local time and ${labels.timeZone} is missing`, fix: `add ${labels.timeZone} (an IANA name such as Europe/Paris or America/New_York), or give ${labels.at} with an offset` });
      return undefined;
    }
    return keyed ? at : requireFuture(at, now, labels.at, text.trim());
  } catch (e) {
    if (!(e instanceof TimeInputError)) throw e;
    // The shared hints also offer relative times ("+2h") and the machine's zone, neither of which applies here.
    const forms = `give RFC 3339 with an offset (2026-12-01T09:00:00+01:00), or "YYYY-MM-DD HH:MM" with ${labels.timeZone}`;
    const fix = e.hint && /\+\d/.test(e.hint) ? forms : e.hint?.split('--tz').join(labels.timeZone);
    issues.push(relabel({ field: e.field, message: e.message, ...(fix ? { fix } : {}) }, '--tz', labels.timeZone));
    return undefined;
  }
}

/** Messages from shared validation name command-line flags; the caller's names replace them. */
function relabel(issue: Issue, flag: string, label: string): Issue {
  if (issue.field !== flag) return issue;
  return { ...issue, field: label, message: issue.message.split(flag).join(label), ...(issue.fix ? { fix: issue.fix.split(flag).join(label) } : {}) };
}

/**
 * A text read from a file or written in an editor: paragraphs and line breaks kept, Windows line
 * ends made plain, and the blank lines and final newline editors add at either end dropped.
 */
export function textFromFile(raw: string): string {
  return raw.replace(/\r\n?/g, '\n').replace(/^(?:[ \t]*\n)+/, '').replace(/\s+$/, '');
}
