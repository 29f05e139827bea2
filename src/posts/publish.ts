// Sends a composed post: uploads its local media, then POST /v1/posts (a draft) or /v1/schedule,
// under one idempotency key so that a repeated call replays instead of posting twice. Or, for a
// dry run, the requests that would be sent. No Context: the caller passes the client.
import { basename } from 'node:path';
import type { ApiClient, ApiResponse } from '../client/types.js';
import { PATHS } from '../wire/headers.js';
import type { CreatePostBody, Post, ScheduleBody } from '../wire/schemas.js';
import { buildBody, localFiles } from './body.js';
import type { ComposedInput } from './compose-input.js';
import type { PlannedRequest } from './planned-request.js';
import { uploadFiles } from './uploads.js';

export type PublishMode = 'create' | 'schedule';

function requestBody(c: ComposedInput, mode: PublishMode, urlOf: (path: string) => string): CreatePostBody | ScheduleBody {
  if (mode === 'schedule' && c.postId !== undefined) return { postId: c.postId, scheduledAt: c.at!.iso };
  const body = buildBody(c.draft!, c.facts, urlOf);
  return mode === 'schedule' ? { ...body, scheduledAt: c.at!.iso } : body;
}

const placeholder = (path: string) => `<url returned by POST ${PATHS.media} for ${basename(path)}>`;

/** The requests a publish would send, in order (media first), with placeholders for upload URLs. */
export function planPublish(c: ComposedInput, mode: PublishMode, idempotencyKey: string): PlannedRequest[] {
  const requests: PlannedRequest[] = [];
  for (const f of c.draft ? localFiles(c.draft) : []) {
    const facts = c.facts.get(f);
    const size = facts?.sizeBytes ?? 0;
    const type = facts?.mimeType ?? 'application/octet-stream';
    requests.push({ method: 'POST', path: PATHS.media, body: { name: basename(f.path!), mimeType: type, sizeBytes: size } });
    requests.push({ method: 'PUT', path: `<uploadUrl returned for ${basename(f.path!)}>`, bytes: { file: f.source, sizeBytes: size, contentType: type } });
  }
  requests.push({ method: 'POST', path: mode === 'create' ? PATHS.posts : PATHS.schedule, headers: { 'Idempotency-Key': idempotencyKey }, body: requestBody(c, mode, placeholder) });
  return requests;
}

export interface PublishOptions {
  idempotencyKey: string;
  maxWaitMs?: number;
}

/** Uploads, then creates or schedules. Media keys derive from the post key, so replays reuse the uploads. */
export async function publish(client: ApiClient, c: ComposedInput, mode: PublishMode, options: PublishOptions): Promise<ApiResponse<Post>> {
  const write = { idempotencyKey: options.idempotencyKey, ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}) };
  const urls = c.draft ? await uploadFiles(client, localFiles(c.draft), c.facts, { postKey: options.idempotencyKey, ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}) }) : new Map<string, string>();
  const body = requestBody(c, mode, (path) => urls.get(path) ?? path);
  return mode === 'create' ? client.posts.create(body as CreatePostBody, write) : client.posts.schedule(body as ScheduleBody, write);
}
