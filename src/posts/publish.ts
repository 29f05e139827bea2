// Sends a composed post: uploads its local media, then POST /v1/posts (a draft) or /v1/schedule,
// under one idempotency key so that a repeated call replays instead of posting twice. Or, for a
// dry run, the requests that would be sent. No Context: the caller passes the client.
import type { ApiClient, ApiResponse } from '../client/types.js';
import { PATHS } from '../wire/protocol.js';
import type { CreatePostBody, Post, ScheduleBody } from '../wire/schemas.js';
import { buildBody, localFiles } from './body.js';
import type { ComposedInput } from './compose-input.js';
import { keyHeader, uploadedUrl, uploadRequests, type PlannedRequest } from './planned-request.js';
import { uploadFiles, type UploadLedger } from './uploads.js';

export type PublishMode = 'create' | 'schedule';

function requestBody(c: ComposedInput, mode: PublishMode, urlOf: (path: string) => string): CreatePostBody | ScheduleBody {
  if (mode === 'schedule' && c.postId !== undefined) return { postId: c.postId, scheduledAt: c.at!.iso };
  const body = buildBody(c.draft!, c.facts, urlOf);
  return mode === 'schedule' ? { ...body, scheduledAt: c.at!.iso } : body;
}


/**
 * The requests a publish would send, in order (media first), with placeholders for upload URLs.
 * Without a key of the caller's, the client makes one per request and reuses it on retries.
 */
export function planPublish(c: ComposedInput, mode: PublishMode, idempotencyKey: string | undefined): PlannedRequest[] {
  const requests = uploadRequests(c.draft ? localFiles(c.draft) : [], c.facts);
  requests.push({
    method: 'POST',
    path: mode === 'create' ? PATHS.posts : PATHS.schedule,
    headers: keyHeader(idempotencyKey),
    body: requestBody(c, mode, uploadedUrl),
  });
  return requests;
}

export interface PublishOptions {
  /** Without one, the client makes a key per request (reused on its retries). */
  idempotencyKey?: string | undefined;
  maxWaitMs?: number;
  /** Bytes uploaded before are reused rather than sent again. */
  ledger?: UploadLedger;
  onReused?: (path: string, url: string) => void;
  /** Called as the create or schedule request is about to go: a failure before it (a lookup, an upload) created no post. */
  onSend?: () => void;
}

/** Uploads, then creates or schedules. Media keys derive from the post key, so replays reuse the uploads. */
export async function publish(client: ApiClient, c: ComposedInput, mode: PublishMode, options: PublishOptions): Promise<ApiResponse<Post>> {
  const wait = options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {};
  const key = options.idempotencyKey;
  const write = { ...(key !== undefined ? { idempotencyKey: key } : {}), ...wait };
  // What the service would refuse (SyncPostly: a platform whose account it cannot pick) is told before any upload.
  if (c.draft && client.posts.check) await client.posts.check(requestBody(c, 'create', (path) => path) as CreatePostBody);
  const urls = c.draft ? await uploadFiles(client, localFiles(c.draft), c.facts, { ...(key !== undefined ? { postKey: key } : {}), ...wait, ...(options.ledger ? { ledger: options.ledger } : {}), ...(options.onReused ? { onReused: options.onReused } : {}) }) : new Map<string, string>();
  const body = requestBody(c, mode, (path) => urls.get(path) ?? path);
  options.onSend?.();
  return mode === 'create' ? client.posts.create(body as CreatePostBody, write) : client.posts.schedule(body as ScheduleBody, write);
}
