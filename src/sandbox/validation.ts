// The service's rules for request bodies, as issues with paths (`payloads.twitter-x.text`). The
// structure of each body (its fields, types, enums, unknown keys) is the contract's schema, checked
// first (contract-check.ts); the rules here judge only what the schema found sound: text
// counted as each platform counts it (src/wire/platforms.ts, shared with the client), media a
// platform takes, times ahead of now, at least one platform.
import { createMediaBody, createPostBody, scheduleBody, updatePostBody, type platformPayload } from '../wire/contract.js';
import { mediaKind, mimeTypeFor, PLATFORM_LIMITS, PLATFORMS, textLength, type Platform } from '../wire/platforms.js';
import { judgeText } from '../wire/text-limits.js';
import type * as z from 'zod/mini';
import { checkShape, inBodyOrder, type Issue, type Shape } from './contract-check.js';
import { parseTimestamp } from './timestamps.js';
import { checkExtras } from './extras-validation.js';

export type { Issue } from './contract-check.js';

export type Payloads = Record<string, Record<string, unknown>>;
export type PlatformPayload = z.infer<typeof platformPayload>;

export type Checked<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

const MAX_TITLE = 300;
const EXAMPLE_TIME = '2026-12-01T09:00:00Z';

/** The rules of each platform named, on the payloads the schema found sound (`payloads` itself fits). */
function payloadsRules(payloads: Record<string, PlatformPayload | null>, shape: Shape, issues: Issue[]): void {
  for (const [key, payload] of Object.entries(payloads)) {
    const path = `payloads.${key}`;
    // An unknown platform, or not an object: the schema said so already.
    if (payload === null || !shape.fits(path)) continue;
    payloadRules(key as Platform, payload, path, shape, issues);
  }
}

function payloadRules(platform: Platform, payload: PlatformPayload, path: string, shape: Shape, issues: Issue[]): void {
  const limits = PLATFORM_LIMITS[platform];
  const text = payload.text;
  if (!shape.fits(`${path}.text`)) {
    // The schema named it.
  } else if (text.trim() === '') {
    issues.push({ path: `${path}.text`, message: 'must not be empty' });
  } else {
    // Counted as the platform counts it, as the service does (src/wire/text-length.ts).
    const verdict = judgeText(platform, text);
    if (verdict.over > 0) {
      issues.push({ path: `${path}.text`, message: `is ${verdict.count.length} ${limits.textUnit === 'utf8-bytes' ? 'bytes' : 'characters'}; ${platform} allows at most ${limits.maxText}${verdict.explanation ? ` (${verdict.explanation})` : ''}` });
    } else if (verdict.invalid) {
      issues.push({ path: `${path}.text`, message: `${platform} refuses this text: ${verdict.invalid}` });
    } else if (verdict.bytesOver) {
      issues.push({ path: `${path}.text`, message: `is ${verdict.bytesOver.length} UTF-8 bytes; ${platform} allows at most ${verdict.bytesOver.max}` });
    }
  }
  checkExtras(platform, payload, path, shape, issues);
  const media = payload.media;
  if (media === undefined || !shape.fits(`${path}.media`)) return;
  if (media.length > limits.maxMedia) {
    issues.push({ path: `${path}.media`, message: `has ${media.length} items; ${platform} allows at most ${limits.maxMedia}` });
  }
  media.forEach((item, i) => {
    const at = `${path}.media.${i}`;
    if (!shape.fits(`${at}.url`) || !shape.fits(`${at}.type`)) return;
    if (item.url.trim() === '') {
      issues.push({ path: `${at}.url`, message: 'required: a non-empty string' });
      return;
    }
    const kind = item.type ?? mediaKind(mimeTypeFor(item.url) ?? '');
    if (kind && !limits.media[kind]) {
      issues.push({ path: item.type ? `${at}.type` : `${at}.url`, message: `${platform} does not take ${kind}s` });
    }
  });
}

function titleRule(title: string | null | undefined, shape: Shape, issues: Issue[]): void {
  if (typeof title !== 'string' || !shape.fits('title')) return;
  if (textLength(title) > MAX_TITLE) issues.push({ path: 'title', message: `is ${textLength(title)} characters; at most ${MAX_TITLE}` });
}

/** A time the schema found to be a string: RFC 3339 with an offset, and not in the past. */
/** A time to publish at: an RFC 3339 timestamp with an offset, not in the past (both dialects). */
export function timeRule(value: string, now: number, issues: Issue[]): number | undefined {
  const parsed = parseTimestamp(value);
  if (!parsed.ok) {
    issues.push({
      path: 'scheduledAt',
      message:
        parsed.reason === 'no-offset'
          ? `"${value}" has no UTC offset; add Z or ±HH:MM, e.g. ${EXAMPLE_TIME}`
          : `"${value}" is not an RFC 3339 timestamp, e.g. ${EXAMPLE_TIME}`,
    });
    return undefined;
  }
  if (parsed.ms < now) {
    issues.push({ path: 'scheduledAt', message: `${new Date(parsed.ms).toISOString()} is in the past (the service's time is ${new Date(now).toISOString()})` });
    return undefined;
  }
  return parsed.ms;
}

/** The payloads of a new post: their rules, and at least one platform. */
function newPayloadsRules(payloads: unknown, shape: Shape, issues: Issue[]): void {
  if (!shape.fits('payloads')) return;
  const sound = payloads as Record<string, PlatformPayload>;
  if (Object.keys(sound).length === 0) issues.push({ path: 'payloads', message: 'at least one platform is required' });
  payloadsRules(sound, shape, issues);
}

const refused = <T>(issues: Issue[], body: unknown): Checked<T> => ({ ok: false, issues: inBodyOrder(issues, body) });

export interface DraftInput {
  payloads: Payloads;
  title?: string;
}

export function checkCreatePost(body: Record<string, unknown>): Checked<DraftInput> {
  const shape = checkShape(createPostBody, body);
  const issues = [...shape.issues];
  newPayloadsRules(body.payloads, shape, issues);
  titleRule(body.title as string | undefined, shape, issues);
  if (issues.length) return refused(issues, body);
  // The body as sent (payload fields beyond the schema's are platform options, kept).
  const { payloads, title } = body as { payloads: Payloads; title?: string };
  return { ok: true, value: { payloads, ...(title !== undefined ? { title } : {}) } };
}

export type ScheduleInput = { scheduledAt: number } & ({ postId: string } | DraftInput);

export function checkSchedule(body: Record<string, unknown>, now: number): Checked<ScheduleInput> {
  const shape = checkShape(scheduleBody, body);
  const issues = [...shape.issues];
  const scheduledAt = shape.fits('scheduledAt') && typeof body.scheduledAt === 'string' ? timeRule(body.scheduledAt, now, issues) : undefined;
  if (body.postId !== undefined) {
    // Schedule a draft (or, with payloads too, refused by the schema: no payload rules then).
    if (shape.fits('postId') && body.postId === '') issues.push({ path: 'postId', message: 'must be a post id string' });
    if (issues.length || scheduledAt === undefined) return refused(issues, body);
    return { ok: true, value: { postId: body.postId as string, scheduledAt } };
  }
  newPayloadsRules(body.payloads, shape, issues);
  titleRule(body.title as string | undefined, shape, issues);
  if (issues.length || scheduledAt === undefined) return refused(issues, body);
  const { payloads, title } = body as { payloads: Payloads; title?: string };
  return { ok: true, value: { payloads, scheduledAt, ...(title !== undefined ? { title } : {}) } };
}

/** A PATCH of a post: what to change (`undefined`: leave as is; `null`: remove or unschedule). */
export interface UpdateInput {
  payloads?: Payloads;
  title?: string | null;
  scheduledAt?: number | null;
}

/**
 * Checks a PATCH body against the post's current payloads: each platform named is replaced
 * (an object) or removed (null), and at least one platform must remain; `title: null` removes
 * the title; `scheduledAt: null` unschedules, a time must lie ahead like on schedule.
 */
export function checkUpdatePost(body: Record<string, unknown>, current: Payloads, now: number): Checked<UpdateInput> {
  const issues: Issue[] = [];
  const value: UpdateInput = {};
  if (body.payloads === undefined && body.title === undefined && body.scheduledAt === undefined) {
    issues.push({ path: 'body', message: 'nothing to change: send any of "payloads", "title" or "scheduledAt"' });
  }
  const shape = checkShape(updatePostBody, body);
  issues.push(...shape.issues);
  if (body.payloads !== undefined && shape.fits('payloads')) {
    const named = body.payloads as Record<string, PlatformPayload | null>;
    payloadsRules(named, shape, issues);
    const merged: Payloads = { ...current };
    for (const [key, payload] of Object.entries(named)) {
      if (payload === null) delete merged[key];
      else merged[key] = payload;
    }
    if (Object.keys(merged).length === 0) issues.push({ path: 'payloads', message: 'at least one platform must remain; delete the post instead of removing every platform' });
    value.payloads = merged;
  }
  if (body.title !== undefined && shape.fits('title')) {
    value.title = body.title as string | null;
    titleRule(value.title, shape, issues);
  }
  if (body.scheduledAt === null) value.scheduledAt = null;
  else if (typeof body.scheduledAt === 'string' && shape.fits('scheduledAt')) value.scheduledAt = timeRule(body.scheduledAt, now, issues);
  if (issues.length) return refused(issues, body);
  return { ok: true, value };
}

export interface MediaInput {
  name: string;
  mimeType: string;
  sizeBytes: number;
}

/** Every MIME type some platform accepts, with the largest size any of them takes. */
const MEDIA_MAX = new Map<string, number>();
for (const p of PLATFORMS) {
  for (const limit of Object.values(PLATFORM_LIMITS[p].media)) {
    for (const t of limit.mimeTypes) MEDIA_MAX.set(t, Math.max(MEDIA_MAX.get(t) ?? 0, limit.maxBytes));
  }
}

export function checkMedia(body: Record<string, unknown>): Checked<MediaInput> {
  const shape = checkShape(createMediaBody, body);
  const issues = [...shape.issues];
  const { name, mimeType, sizeBytes } = body as Partial<MediaInput>;
  if (typeof name === 'string' && shape.fits('name')) {
    if (name.trim() === '') issues.push({ path: 'name', message: 'required: the file name' });
    else if (name.length > 255) issues.push({ path: 'name', message: 'is longer than 255 characters' });
  }
  let max: number | undefined;
  if (typeof mimeType === 'string' && shape.fits('mimeType')) {
    max = MEDIA_MAX.get(mimeType.toLowerCase());
    if (max === undefined) issues.push({ path: 'mimeType', message: `"${mimeType}" is not accepted by any platform; use one of ${[...MEDIA_MAX.keys()].join(', ')}` });
  }
  if (typeof sizeBytes === 'number' && shape.fits('sizeBytes') && max !== undefined && sizeBytes > max) {
    issues.push({ path: 'sizeBytes', message: `${sizeBytes} bytes is more than any platform takes for ${mimeType} (${max} bytes)` });
  }
  if (issues.length) return refused(issues, body);
  return { ok: true, value: { name: name!.trim(), mimeType: mimeType!.toLowerCase(), sizeBytes: sizeBytes! } };
}
