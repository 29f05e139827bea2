// Local media files go up through the media endpoints (POST /v1/media, then PUT the bytes) and
// the post references the media's URL: the one the create answer gives, else the media object's
// (GET /v1/media/{id}; the contract promises `{ id, uploadUrl }` only). The bytes stream from disk
// on each attempt, so a video of gigabytes costs no more memory than a photo. With a ledger, bytes
// this client already uploaded to this service are not sent again: the service is asked whether
// it still holds them (the same id, size and SHA-256) and its URL is reused.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ApiClient, StreamBody } from '../client/types.js';
import { NotFoundError } from '../client/errors.js';
import type { MediaSource } from './draft.js';
import type { MediaFacts } from './media-facts.js';
import { mediaKey } from './keys.js';

/** What this client uploaded before, by SHA-256 of the bytes (src/config/upload-ledger.ts). */
export interface UploadLedger {
  find(sha256: string): Promise<{ id: string; url: string; sizeBytes: number } | undefined>;
  remember(sha256: string, media: { id: string; url: string; sizeBytes: number }): Promise<void>;
  forget(sha256: string): Promise<void>;
}

export interface UploadOptions {
  /** Post-level idempotency key the media keys derive from; absent: the client makes one per call. */
  postKey?: string;
  maxWaitMs?: number;
  /** Already uploaded (from a bulk journal): path → URL. */
  known?: ReadonlyMap<string, string>;
  onUploaded?: (path: string, url: string, index: number) => void | Promise<void>;
  ledger?: UploadLedger;
  /** A file the service already held, so nothing was sent. */
  onReused?: (path: string, url: string) => void;
}

/** Uploads each file once and returns path → URL. */
export async function uploadFiles(client: ApiClient, files: readonly MediaSource[], facts: ReadonlyMap<MediaSource, MediaFacts>, options: UploadOptions = {}): Promise<Map<string, string>> {
  const urls = new Map<string, string>();
  // A service that takes only some types says so for every file before the first is sent.
  client.media.check?.(files.filter((f) => !options.known?.has(f.path!)).map((f) => ({ name: basename(f.path!), mimeType: facts.get(f)?.mimeType ?? 'application/octet-stream' })));
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
    const sha256 = options.ledger ? await fileSha256(path, body.size) : undefined;
    const reused = sha256 !== undefined ? await reusable(client, options.ledger!, sha256, body.size) : undefined;
    if (reused !== undefined) {
      urls.set(path, reused);
      options.onReused?.(path, reused);
      await options.onUploaded?.(path, reused, index);
      continue;
    }
    const name = basename(path);
    const created = await client.media.create(
      { name, mimeType, sizeBytes: body.size },
      {
        ...(options.postKey ? { idempotencyKey: mediaKey(options.postKey, index, name, body.size) } : {}),
        ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}),
      },
    );
    const uploaded = await client.media.upload(created.data.uploadUrl, body, mimeType);
    const url = created.data.url ?? urlOfUpload(uploaded.data) ?? (await client.media.get(created.data.id)).data.url;
    urls.set(path, url);
    if (sha256 !== undefined) await options.ledger!.remember(sha256, { id: created.data.id, url, sizeBytes: body.size });
    await options.onUploaded?.(path, url, index);
  }
  return urls;
}

/** The URL of these bytes on the service, when it still holds the upload the ledger remembers. */
async function reusable(client: ApiClient, ledger: UploadLedger, sha256: string, size: number): Promise<string | undefined> {
  const seen = await ledger.find(sha256);
  if (!seen || seen.sizeBytes !== size) return undefined;
  try {
    const media = (await client.media.get(seen.id)).data;
    // A service that says the digest must say this one; one that does not (SyncPostly) is trusted
    // on its own id and the size, and only while it says the media may be referenced again.
    const same = media.reusable !== false && (media.sizeBytes === undefined || media.sizeBytes === size) && (media.sha256 == null || media.sha256 === sha256);
    if (same) return media.url;
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
  await ledger.forget(sha256);
  return undefined;
}

/** The URL an upload's answer names, where it names one (SyncPostly's `{ success, media_id, url }`). */
function urlOfUpload(data: unknown): string | undefined {
  const url = (data as { url?: unknown } | null | undefined)?.url;
  return typeof url === 'string' && url !== '' ? url : undefined;
}

/** SHA-256 of the file's first `size` bytes, read in 1 MiB slices. */
async function fileSha256(path: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  if (size > 0) for await (const chunk of createReadStream(path, { start: 0, end: size - 1, highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The file as it is now: exactly this many bytes go up, even if it grows meanwhile. */
async function fileBody(path: string): Promise<StreamBody> {
  const { size } = await stat(path);
  // 1 MiB reads: a sixteenth of the system calls of the default, still constant memory.
  return { size, open: () => createReadStream(path, { start: 0, end: Math.max(0, size - 1), highWaterMark: 1024 * 1024 }) };
}
