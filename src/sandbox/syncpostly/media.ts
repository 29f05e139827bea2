// SyncPostly's media: POST /api/v1/media/create-upload-url `{ mime_type, size_bytes, name }` →
// `{ media_id, upload_url, name }`; PUT /api/v1/media/upload/{id} with the bytes (the same key) →
// `{ success, media_id, url }`; GET /api/v1/media (paged), GET and DELETE /api/v1/media/{id}
// (assumptions.mediaUpload, mediaGet). The uploads are the same records as our dialect's: only the
// four documented MIME types are taken here, and the same size rules apply.
import { SP_PATHS } from '../../wire/syncpostly/assumptions.js';
import { spCreateUploadUrlSchema } from '../../wire/syncpostly/schemas.js';
import { mediaKind } from '../../wire/platforms.js';
import { declareMedia, publicMediaUrl, storeUpload } from '../handlers/media.js';
import { pageParams } from '../http/query.js';
import { HttpError, notFound, type Reply } from '../http/reply.js';
import type { Call } from '../routes.js';
import type { MediaRecord } from '../workspace.js';
import { invalid, zodIssues } from './body.js';
import { pathArray } from './dialect.js';

/** Our field names → SyncPostly's, for the issues of the shared checks. */
const FIELD: Record<string, string> = { mimeType: 'mime_type', sizeBytes: 'size_bytes', name: 'name' };

function mediaDto(call: Call, m: MediaRecord) {
  const post = call.ws.postOfMedia(m);
  const uploaded = m.sha256 !== undefined;
  return {
    id: call.ws.mediaId(m.index),
    mime_type: m.mimeType,
    type: mediaKind(m.mimeType) ?? null,
    post_id: post === undefined ? null : call.ws.postId(post),
    status: uploaded ? 'uploaded' : 'pending',
    object: { isDeleted: false, url: uploaded ? publicMediaUrl(call, m) : null, size_bytes: m.sizeBytes, name: m.name },
  };
}

export function spCreateUploadUrl(call: Call): Reply {
  const parsed = spCreateUploadUrlSchema.safeParse(call.json);
  if (!parsed.success) throw invalid(zodIssues(parsed.error));
  const { mime_type, size_bytes, name } = parsed.data;
  let m: MediaRecord;
  try {
    m = declareMedia(call, { name, mimeType: mime_type, sizeBytes: size_bytes });
  } catch (err) {
    if (!(err instanceof HttpError) || err.status !== 422 || !err.issues) throw err;
    throw invalid(err.issues.map((i) => ({ path: pathArray(FIELD[i.path] ?? i.path), message: i.message, code: 'custom' })));
  }
  const id = call.ws.mediaId(m.index);
  return { status: 200, body: { media_id: id, upload_url: `${call.core.baseUrl}${SP_PATHS.mediaUpload}/${encodeURIComponent(id)}`, name: m.name } };
}

export function spUpload(call: Call): Reply {
  const m = storeUpload(call);
  return { status: 200, body: { success: true, media_id: call.ws.mediaId(m.index), url: publicMediaUrl(call, m) } };
}

export function spListMedia(call: Call): Reply {
  const { offset, limit } = pageParams(call.query);
  const page = call.ws.mediaPage(offset, limit);
  return { status: 200, body: { data: page.items.map((m) => mediaDto(call, m)), meta: { offset, limit, total: page.total } } };
}

function mediaOf(call: Call): MediaRecord {
  const id = call.params[0]!;
  const m = call.ws.findMedia(id);
  if (!m) throw notFound('media', id);
  return m;
}

export function spGetMedia(call: Call): Reply {
  return { status: 200, body: mediaDto(call, mediaOf(call)) };
}

export function spDeleteMedia(call: Call): Reply {
  const m = mediaOf(call);
  call.ws.deleteMedia(m);
  return { status: 200, body: { success: true } };
}
