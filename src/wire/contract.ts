// The contract's objects and request bodies as exact zod/mini schemas: what the sandbox answers
// and takes, field by field. The OpenAPI document (src/sandbox/openapi) is generated from these,
// the sandbox checks request bodies and query values with them (src/sandbox/contract-check.ts),
// and its tests hold its real answers to them, so the document and the service cannot drift apart. (The client validates responses with the looser src/wire/schemas.ts: it must
// stay tolerant of other services.)
import * as z from 'zod/mini';
import { ACCOUNT_STATUSES } from './account-status.js';
import { PLATFORMS, POST_STATUSES } from './platforms.js';
import { PAGE } from './protocol.js';

const time = z.string().register(z.globalRegistry, { format: 'date-time' });
const gap = (text: string) => `${text} (The service's API document does not show this; the contract fills the gap.)`;

export const platformId = z.enum(PLATFORMS);
export const postStatus = z.enum(POST_STATUSES);
export const accountStatus = z.enum(ACCOUNT_STATUSES);

export const mediaItem = z.looseObject({
  url: z.string().check(z.minLength(1)),
  type: z.optional(z.enum(['image', 'video'])),
  alt: z.optional(z.string()),
});

export const platformPayload = z.looseObject({
  text: z.string(),
  media: z.optional(z.array(mediaItem)),
  thread: z.optional(z.array(z.looseObject({ text: z.string(), media: z.optional(z.array(mediaItem)) }))),
  firstComment: z.optional(z.string()),
  options: z.optional(z.record(z.string(), z.unknown())),
  accounts: z.optional(z.array(z.string())),
});

export const payloads = z.partialRecord(platformId, platformPayload);

export const post = z.object({
  id: z.string(),
  status: postStatus,
  payloads,
  scheduledAt: z.nullable(time),
  createdAt: time,
  updatedAt: time,
  title: z.optional(z.string()),
  targets: z.optional(z.partialRecord(platformId, z.enum(['pending', 'published', 'failed']))),
});

export const resultError = z.object({
  code: z.string(),
  message: z.string(),
  context: z.record(z.string(), z.unknown()),
});

export const postResult = z.object({
  id: z.string(),
  post_id: z.string(),
  success: z.boolean(),
  social_account_id: z.nullable(z.string()),
  // A failure row has no platform id: nothing was published.
  platform_data: z.object({ id: z.optional(z.string()), url: z.nullable(z.string()), username: z.string() }),
  error: z.nullable(resultError),
  platform: platformId,
  created_at: time,
});

// The paging parameters of every list (query values, read as whole numbers in digits).
export const MAX_OFFSET = 1_000_000_000;
export const offsetParam = z.int().check(z.minimum(0), z.maximum(MAX_OFFSET));
export const limitParam = z.int().check(z.minimum(1), z.maximum(PAGE.maxLimit));

export const meta = z.object({ offset: z.int().check(z.minimum(0)), limit: z.int().check(z.minimum(1), z.maximum(PAGE.maxLimit)), total: z.int().check(z.minimum(0)) });
export const postList = z.object({ data: z.array(post), meta });
export const postResultList = z.object({ data: z.array(postResult), meta });

export const account = z.object({
  id: z.string(),
  platform: platformId,
  username: z.string(),
  displayName: z.nullable(z.string()),
  status: accountStatus,
  isDefault: z.boolean(),
  tokenExpiresAt: z.nullable(time),
  connectedAt: time,
});
export const accountList = z.object({ data: z.array(account), meta });

export const media = z.looseObject({
  id: z.string(),
  name: z.string(),
  mimeType: z.string(),
  sizeBytes: z.int(),
  status: z.enum(['pending', 'ready']),
  uploadUrl: z.string(),
  url: z.string(),
  createdAt: time,
  sha256: z.optional(z.nullable(z.string())),
});

export const errorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    issues: z.optional(z.array(z.object({ path: z.string(), message: z.string() }))),
  }),
  requestId: z.string(),
});

// The sandbox validates request bodies with these (src/sandbox/contract-check.ts), so what the
// document says a body may hold is what the sandbox takes. A strict object refuses a field it
// does not name; a loose one keeps it (payload fields beyond these are platform options).
export const createPostBody = z.looseObject({ payloads, title: z.optional(z.string()) });
export const updatePostBody = z.strictObject({
  payloads: z.optional(z.partialRecord(platformId, z.nullable(platformPayload))),
  title: z.optional(z.nullable(z.string())),
  scheduledAt: z.optional(z.nullable(time)),
});
// `postId` and `payloads` exclude each other: which post would be scheduled?
export const scheduleDraftBody = z.strictObject({ postId: z.string(), scheduledAt: time, payloads: z.optional(z.never()) });
export const scheduleCreateBody = z.looseObject({ payloads, scheduledAt: time, title: z.optional(z.string()), postId: z.optional(z.never()) });
export const scheduleBody = z.union([scheduleDraftBody, scheduleCreateBody]);
export const createMediaBody = z.strictObject({ name: z.string().check(z.minLength(1)), mimeType: z.string(), sizeBytes: z.int().check(z.minimum(1)) });

/** Every schema the document names, with what it says of each. */
export const CONTRACT_SCHEMAS = {
  Platform: { schema: platformId, description: 'A platform id of the service.' },
  PostStatus: { schema: postStatus, description: 'draft → scheduled → published, or → failed.' },
  AccountStatus: { schema: accountStatus, description: gap('The state of a connected account (contract 7.2).') },
  MediaItem: { schema: mediaItem, description: gap('A media item of a payload; `alt` is the alt text of an image (contract 7.3).') },
  PlatformPayload: { schema: platformPayload, description: gap('One platform\'s content: text, media, and (contract 7.2/7.3) thread parts, a first comment, per-platform options and the accounts to publish to. Other fields are platform options, kept as sent.') },
  Payloads: { schema: payloads, description: gap('Per-platform payloads keyed by platform id; at least one.') },
  Post: { schema: post, description: gap('A post. `targets` is the latest outcome of each target platform (contract 6.1).') },
  ResultError: { schema: resultError, description: 'Why a target failed: code (e.g. API_RATE_LIMIT), message and the provider\'s context.' },
  PostResult: { schema: postResult, description: 'One record per target account. `platform` and `created_at` are the contract\'s extras.' },
  Meta: { schema: meta, description: 'List metadata.' },
  PostList: { schema: postList, description: gap('A page of posts, newest first.') },
  PostResultList: { schema: postResultList, description: 'A page of post results, newest first by event time.' },
  Account: { schema: account, description: gap('A connected social account (contract 7.2).') },
  AccountList: { schema: accountList, description: gap('A page of accounts (contract 7.2).') },
  Media: { schema: media, description: gap('An upload declared with POST /v1/media: PUT its bytes to uploadUrl, then reference url in payloads.') },
  Error: { schema: errorBody, description: gap('The error body of every error answer.') },
  CreatePostBody: { schema: createPostBody, description: gap('Body of POST /v1/posts.') },
  UpdatePostBody: { schema: updatePostBody, description: gap('Body of PATCH /v1/posts/{id}: a platform set to null is removed, `title: null` removes the title, `scheduledAt: null` unschedules (contract 6.1).') },
  ScheduleBody: { schema: scheduleBody, description: gap('Body of POST /v1/schedule: schedule an existing draft by postId, or create and schedule at once.') },
  CreateMediaBody: { schema: createMediaBody, description: gap('Body of POST /v1/media.') },
} as const;

export type ContractSchemaName = keyof typeof CONTRACT_SCHEMAS;
