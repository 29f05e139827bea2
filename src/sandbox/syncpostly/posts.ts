// SyncPostly's posts: GET/POST /api/v1/posts, GET/PATCH/DELETE /api/v1/posts/{id}. A post is
// stored as our domain post (payloads per platform with their accounts), so both dialects read and
// change the same posts, judged by the same rules; only the shapes differ.
import { isPlatform, PLATFORMS, type PostStatus } from '../../wire/platforms.js';
import { isSpStatus, SP_STATUSES } from '../../wire/syncpostly/assumptions.js';
import type { SpCreatePost } from '../../wire/syncpostly/schemas.js';
import { multiValues, pageParams } from '../http/query.js';
import { notFound, type Reply } from '../http/reply.js';
import { ownMedia } from '../platform-rules.js';
import type { Call } from '../routes.js';
import type { LivePost } from '../workspace.js';
import { invalid, parseCreateBody, parseUpdateBody } from './body.js';
import { SpHttpError } from './dialect.js';
import { asCreateBody, postDto, spStatusOf } from './post-dto.js';
import { timingOf, type Timing } from './timing.js';
import { toPayloads } from './to-payloads.js';

const badQuery = (name: string, values: string[], allowed: readonly string[]) =>
  new SpHttpError(400, `unknown ${name} ${values.map((v) => JSON.stringify(v)).join(', ')}; use ${allowed.join(', ')}`, [{ path: [name], message: `must be one of ${allowed.join(', ')}`, code: 'invalid_value' }]);

export function spListPosts(call: Call): Reply {
  const statuses = multiValues(call.query, 'status');
  const platforms = multiValues(call.query, 'platform');
  const badStatuses = statuses.filter((s) => !isSpStatus(s));
  if (badStatuses.length) throw badQuery('status', badStatuses, SP_STATUSES);
  const badPlatforms = platforms.filter((p) => !isPlatform(p));
  if (badPlatforms.length) throw badQuery('platform', badPlatforms, PLATFORMS);
  const { offset, limit } = pageParams(call.query);
  // `scheduled` and `processing` are our scheduled posts, told apart by whether their time has come.
  const ours = new Set<PostStatus>();
  for (const s of statuses) if (s === 'draft' || s === 'failed') ours.add(s);
  if (statuses.includes('posted')) ours.add('published');
  const scheduled = statuses.includes('scheduled');
  const processing = statuses.includes('processing');
  if (scheduled && processing) ours.add('scheduled');
  const split = scheduled !== processing ? { due: processing, now: call.now } : undefined;
  const page = call.ws.postsPage([...ours], offset, limit, { platforms, ...(split ? { scheduled: split } : {}) });
  return { status: 200, body: { data: page.items.map((i) => postDto(call, i)), meta: { offset, limit, total: page.total } } };
}

export function spGetPost(call: Call): Reply {
  const id = call.params[0]!;
  const index = call.ws.findPost(id);
  if (index === undefined) throw notFound('post', id);
  return { status: 200, body: postDto(call, index) };
}

/**
 * What a SyncPostly body carries beyond our post, kept verbatim (assumptions.accountConfigurations),
 * and the caption, media and account order it was sent with, so that they read back as sent (assumptions.baseCaption).
 */
function extrasOf(body: SpCreatePost): Record<string, unknown> {
  const extras: Record<string, unknown> = { base: { caption: body.caption, media: body.media ?? [], media_urls: body.media_urls ?? [], social_accounts: body.social_accounts } };
  if (body.account_configurations != null) extras.account_configurations = body.account_configurations;
  if (body.processing_enabled != null) extras.processing_enabled = body.processing_enabled;
  return extras;
}

/** The body made into payloads and a time, or a 422 naming the SyncPostly fields. */
function judged(call: Call, body: SpCreatePost, current: LivePost | undefined) {
  const translated = toPayloads(call, body);
  const timing = timingOf(body, current, call.now);
  const issues = [...(translated.ok ? [] : translated.issues), ...(timing.ok ? [] : timing.issues)];
  if (!translated.ok || !timing.ok) throw invalid(issues);
  return { payloads: translated.value.payloads, timing: timing.value };
}

function place(post: LivePost, timing: Timing): void {
  post.status = timing.status;
  post.scheduledAt = timing.scheduledAt;
}

export function spCreatePost(call: Call): Reply {
  const body = parseCreateBody(call.json);
  const { payloads, timing } = judged(call, body, undefined);
  const post = call.ws.addPost({ ...timing, payloads, createdAt: call.now, updatedAt: call.now, extras: extrasOf(body) });
  // Scheduled, or published now: the publisher sends it when its time comes (now: at once).
  call.core.publisher.track(call.ws, post);
  return { status: 200, body: postDto(call, post.index) };
}

/** A draft, or a scheduled post whose time has not come: SyncPostly documents no 409, so a bad request. */
function changeablePost(call: Call): LivePost {
  const id = call.params[0]!;
  const index = call.ws.findPost(id);
  if (index === undefined) throw notFound('post', id);
  const post = call.ws.livePost(index);
  const status = spStatusOf(call.ws.postJson(index), call.now);
  if (!post || (status !== 'draft' && status !== 'scheduled')) {
    throw new SpHttpError(400, `post ${id} is ${status}: only a draft or a scheduled post can be changed or deleted (its results stay; create a new post instead)`);
  }
  return post;
}

export function spUpdatePost(call: Call): Reply {
  const post = changeablePost(call);
  const patch = parseUpdateBody(call.json);
  const merged: Record<string, unknown> = { ...asCreateBody(postDto(call, post.index)), ...patch };
  // New media replace the old ones, ids and URLs alike (documented: "replaces the existing media").
  if (patch.media !== undefined || patch.media_urls !== undefined) {
    merged.media = patch.media ?? [];
    merged.media_urls = patch.media_urls ?? [];
  }
  // Other accounts: the overrides of a platform no longer posted to go with it.
  if (patch.social_accounts !== undefined && patch.platform_configurations === undefined && merged.platform_configurations) {
    const platforms = new Set(patch.social_accounts.map((id) => call.ws.socialAccounts.find(id)?.platform));
    merged.platform_configurations = Object.fromEntries(Object.entries(merged.platform_configurations).filter(([p]) => platforms.has(p as never)));
  }
  const body = parseCreateBody(merged);
  const { payloads, timing } = judged(call, body, post);
  post.payloads = payloads;
  place(post, timing);
  post.extras = extrasOf(body);
  post.updatedAt = call.now;
  call.ws.savePost(post);
  call.core.publisher.track(call.ws, post);
  return { status: 200, body: postDto(call, post.index) };
}

/** Every upload of this workspace a payload names (its media and its thread parts' media). */
function attachedMedia(call: Call, post: LivePost) {
  const urls: unknown[] = [];
  for (const payload of Object.values(post.payloads)) {
    if (Array.isArray(payload.media)) urls.push(...payload.media.map((m: { url?: unknown }) => m?.url));
    if (Array.isArray(payload.thread)) for (const part of payload.thread as { media?: { url?: unknown }[] }[]) urls.push(...(part?.media ?? []).map((m) => m?.url));
  }
  return urls.flatMap((u) => (typeof u === 'string' ? [ownMedia(call.ws, u)] : [])).filter((m) => m !== undefined);
}

export function spDeletePost(call: Call): Reply {
  const post = changeablePost(call);
  // "Remove the post and attached media" (documented).
  for (const m of attachedMedia(call, post)) call.ws.deleteMedia(m);
  call.ws.deletePost(post, call.now);
  return { status: 200, body: { success: true } };
}
