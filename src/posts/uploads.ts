// Local media files go up through the media endpoints (POST /v1/media, then PUT the bytes) and
// the post references the URL the service returns. The bytes stream from disk on each attempt,
// so a video of gigabytes costs no more memory than a photo.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ApiClient, StreamBody } from '../client/types.js';
import type { MediaSource } from './draft.js';
import type { MediaFacts } from './media-facts.js';
import { mediaKey } from './keys.js';

export interface UploadOptions {
  /** Post-level idempotency key the media keys derive from; absent: the client makes one per call. */
  postKey?: string;
  maxWaitMs?: number;
  /** Already uploaded (from a bulk journal): path → URL. */
  known?: ReadonlyMap<string, string>;
  onUploaded?: (path: string, url: string, index: number) => void | Promise<void>;
}

/** Uploads each file once and returns path → URL. */
export async function uploadFiles(client: ApiClient, files: readonly MediaSource[], facts: ReadonlyMap<MediaSource, MediaFacts>, options: UploadOptions = {}): Promise<Map<string, string>> {
  const urls = new Map<string, string>();
  for (const [index, file] of files.entries()) {
    const path = file.path!;
    const known = options.known?.get(path);
    if (known) {
      urls.set(path, known);
      continue;
    }
    const f = facts.get(file);
    const mimeType = f?.mimeType ?? 'application/octet-stream';
    const body = await fileBody(path);
    const name = basename(path);
    const created = await client.media.create(
      { name, mimeType, sizeBytes: body.size },
      {
        ...(options.postKey ? { idempotencyKey: mediaKey(options.postKey, index, name, body.size) } : {}),
        ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}),
      },
    );
    await client.media.upload(created.data.uploadUrl, body, mimeType);
    urls.set(path, created.data.url);
    await options.onUploaded?.(path, created.data.url, index);
  }
  return urls;
}

/** The file as it is now: exactly this many bytes go up, even if it grows meanwhile. */
async function fileBody(path: string): Promise<StreamBody> {
  const { size } = await stat(path);
  // 1 MiB reads: a sixteenth of the system calls of the default, still constant memory.
  return { size, open: () => createReadStream(path, { start: 0, end: Math.max(0, size - 1), highWaterMark: 1024 * 1024 }) };
}
