// The service's rules for request bodies, as issues with paths (`payloads.twitter-x.text`),
// using the platform table the client checks against too (src/wire/platforms.ts).
import { isPlatform, mediaKind, mimeTypeFor, PLATFORM_LIMITS, PLATFORMS, textLength, type Platform } from '../wire/platforms.js';
import { judgeText } from '../wire/text-limits.js';
import { parseTimestamp } from './timestamps.js';
import { checkExtras } from './extras-validation.js';

export interface Issue {
  path: string;
  message: string;
}

export type Payloads = Record<string, Record<string, unknown>>;

export type Checked<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

const MAX_TITLE = 300;
const EXAMPLE_TIME = '2026-12-01T09:00:00Z';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkPayloads(value: unknown, issues: Issue[]): Payloads | undefined {
  if (value === undefined) {
    issues.push({ path: 'payloads', message: 'required: an object keyed by platform id, e.g. {"twitter-x": {"text": "Hello"}}' });
    return undefined;
  }
  if (!isObject(value)) {
    issues.push({ path: 'payloads', message: 'must be an object keyed by platform id, e.g. {"twitter-x": {"text": "Hello"}}' });
    return undefined;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) issues.push({ path: 'payloads', message: 'at least one platform is required' });
  for (const key of keys) {
    const path = `payloads.${key}`;
    if (!isPlatform(key)) {
      issues.push({ path, message: `unknown platform "${key}"; supported: ${PLATFORMS.join(', ')}` });
      continue;
    }
    const payload = value[key];
    if (!isObject(payload)) {
      issues.push({ path, message: 'must be an object with a "text" field' });
      continue;
    }
    checkPayload(key, payload, path, issues);
  }
  return value as Payloads;
}

function checkPayload(platform: Platform, payload: Record<string, unknown>, path: string, issues: Issue[]): void {
  const limits = PLATFORM_LIMITS[platform];
  const text = payload.text;
  if (typeof text !== 'string') {
    issues.push({ path: `${path}.text`, message: 'required: a string' });
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
  checkExtras(platform, payload, path, issues);
  const media = payload.media;
  if (media === undefined) return;
  if (!Array.isArray(media)) {
    issues.push({ path: `${path}.media`, message: 'must be an array of {"url": string, "type"?: "image"|"video"}' });
    return;
  }
  if (media.length > limits.maxMedia) {
    issues.push({ path: `${path}.media`, message: `has ${media.length} items; ${platform} allows at most ${limits.maxMedia}` });
  }
  media.forEach((item: unknown, i) => {
    const at = `${path}.media.${i}`;
    if (!isObject(item)) {
      issues.push({ path: at, message: 'must be an object with a "url"' });
      return;
    }
    if (typeof item.url !== 'string' || item.url.trim() === '') {
      issues.push({ path: `${at}.url`, message: 'required: a non-empty string' });
      return;
    }
    if (item.type !== undefined && item.type !== 'image' && item.type !== 'video') {
      issues.push({ path: `${at}.type`, message: 'must be "image" or "video"' });
      return;
    }
    const kind = item.type ?? mediaKind(mimeTypeFor(item.url) ?? '');
    if (kind && !limits.media[kind]) {
      issues.push({ path: item.type ? `${at}.type` : `${at}.url`, message: `${platform} does not take ${kind}s` });
    }
  });
}

function checkTitle(value: unknown, issues: Issue[]): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    issues.push({ path: 'title', message: 'must be a string' });
    return undefined;
  }
  if (textLength(value) > MAX_TITLE) issues.push({ path: 'title', message: `is ${textLength(value)} characters; at most ${MAX_TITLE}` });
  return value;
}

export interface DraftInput {
  payloads: Payloads;
  title?: string;
}

export function checkCreatePost(body: Record<string, unknown>): Checked<DraftInput> {
  const issues: Issue[] = [];
  const payloads = checkPayloads(body.payloads, issues);
  const title = checkTitle(body.title, issues);
  if (issues.length || !payloads) return { ok: false, issues };
  return { ok: true, value: { payloads, ...(title !== undefined ? { title } : {}) } };
}

export function checkScheduledAt(value: unknown, now: number, issues: Issue[]): number | undefined {
  if (value === undefined || value === null) {
    issues.push({ path: 'scheduledAt', message: `required: an RFC 3339 timestamp with an offset, e.g. ${EXAMPLE_TIME}` });
    return undefined;
  }
  if (typeof value !== 'string') {
    issues.push({ path: 'scheduledAt', message: `must be a string: an RFC 3339 timestamp with an offset, e.g. ${EXAMPLE_TIME}` });
    return undefined;
  }
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

export type ScheduleInput = { scheduledAt: number } & ({ postId: string } | DraftInput);

export function checkSchedule(body: Record<string, unknown>, now: number): Checked<ScheduleInput> {
  const issues: Issue[] = [];
  const scheduledAt = checkScheduledAt(body.scheduledAt, now, issues);
  if (body.postId !== undefined && body.payloads !== undefined) {
    issues.push({ path: 'postId', message: 'give either "postId" (schedule a draft) or "payloads" (create and schedule), not both' });
    return { ok: false, issues };
  }
  if (body.postId !== undefined) {
    if (typeof body.postId !== 'string' || body.postId === '') issues.push({ path: 'postId', message: 'must be a post id string' });
    if (issues.length || scheduledAt === undefined) return { ok: false, issues };
    return { ok: true, value: { postId: body.postId as string, scheduledAt } };
  }
  const payloads = checkPayloads(body.payloads, issues);
  const title = checkTitle(body.title, issues);
  if (issues.length || !payloads || scheduledAt === undefined) return { ok: false, issues };
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
    return { ok: false, issues };
  }
  if (body.payloads !== undefined) {
    if (!isObject(body.payloads)) {
      issues.push({ path: 'payloads', message: 'must be an object keyed by platform id; a platform set to null is removed' });
    } else {
      const merged: Payloads = { ...current };
      const replaced: Record<string, unknown> = {};
      for (const [key, payload] of Object.entries(body.payloads)) {
        if (payload === null && isPlatform(key)) delete merged[key];
        else replaced[key] = payload;
      }
      if (Object.keys(replaced).length) checkPayloads(replaced, issues);
      Object.assign(merged, replaced);
      if (Object.keys(merged).length === 0) issues.push({ path: 'payloads', message: 'at least one platform must remain; delete the post instead of removing every platform' });
      value.payloads = merged;
    }
  }
  if (body.title === null) value.title = null;
  else if (body.title !== undefined) value.title = checkTitle(body.title, issues);
  if (body.scheduledAt === null) value.scheduledAt = null;
  else if (body.scheduledAt !== undefined) value.scheduledAt = checkScheduledAt(body.scheduledAt, now, issues);
  if (issues.length) return { ok: false, issues };
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
  const issues: Issue[] = [];
  const { name, mimeType, sizeBytes } = body;
  if (typeof name !== 'string' || name.trim() === '') issues.push({ path: 'name', message: 'required: the file name' });
  else if (name.length > 255) issues.push({ path: 'name', message: 'is longer than 255 characters' });
  let max: number | undefined;
  if (typeof mimeType !== 'string') {
    issues.push({ path: 'mimeType', message: 'required: a MIME type such as image/jpeg or video/mp4' });
  } else {
    max = MEDIA_MAX.get(mimeType.toLowerCase());
    if (max === undefined) issues.push({ path: 'mimeType', message: `"${mimeType}" is not accepted by any platform; use one of ${[...MEDIA_MAX.keys()].join(', ')}` });
  }
  if (typeof sizeBytes !== 'number' || !Number.isInteger(sizeBytes) || sizeBytes <= 0) {
    issues.push({ path: 'sizeBytes', message: 'required: the file size in bytes, a whole number > 0' });
  } else if (max !== undefined && sizeBytes > max) {
    issues.push({ path: 'sizeBytes', message: `${sizeBytes} bytes is more than any platform takes for ${mimeType} (${max} bytes)` });
  }
  if (issues.length) return { ok: false, issues };
  return { ok: true, value: { name: (name as string).trim(), mimeType: (mimeType as string).toLowerCase(), sizeBytes: sizeBytes as number } };
}
