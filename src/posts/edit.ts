// Changing an existing post (PATCH /v1/posts/{id}): from the post as it is and the changes asked
// for (texts, platforms added or removed, media, title) to a validated patch that names only what
// differs, checked by the same local rules as a new post. Shared by `posts edit` and the MCP
// server's update_post; no Context: the caller passes the client and the labels of its fields.
import type { ApiClient, ApiResponse } from '../client/types.js';
import { nearest } from '../wire/suggest.js';
import { PATHS } from '../wire/protocol.js';
import type { Post, UpdatePostBody } from '../wire/schemas.js';
import { InvalidInputError } from '../wire/invalid-input.js';
import { buildBody, collectFacts, localFiles } from './body.js';
import { COMMAND_LINE_LABELS, mediaSource, type AltFlag, type FlagLabels, type Issue, type MediaSource, type PlatformDraft, type PostDraft } from './draft.js';
import { applyAlts, parseOptionFlags } from './extras.js';
import { cutsToSay, splitThreadWithCuts } from './thread-split.js';
import { isPlatform, PLATFORMS } from '../wire/platforms.js';
import { takesFirstComment, takesThread } from '../wire/post-extras.js';
import { mediaInspector, type MediaFacts } from './media-facts.js';
import { keyHeader, uploadedUrl, uploadRequests, type PlannedRequest } from './planned-request.js';
import { uploadFiles, type UploadLedger } from './uploads.js';
import { validateDraft } from './validate.js';
import { stableStringify } from './keys.js';
import { canChange, isObject, postStatusText, payloadsOf, textOf, type Payload } from './outcome.js';

export interface PostChanges {
  /** The text of every target (a target's own text wins). */
  text?: string;
  /** Per-platform texts; a platform named here that is not a target becomes one. */
  textFor?: ReadonlyMap<string, string>;
  add?: readonly string[];
  remove?: readonly string[];
  /** Replaces the media of every target: local paths (resolved by the caller) or URLs. */
  media?: readonly string[];
  /** A new title; null removes it. */
  title?: string | null;
  /** Per platform, the accounts (ids) to publish to; a platform named here that is not a target becomes one. */
  accounts?: ReadonlyMap<string, readonly string[]>;
  /** Split the text into a thread again where the platform takes one (the current parts joined, or the new text). */
  thread?: boolean;
  /** A new first comment where the platform takes one; null removes it. */
  firstComment?: string | null;
  /** PLATFORM.KEY=VALUE settings, merged into each platform's current ones. */
  option?: readonly string[];
  /** Alt texts for the new media (the --media before each). */
  alt?: readonly AltFlag[];
  /** Per platform, what an editor file wrote of the fields beyond the text (each given one replaces the current one). */
  payloadEdits?: ReadonlyMap<string, PayloadEdit>;
}

/** One platform's fields as written whole (the `posts edit --editor` file): each given field replaces the current one. */
export interface PayloadEdit {
  /** The later parts of the thread (the text is the first); each part keeps the media of the part it replaces. */
  thread?: readonly string[];
  /** null removes it. */
  firstComment?: string | null;
  /** Alt text by media index; null removes it. */
  alt?: ReadonlyMap<number, string | null>;
  /** The later parts' alt texts, by thread index (0: the first reply), then as `alt`. */
  partAlt?: ReadonlyMap<number, ReadonlyMap<number, string | null>>;
  /** The settings as a whole; --option values are merged into them. */
  options?: Readonly<Record<string, unknown>>;
  /** How a field of this payload is named in messages (its line); undefined: as usual. */
  fieldOf?: (path: string) => string | undefined;
}

/** How fields are named in messages: flags, or a tool's argument names. */
export interface EditLabels {
  id: string;
  text: string;
  textFor: (platform: string) => string;
  add: string;
  remove: string;
  media: (source: string) => string;
  mediaCount: string;
  title: string;
  firstComment?: string;
  option?: (platform: string, key: string) => string;
  /** The alt texts as a whole, and the one of the media item at `index`. */
  altAll?: string;
  alt?: (source: string, index: number) => string;
  /** The thread re-split (`--thread`), and how to keep a later part's media instead of losing it. */
  thread?: string;
  keepPartsFix?: (id: string) => string;
}

export const EDIT_FLAG_LABELS: EditLabels = {
  id: '<id>',
  text: '--text',
  textFor: (p) => `--text-for ${p}`,
  add: '--platform',
  remove: '--remove-platform',
  media: (m) => `--media ${m}`,
  mediaCount: '--media',
  title: '--title',
  thread: '--thread',
  keepPartsFix: (id) => `mark the parts by hand so that each part with media stays: posts edit ${id} --editor without --thread (a line holding only --- starts the next part); or remove that media first`,
};

export interface PlannedEdit {
  before: Post;
  /** The targets whose payload changes or that are added, each with its whole new payload. */
  draft: PostDraft;
  removed: string[];
  title: string | null | undefined;
  facts: Map<MediaSource, MediaFacts>;
  /** Nothing differs from the post as it is. */
  unchanged: boolean;
}

/** Why a post cannot change (it went out), and what to do instead; undefined when it can. */
export function notEditable(post: Post, label: string, instead: { retry: string; create: string }): InvalidInputError | undefined {
  if (canChange(post)) return undefined;
  const state = postStatusText(post);
  const fix = post.status === 'failed' ? `${instead.retry} sends its failed targets again; or ${instead.create}` : instead.create;
  return new InvalidInputError([{ field: label, message: `post ${post.id} is ${state}: a post that went out can no longer be changed, moved or deleted`, fix }]);
}

function keptMedia(platform: string, payload: Payload | undefined): MediaSource[] {
  const items = Array.isArray(payload?.media) ? payload.media : [];
  return items.filter(isObject).map((item, i) => {
    // Alt text is the item's own field, so that an edit can change it and the rules judge it.
    const { url, type, alt, ...extra } = item;
    if (alt !== undefined && typeof alt !== 'string') extra.alt = alt;
    return {
      source: String(url ?? ''),
      isUrl: true,
      onService: true,
      label: `payloads.${platform}.media.${i}`,
      ...(typeof type === 'string' ? { declaredType: type } : {}),
      ...(typeof alt === 'string' ? { alt } : {}),
      ...(Object.keys(extra).length ? { extra } : {}),
    };
  });
}

export interface PlanEditOptions {
  labels?: EditLabels;
  resolvePath?: (p: string) => string;
  inspect?: (m: MediaSource) => Promise<MediaFacts>;
  /** false: leave each platform's own rules to the service (--no-local-checks). */
  platformRules?: boolean;
  /** false: the API has no title (SyncPostly); a platform's need of one is left to the service. */
  titleRequired?: boolean;
}

/** The patch for `changes` on `post`, validated; InvalidInputError names every problem. */
export async function planEdit(post: Post, given: PostChanges, options: PlanEditOptions = {}): Promise<PlannedEdit> {
  const labels = options.labels ?? EDIT_FLAG_LABELS;
  const issues: Issue[] = blankIssues(given, labels);
  const changes = withoutBlanks(given);
  const current = payloadsOf(post);
  const targets = Object.keys(current);
  const removed: string[] = [];
  for (const p of changes.remove ?? []) {
    if (!targets.includes(p)) {
      const meant = nearest(p, targets);
      issues.push({ field: labels.remove, message: `${labels.remove} ${p}: not a target of post ${post.id}`, fix: `${meant ? `did you mean ${labels.remove} ${meant}? ` : ''}its targets are ${targets.join(', ')}` });
    }
    else if (!removed.includes(p)) removed.push(p);
  }
  const textFor = changes.textFor ?? new Map<string, string>();
  const named = [...(changes.add ?? []), ...textFor.keys(), ...(changes.accounts?.keys() ?? [])].filter((p, i, all) => all.indexOf(p) === i);
  const added = named.filter((p) => !targets.includes(p));
  // Removed and given a platform, text or account in one edit: which was meant is not guessed.
  for (const p of named) if (removed.includes(p)) issues.push({ field: labels.remove, message: `${labels.remove} ${p}: ${p} is also given a platform, text or account in this edit`, fix: 'keep one of the two' });
  const after = [...targets.filter((p) => !removed.includes(p)), ...added];
  if (after.length === 0) {
    issues.push({ field: labels.remove, message: `${labels.remove}: every platform of post ${post.id} would be removed`, fix: 'keep at least one; to withdraw the post, delete it' });
    // Judged further, the empty post would also be told "no platform given" under the add label.
    throw new InvalidInputError(issues);
  }

  // An added platform starts from the post's first remaining payload (the text is usually shared).
  const model = current[targets.find((p) => !removed.includes(p)) ?? targets[0] ?? ''];
  const media = changes.media?.map((m) => mediaSource(m, labels.media(m), options.resolvePath ?? ((p) => p)));
  const flagLabels: FlagLabels = {
    ...COMMAND_LINE_LABELS,
    platform: labels.add,
    ...(labels.firstComment ? { firstComment: labels.firstComment } : {}),
    ...(labels.option ? { option: labels.option } : {}),
    ...(labels.alt ? { alt: labels.alt } : {}),
  };
  if (media) applyAlts(changes.alt ?? [], media, issues, flagLabels);
  else if (changes.alt?.length) {
    issues.push(
      labels.altAll
        ? { field: labels.altAll, message: `${labels.altAll}: alt texts describe the media given with them, and this edit gives no ${labels.mediaCount}`, fix: `give ${labels.mediaCount} again with one alt text per item, in the same order` }
        : { field: '--alt', message: '--alt describes the --media before it, and this edit gives no --media', fix: 'give the media again with its alt text: --media photo.jpg --alt "…"' },
    );
  }
  const optionChanges = parseOptionFlags(changes.option ?? [], after, issues, flagLabels);
  if (typeof changes.firstComment === 'string' && !after.some((p) => isPlatform(p) && takesFirstComment(p))) {
    const field = labels.firstComment ?? '--first-comment';
    issues.push({ field, message: `${field}: none of the targets (${after.join(', ')}) takes a first comment`, fix: `first comments go to ${PLATFORMS.filter(takesFirstComment).join(', ')}` });
  }
  // Every target the post keeps is judged, as the post will be after the edit (a new title is
  // judged by each platform's title rule; what remains after a removal must still hold); only the
  // targets a change touches go into the patch.
  const platforms: PlatformDraft[] = [];
  const touched = new Set<string>();
  for (const p of after) {
    const isNew = added.includes(p);
    const own = textFor.get(p);
    const opts = optionChanges.get(p);
    const accounts = changes.accounts?.get(p);
    const edit = changes.payloadEdits?.get(p);
    if (isNew || own !== undefined || changes.text !== undefined || media !== undefined || changes.thread || changes.firstComment !== undefined || opts || accounts || edit) touched.add(p);
    const base = isNew ? undefined : current[p];
    const { text: _text, media: _media, thread: oldThread, firstComment: oldComment, options: oldOptions, ...kept } = base ?? {};
    const extra = accounts ? { ...kept, accounts: [...accounts] } : kept;
    const newText = own ?? changes.text;
    const partsNow = Array.isArray(oldThread) ? oldThread.filter(isObject).map((t) => String(t.text ?? '')) : [];
    // A new text replaces the whole thread; --thread splits again (the new text, or the parts as they are, joined).
    const whole = newText ?? (partsNow.length ? [base ? textOf(base) : textOf(model), ...partsNow].join('\n\n') : base ? textOf(base) : textOf(model));
    const split = changes.thread && isPlatform(p) && takesThread(p) ? splitThreadWithCuts(p, whole) : undefined;
    const parts = split?.parts;
    const cuts = split ? cutsToSay(split.cuts) : [];
    const oldParts = Array.isArray(oldThread) ? oldThread.filter(isObject) : [];
    // Each part keeps the media of the part it replaces, written by hand or split again.
    const inPlace = (texts: readonly string[]) => texts.map((t, i) => ({ text: t, media: oldParts[i] ? keptMedia(`${p}.thread.${i}`, oldParts[i]) : [] }));
    if (parts) refuseLostPartMedia(p, oldParts, parts.length - 1, post.id, labels, issues);
    // A new text without --thread (or an editor's parts) replaces the whole thread: its media go too.
    else if (newText !== undefined && edit?.thread === undefined) refuseLostPartMedia(p, oldParts, 0, post.id, labels, issues, own !== undefined ? labels.textFor(p) : labels.text);
    const keptThread =
      edit?.thread !== undefined && !changes.thread
        ? withPartAlts(inPlace(edit.thread), edit, issues, p)
        : parts
          ? withPartAlts(inPlace(parts.slice(1)), edit ? { ...edit, partAlt: new Map([...(edit.partAlt ?? [])].filter(([t]) => t < parts.length - 1)) } : {}, issues, p)
          : newText === undefined && !changes.thread && oldParts.length
            ? oldParts.map((t, i) => ({ text: String(t.text ?? ''), media: keptMedia(`${p}.thread.${i}`, t) }))
            : undefined;
    const comment = edit?.firstComment !== undefined ? (edit.firstComment ?? undefined) : commentAfter(p, changes.firstComment, oldComment);
    const settings = { ...(edit?.options ?? (isObject(oldOptions) ? oldOptions : {})), ...(opts ?? {}) };
    const itsMedia = withAlts(media ?? keptMedia(p, base ?? model), edit?.alt, (i) => edit?.fieldOf?.(`media[${i}].alt`) ?? `payloads.${p}.media[${i}].alt`, p, issues);
    platforms.push({
      platform: p,
      ...(isNew && !(changes.add ?? []).includes(p) ? { namedBy: labels.textFor(p).split(' ')[0] } : {}),
      text: parts ? parts[0] : changes.thread && newText === undefined ? whole : (newText ?? (base ? textOf(base) : textOf(model))),
      textLabel: own !== undefined ? labels.textFor(p) : changes.text !== undefined ? labels.text : isNew ? labels.add : `payloads.${p}.text`,
      media: itsMedia,
      extra,
      ...(keptThread?.length ? { thread: keptThread } : {}),
      ...(cuts.length ? { threadCuts: cuts } : {}),
      ...(comment !== undefined ? { firstComment: comment } : {}),
      ...(Object.keys(settings).length ? { options: settings } : {}),
      fieldOf: (path) => edit?.fieldOf?.(path) ?? (path.startsWith('options.') && opts ? (labels.option ?? ((pl: string, k: string) => `--option ${pl}.${k}`))(p, path.slice('options.'.length)) : path === 'firstComment' && typeof changes.firstComment === 'string' ? (labels.firstComment ?? '--first-comment') : `payloads.${p}.${path}`),
    });
  }
  const title = changes.title;
  const draft: PostDraft = {
    platforms,
    platformLabel: labels.add,
    mediaLabel: () => labels.mediaCount,
    missingTextFix: (p) => `give ${labels.textFor(p)}="…"`,
    // The title the post will have: YouTube's rule needs it even when the edit leaves it alone.
    title: (title === undefined ? post.title : title) ?? undefined,
    titleLabel: labels.title,
    extraTop: {},
  };
  const facts = await collectFacts([draft], options.inspect ?? mediaInspector());
  issues.push(...validateDraft(draft, (m) => facts.get(m), { platformRules: options.platformRules !== false, titleRequired: options.titleRequired !== false }));
  if (issues.length) throw new InvalidInputError(issues);

  // Only what differs is sent: a payload equal to the current one is left out.
  const same = (p: PlatformDraft) => !isNew(p) && localFiles({ ...draft, platforms: [p] }).length === 0 && sameJson(buildBody({ ...draft, platforms: [p] }, facts, (x) => x).payloads[p.platform], current[p.platform]);
  const isNew = (p: PlatformDraft) => added.includes(p.platform);
  draft.platforms = platforms.filter((p) => touched.has(p.platform) && !same(p));
  const titleChanged = title !== undefined && (title ?? undefined) !== (post.title ?? undefined);
  return {
    before: post,
    draft,
    removed,
    title: titleChanged ? title : undefined,
    facts,
    unchanged: draft.platforms.length === 0 && removed.length === 0 && !titleChanged,
  };
}

/**
 * A thread split again into fewer later parts than there were parts with media, or replaced whole
 * by a new text (`byText`: the flag that gave it), would drop the media of the parts past its
 * end: an issue naming them, rather than a silent loss.
 */
function refuseLostPartMedia(platform: string, oldParts: readonly Payload[], later: number, id: string, labels: EditLabels, issues: Issue[], byText?: string): void {
  const lost = oldParts.flatMap((t, i) => (i >= later && Array.isArray(t.media) && t.media.some(isObject) ? [i + 2] : []));
  if (!lost.length) return;
  const named = lost.length === 1 ? `part ${lost[0]}` : `parts ${lost.slice(0, -1).join(', ')} and ${lost[lost.length - 1]}`;
  const media = `the media of ${named} (with ${lost.length === 1 ? 'its' : 'their'} alt text) would be lost`;
  if (byText !== undefined) {
    const thread = labels.thread ?? '--thread';
    issues.push({ field: byText, message: `${byText}: a new text replaces the whole ${platform} thread, so ${media}`, fix: `add ${thread} to split the new text into parts that keep the media of the parts they replace, or remove that media first` });
    return;
  }
  const field = labels.thread ?? '--thread';
  issues.push({ field, message: `${field}: split again, the ${platform} thread has ${partCount(later + 1)}, so ${media}`, fix: (labels.keepPartsFix ?? EDIT_FLAG_LABELS.keepPartsFix!)(id) });
}

/** "one part", "3 parts": how many parts a thread has, in the messages above. */
const partCount = (n: number) => (n === 1 ? 'one part' : `${n} parts`);

/** A platform's first comment after --first-comment (null: removed; a platform that takes none gets none), or the one it had. */
const BLANKABLE = [
  ['title', 'title'],
  ['firstComment', 'first comment'],
] as const;
const isBlank = (value: string | null | undefined) => typeof value === 'string' && value.trim() === '';

/**
 * A title or first comment of only spaces, refused naming the field and both ways out: read as a
 * removal, a blank shell variable would remove it unasked ("" removes it, said plainly). Known
 * without the post, so a command can ask before any request; planEdit asks again.
 */
export function blankIssues(changes: PostChanges, labels: EditLabels = EDIT_FLAG_LABELS): Issue[] {
  return BLANKABLE.filter(([key]) => isBlank(changes[key])).map(([key, what]) => {
    const field = key === 'title' ? labels.title : (labels.firstComment ?? '--first-comment');
    return { field, message: `${field} is blank`, fix: `give the ${what} some text, or remove it with ${field.startsWith('--') ? `${field} ""` : `${field} set to ""`}` };
  });
}

/**
 * A new text of only spaces (`--text " "`, `--text-for bluesky=" "`), once per flag: known
 * without the post, so the command refuses it before reading it (planEdit would name it for
 * each platform the text goes to).
 */
export function blankTextIssues(changes: PostChanges, labels: EditLabels = EDIT_FLAG_LABELS): Issue[] {
  const named: Array<[string, string | undefined]> = [[labels.text, changes.text], ...[...(changes.textFor ?? new Map<string, string>())].map(([p, t]): [string, string] => [labels.textFor(p), t])];
  return named.filter(([, t]) => isBlank(t)).map(([field]) => ({ field, message: `${field} is blank`, fix: 'write the text of the post' }));
}

/** The changes without their blanks (told by blankIssues), so nothing else judges them again. */
function withoutBlanks(changes: PostChanges): PostChanges {
  const out = { ...changes };
  for (const [key] of BLANKABLE) if (isBlank(out[key])) delete out[key];
  return out;
}

function commentAfter(platform: string, given: string | null | undefined, old: unknown): string | undefined {
  if (given === null) return undefined;
  if (given !== undefined) return isPlatform(platform) && takesFirstComment(platform) ? given : undefined;
  return typeof old === 'string' ? old : undefined;
}

/**
 * The media with the alt texts an editor file gave (copies: the same items may serve other
 * platforms); an alt for no item is an issue. `whose`: the post's platform, or a part of its thread.
 */
function withAlts(media: MediaSource[], alts: ReadonlyMap<number, string | null> | undefined, fieldOf: (index: number) => string, whose: string, issues: Issue[]): MediaSource[] {
  if (!alts?.size) return media;
  for (const i of alts.keys()) {
    if (media[i]) continue;
    const field = fieldOf(i);
    const has = media.length === 0 ? 'no media' : media.length === 1 ? 'one media item' : `${media.length} media items`;
    issues.push({ field, message: `${field}: ${whose} has ${has}, so there is no media ${i + 1} to describe`, fix: 'remove the block, or number it as the media it describes' });
  }
  return media.map((m, i) => {
    if (!alts.has(i)) return m;
    const { alt: _old, ...rest } = m;
    const alt = alts.get(i);
    return typeof alt === 'string' ? { ...rest, alt } : rest;
  });
}

/** A thread's later parts with the alt texts an editor file gave their media; an alt for a part the thread lacks is an issue. */
function withPartAlts(parts: { text: string; media: MediaSource[] }[], edit: PayloadEdit, issues: Issue[], platform: string): { text: string; media: MediaSource[] }[] {
  const fieldOf = (t: number) => (i: number) => edit.fieldOf?.(`thread[${t}].media[${i}].alt`) ?? `payloads.${platform}.thread[${t}].media[${i}].alt`;
  for (const [t, alts] of edit.partAlt ?? []) {
    if (parts[t]) continue;
    for (const i of alts.keys()) {
      const field = fieldOf(t)(i);
      issues.push({ field, message: `${field}: the ${platform} thread has ${partCount(parts.length + 1)}, so there is no part ${t + 2}`, fix: 'remove the block, or number it as the part whose media it describes' });
    }
  }
  return parts.map((part, t) => ({ ...part, media: withAlts(part.media, edit.partAlt?.get(t), fieldOf(t), `${platform} thread part ${t + 2}`, issues) }));
}

/** Equal as JSON values, whatever the order of their keys (a payload's fields come back in the service's order). */
function sameJson(a: unknown, b: unknown): boolean {
  return stableStringify(a) === stableStringify(b);
}

/** The PATCH body; `urlOf` maps a local file to its uploaded URL (or its placeholder in a dry run). */
export function patchBody(plan: PlannedEdit, urlOf: (path: string) => string): UpdatePostBody {
  const body: UpdatePostBody = {};
  if (plan.draft.platforms.length || plan.removed.length) {
    const payloads: NonNullable<UpdatePostBody['payloads']> = {};
    for (const [p, v] of Object.entries(buildBody({ ...plan.draft, title: undefined }, plan.facts, urlOf).payloads)) if (v) payloads[p] = v;
    for (const p of plan.removed) payloads[p] = null;
    body.payloads = payloads;
  }
  if (plan.title !== undefined) body.title = plan.title;
  return body;
}


/** The requests an edit would send, media uploads first. */
export function planEditRequests(plan: PlannedEdit, idempotencyKey: string | undefined): PlannedRequest[] {
  const requests = uploadRequests(localFiles(plan.draft), plan.facts);
  requests.push({
    method: 'PATCH',
    path: `${PATHS.posts}/${plan.before.id}`,
    headers: keyHeader(idempotencyKey),
    body: patchBody(plan, uploadedUrl),
  });
  return requests;
}

/** Uploads new local media, then sends the PATCH. */
export async function sendEdit(client: ApiClient, plan: PlannedEdit, options: { idempotencyKey?: string | undefined; ledger?: UploadLedger; fresh?: boolean } = {}): Promise<ApiResponse<Post>> {
  const key = options.idempotencyKey;
  const urls = await uploadFiles(client, localFiles(plan.draft), plan.facts, { ...(key !== undefined ? { postKey: key } : {}), ...(options.ledger ? { ledger: options.ledger } : {}) });
  // fresh: nobody was asked anything since the plan's read, so a dialect that merges the change
  // itself merges into that read instead of reading the post again; after a question it reads anew.
  const current = options.fresh === true ? { current: plan.before } : {};
  return client.posts.update(plan.before.id, patchBody(plan, (p) => urls.get(p) ?? p), { ...current, ...(key !== undefined ? { idempotencyKey: key } : {}) });
}
