// Media on SyncPostly (assumptions.mediaUpload, .mediaGet): POST create-upload-url
// `{ mime_type, size_bytes, name }` → `{ media_id, upload_url }`, a PUT of the bytes with the key
// → `{ success, media_id, url }`, GET /api/v1/media/{id} → MediaDto. Only the four MIME types
// MediaDto documents are sent; another is refused before any request.
import { SP_MEDIA_TYPES, SP_PATHS } from '../../wire/syncpostly/assumptions.js';
import type { SpMedia } from '../../wire/syncpostly/schemas.js';
import type { MediaObject, MediaUpload } from '../../wire/schemas.js';
import { InvalidInputError } from '../../wire/invalid-input.js';
import type { Requester } from '../request.js';
import type { ApiClient, WriteOptions } from '../types.js';
import { lazySingle, lazySp, unwrap } from './dto.js';
import type { MediaRefs } from './media-refs.js';
import { documentedRoute } from './not-found.js';

const uploadUrl = lazySp<{ media_id: string; upload_url: string; name?: string | null }>((s) => s.spUploadUrlSchema);
const uploadDone = lazySp<{ success?: boolean; media_id?: string; url?: string | null }>((s) => s.spUploadDoneSchema);
const oneMedia = lazySingle<SpMedia>((s) => s.spMediaSchema);

/**
 * The media object in the domain's words. `reusable` says whether a post may reference it again
 * without uploading the bytes anew: uploaded, not deleted, and attached to no post yet (deleting
 * a post deletes its media, so bytes shared with another post could vanish with it).
 */
export function mediaFromDto(dto: SpMedia, urlOf: (id: string) => string): MediaObject {
  const object = dto.object ?? undefined;
  return {
    id: dto.id,
    url: object?.url ?? urlOf(dto.id),
    ...(dto.mime_type ? { mimeType: dto.mime_type } : {}),
    ...(typeof object?.size_bytes === 'number' ? { sizeBytes: object.size_bytes } : {}),
    reusable: dto.status === 'uploaded' && object?.isDeleted !== true && Boolean(object?.url) && dto.post_id == null,
  };
}

/** Every file of a type MediaDto does not document, refused at once. */
function check(files: readonly { name: string; mimeType: string }[]): void {
  const refused = files.filter((f) => !(SP_MEDIA_TYPES as readonly string[]).includes(f.mimeType));
  if (refused.length === 0) return;
  throw new InvalidInputError(
    refused.map((f) => ({ field: 'media', message: `SyncPostly takes ${SP_MEDIA_TYPES.join(', ')} only; ${f.name} is ${f.mimeType}`, fix: 'convert it to PNG, JPEG, MP4 or QuickTime' })),
    { what: 'the media' },
  );
}

export function createSpMedia(request: Requester, refs: MediaRefs): ApiClient['media'] {
  return {
    check,
    async create(body, options: WriteOptions = {}) {
      check([body]);
      const res = await request({
        method: 'POST',
        path: SP_PATHS.mediaCreateUploadUrl,
        body: { mime_type: body.mimeType, size_bytes: body.sizeBytes, name: body.name },
        schema: uploadUrl,
        ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}),
      });
      const data: MediaUpload = { id: res.data.media_id, uploadUrl: res.data.upload_url };
      return { ...res, data };
    },
    async upload(url, body, contentType) {
      const res = await request({ method: 'PUT', path: url, rawBody: body, contentType, schema: uploadDone });
      if (res.data.media_id) refs.remember(res.data.media_id, res.data.url);
      return { ...res, data: { id: res.data.media_id, url: res.data.url ?? undefined } };
    },
    async get(id) {
      const res = await documentedRoute(request({ method: 'GET', path: `${SP_PATHS.media}/${encodeURIComponent(id)}`, schema: oneMedia }));
      const media = mediaFromDto(unwrap(res.data), (m) => refs.urlOf(m));
      refs.remember(media.id, media.url.startsWith('syncpostly-media:') ? undefined : media.url);
      return { ...res, data: media };
    },
  };
}
