// Media: POST /v1/media declares a file and returns where to PUT its bytes; the PUT (with the
// key, exactly the declared size) makes it ready; its `url` is then served without a key,
// as a platform would fetch it. The bytes stream through: a file up to KEEP_WHOLE_BYTES is kept
// whole (and served); of a larger one only the first HEAD_BYTES (where formats keep their
// headers) are kept and the rest is counted, so a video of gigabytes costs no memory. What is
// kept goes to the content-addressed blobs (db/blobs.ts), on disk before the row naming it.
import { ERROR_CODE, PATHS } from '../../wire/protocol.js';
import { HttpError, notFound, validationError, type Reply } from '../http/reply.js';
import { checkMedia } from '../validation.js';
import { probeBytes } from '../../wire/media-probe.js';
import type { Workspace, MediaRecord } from '../workspace.js';
import type { Call } from '../routes.js';

export const PUBLIC_MEDIA_PREFIX = '/media/';
/** Uploads up to this size are kept whole. */
export const KEEP_WHOLE_BYTES = 16 * 1024 * 1024;
/** Of a larger upload, the first bytes kept. */
export const HEAD_BYTES = 64 * 1024;

// The wire's `sha256` is the whole file's. A file kept whole has it as its blob's name; of a file
// kept only in part, the hash taken as it streamed in is held for this run (after a restart: null).
const streamedSha256 = new Map<string, string>();

/** Where a platform (anyone, without a key) fetches an upload's bytes. */
export function publicMediaUrl(call: Call, m: MediaRecord): string {
  return `${call.core.baseUrl}${PUBLIC_MEDIA_PREFIX}${call.ws.mediaId(m.index)}/${encodeURIComponent(m.name)}`;
}

function mediaJson(call: Call, m: MediaRecord) {
  const id = call.ws.mediaId(m.index);
  const sha256 = isWhole(m) ? m.sha256 : streamedSha256.get(id);
  return {
    id,
    name: m.name,
    mimeType: m.mimeType,
    sizeBytes: m.sizeBytes,
    status: m.sha256 !== undefined ? 'ready' : 'pending',
    sha256: sha256 ?? null,
    uploadUrl: `${call.core.baseUrl}${PATHS.media}/${id}/upload`,
    url: publicMediaUrl(call, m),
    createdAt: new Date(m.createdAt).toISOString(),
  };
}

/** A declared upload (both dialects): checked against what the platforms take, then stored as pending. */
export function declareMedia(call: Call, body: Record<string, unknown>): MediaRecord {
  const checked = checkMedia(body);
  if (!checked.ok) throw validationError(checked.issues);
  const max = call.core.config.maxUploadBytes;
  if (checked.value.sizeBytes > max) {
    throw new HttpError(413, ERROR_CODE.payloadTooLarge, `this sandbox takes files of at most ${max} bytes; this one declares ${checked.value.sizeBytes}`);
  }
  return call.ws.addMedia({ ...checked.value, createdAt: call.now });
}

export function createMedia(call: Call): Reply {
  return { status: 201, body: mediaJson(call, declareMedia(call, call.json)) };
}

export function getMedia(call: Call): Reply {
  const id = call.params[0]!;
  const m = call.ws.findMedia(id);
  if (!m) throw notFound('media', id);
  return { status: 200, body: mediaJson(call, m) };
}

/** How many bytes of an upload at most `limit` long are kept. */
export function uploadKeep(limit: number): number {
  return limit <= KEEP_WHOLE_BYTES ? limit : HEAD_BYTES;
}

/** Whether the sandbox holds every byte of an uploaded media item (and can serve it). */
export function isWhole(m: MediaRecord): boolean {
  return m.sha256 !== undefined && m.keptBytes === m.sizeBytes;
}

/** How many bytes the PUT may carry: the declared size. */
export function uploadLimit(ws: Workspace, params: string[]): number | HttpError {
  const m = ws.findMedia(params[0]!);
  return m ? m.sizeBytes : notFound('media', params[0]!);
}

export function uploadMedia(call: Call): Reply {
  return { status: 200, body: mediaJson(call, storeUpload(call)) };
}

/** The bytes of a declared upload (both dialects), exactly its declared size. */
export function storeUpload(call: Call): MediaRecord {
  const id = call.params[0]!;
  const m = call.ws.findMedia(id);
  if (!m) throw notFound('media', id);
  if (call.rawSize !== m.sizeBytes) {
    throw validationError([{ path: 'body', message: `received ${call.rawSize} bytes; the media was declared with sizeBytes ${m.sizeBytes}` }]);
  }
  // A repeated PUT of the same media replaces the bytes: PUT is idempotent, retries are safe.
  const { info: _old, ...rest } = m;
  const info = probeBytes(call.raw);
  const uploaded: MediaRecord = { ...rest, sha256: call.core.store.blobs.put(call.raw), keptBytes: call.raw.length, ...(info ? { info } : {}) };
  if (call.rawSha256 !== undefined && call.raw.length < call.rawSize) streamedSha256.set(call.ws.mediaId(m.index), call.rawSha256);
  call.ws.saveMedia(uploaded);
  return uploaded;
}

/** The public URL of a ready media item, whichever workspace owns it. */
export function findPublicMedia(workspaces: readonly Workspace[], id: string): MediaRecord | undefined {
  for (const ws of workspaces) {
    const m = ws.findMedia(id);
    if (m?.sha256 !== undefined) return m;
  }
  return undefined;
}
