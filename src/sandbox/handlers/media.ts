// Media: POST /v1/media declares a file and returns where to PUT its bytes; the PUT (with the
// key, exactly the declared size) makes it ready; its `url` is then served without a key,
// as a platform would fetch it. The bytes stream through: a file up to KEEP_WHOLE_BYTES is kept
// whole (and served); of a larger one only the first HEAD_BYTES (where formats keep their
// headers) are kept and the rest is counted, so a video of gigabytes costs no memory.
import { ERROR_CODE, PATHS } from '../../wire/protocol.js';
import { HttpError, notFound, validationError, type Reply } from '../http/reply.js';
import { checkMedia } from '../validation.js';
import type { Workspace, MediaRecord } from '../workspace.js';
import type { Call } from '../routes.js';
import { createHash } from 'node:crypto';

export const PUBLIC_MEDIA_PREFIX = '/media/';
/** Uploads up to this size are kept whole. */
export const KEEP_WHOLE_BYTES = 16 * 1024 * 1024;
/** Of a larger upload, the first bytes kept. */
export const HEAD_BYTES = 64 * 1024;

function mediaJson(call: Call, m: MediaRecord) {
  const id = call.ws.mediaId(m.index);
  return {
    id,
    name: m.name,
    mimeType: m.mimeType,
    sizeBytes: m.sizeBytes,
    status: m.bytes ? 'ready' : 'pending',
    sha256: mediaSha256(m) ?? null,
    uploadUrl: `${call.core.baseUrl}${PATHS.media}/${id}/upload`,
    url: `${call.core.baseUrl}${PUBLIC_MEDIA_PREFIX}${id}/${encodeURIComponent(m.name)}`,
    createdAt: new Date(m.createdAt).toISOString(),
  };
}

export function createMedia(call: Call): Reply {
  const checked = checkMedia(call.json);
  if (!checked.ok) throw validationError(checked.issues);
  const max = call.core.config.maxUploadBytes;
  if (checked.value.sizeBytes > max) {
    throw new HttpError(413, ERROR_CODE.payloadTooLarge, `this sandbox takes files of at most ${max} bytes; this one declares ${checked.value.sizeBytes}`);
  }
  const m: MediaRecord = { index: call.ws.media.length, ...checked.value, createdAt: call.now, bytes: undefined };
  call.ws.media.push(m);
  call.core.saveMedia(call.ws, m);
  return { status: 201, body: mediaJson(call, m) };
}

export function getMedia(call: Call): Reply {
  const id = call.params[0]!;
  const m = call.ws.findMedia(id);
  if (!m) throw notFound('media', id);
  return { status: 200, body: mediaJson(call, m) };
}

// The SHA-256 of an upload: hashed as it streamed in (a large file keeps only its head), else
// from the bytes kept whole. The one place that reads it, so a store that keeps it can answer here.
const streamedSha256 = new WeakMap<MediaRecord, string>();
const wholeSha256 = new WeakMap<Buffer, string>();
export function mediaSha256(m: MediaRecord): string | undefined {
  const streamed = streamedSha256.get(m);
  if (streamed !== undefined) return streamed;
  if (!m.bytes || m.bytes.length !== m.sizeBytes) return undefined;
  let sum = wholeSha256.get(m.bytes);
  if (sum === undefined) wholeSha256.set(m.bytes, (sum = createHash('sha256').update(m.bytes).digest('hex')));
  return sum;
}

/** How many bytes of an upload at most `limit` long are kept. */
export function uploadKeep(limit: number): number {
  return limit <= KEEP_WHOLE_BYTES ? limit : HEAD_BYTES;
}

/** Whether the sandbox holds every byte of an uploaded media item (and can serve it). */
export function isWhole(m: MediaRecord): boolean {
  return m.bytes !== undefined && m.bytes.length === m.sizeBytes;
}

/** How many bytes the PUT may carry: the declared size. */
export function uploadLimit(ws: Workspace, params: string[]): number | HttpError {
  const m = ws.findMedia(params[0]!);
  return m ? m.sizeBytes : notFound('media', params[0]!);
}

export function uploadMedia(call: Call): Reply {
  const id = call.params[0]!;
  const m = call.ws.findMedia(id);
  if (!m) throw notFound('media', id);
  if (call.rawSize !== m.sizeBytes) {
    throw validationError([{ path: 'body', message: `received ${call.rawSize} bytes; the media was declared with sizeBytes ${m.sizeBytes}` }]);
  }
  // A repeated PUT of the same media replaces the bytes: PUT is idempotent, retries are safe.
  m.bytes = call.raw;
  if (call.rawSha256 !== undefined) streamedSha256.set(m, call.rawSha256);
  call.core.saveMedia(call.ws, m);
  return { status: 200, body: mediaJson(call, m) };
}

/** The public URL of a ready media item, whichever workspace owns it. */
export function findPublicMedia(workspaces: readonly Workspace[], id: string): MediaRecord | undefined {
  for (const ws of workspaces) {
    const m = ws.findMedia(id);
    if (m?.bytes) return m;
  }
  return undefined;
}
