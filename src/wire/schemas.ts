// Zod schemas of the objects on the wire, written with zod/mini: it tree-shakes to a few KB,
// where classic zod costs ~40 ms to load on every command (`npm run bench startup`).
// Response schemas are loose: unknown fields are kept (so `--json` shows them) and only what
// the client relies on is required.
import * as z from 'zod/mini';

/** Any schema the client can validate a response with. */
export type Schema<T> = z.ZodMiniType<T>;


const mediaRefSchema = z.looseObject({
  url: z.string().check(z.minLength(1)),
  type: z.optional(z.enum(['image', 'video'])),
});
export type MediaRef = z.infer<typeof mediaRefSchema>;

const platformPayloadSchema = z.looseObject({
  text: z.string(),
  media: z.optional(z.array(mediaRefSchema)),
});
type PlatformPayload = z.infer<typeof platformPayloadSchema>;

/** Payloads as they travel: keyed by platform id. */
export type Payloads = Partial<Record<string, PlatformPayload>>;

/** Body of POST /v1/posts. */
export interface CreatePostBody {
  payloads: Payloads;
  title?: string;
}

/** Body of PATCH /v1/posts/{id}: a platform set to null is removed, `title: null` removes the title, `scheduledAt: null` unschedules. */
export interface UpdatePostBody {
  payloads?: Record<string, PlatformPayload | null>;
  title?: string | null;
  scheduledAt?: string | null;
}

/** Body of POST /v1/schedule: schedule a draft, or create and schedule at once. */
export type ScheduleBody =
  | { postId: string; scheduledAt: string }
  | { payloads: Payloads; scheduledAt: string; title?: string };

export const postSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  payloads: z.record(z.string(), z.unknown()),
  scheduledAt: z.optional(z.nullable(z.string())),
  createdAt: z.optional(z.string()),
  updatedAt: z.optional(z.string()),
  title: z.optional(z.nullable(z.string())),
  /** The latest outcome of each target ("pending" | "published" | "failed"); not every service sends it. */
  targets: z.optional(z.record(z.string(), z.string())),
});
export type Post = z.infer<typeof postSchema>;

const resultErrorSchema = z.looseObject({
  code: z.string(),
  message: z.string(),
  context: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
});
export type ResultError = z.infer<typeof resultErrorSchema>;

export const postResultSchema = z.looseObject({
  id: z.string(),
  post_id: z.string(),
  success: z.boolean(),
  social_account_id: z.optional(z.nullable(z.string())),
  platform_data: z.optional(
    z.nullable(
      z.looseObject({
        // Each may be null: SyncPostly's PostResultDto documents `id|null, url|null, username|null`.
        id: z.optional(z.nullable(z.string())),
        url: z.optional(z.nullable(z.string())),
        username: z.optional(z.nullable(z.string())),
      }),
    ),
  ),
  error: z.optional(z.nullable(resultErrorSchema)),
  /** The outcome of the post's first comment, where it had one (contract 7.3). */
  first_comment: z.optional(z.nullable(z.looseObject({ status: z.string(), error: z.optional(z.nullable(resultErrorSchema)) }))),
  platform: z.optional(z.string()),
  created_at: z.optional(z.string()),
});
export type PostResult = z.infer<typeof postResultSchema>;

const metaSchema = z.looseObject({
  offset: z.int(),
  limit: z.int(),
  total: z.int(),
});

function listSchema<T extends z.ZodMiniType>(row: T) {
  return z.looseObject({ data: z.array(row), meta: metaSchema });
}

/** A list page of rows of any shape (the raw `api --paginate`). */
export const rowListSchema = listSchema(z.unknown());

export const postListSchema = listSchema(postSchema);
export const postResultListSchema = listSchema(postResultSchema);
export interface ListPage<T> {
  data: T[];
  meta: z.infer<typeof metaSchema>;
}

/**
 * POST /v1/media → where to PUT the bytes. The contract promises `{ id, uploadUrl }` only; a
 * service that also says the `url` payloads reference saves a request, else the media object has it.
 */
export const mediaUploadSchema = z.looseObject({
  id: z.string(),
  uploadUrl: z.string(),
  url: z.optional(z.string()),
});
export type MediaUpload = z.infer<typeof mediaUploadSchema>;

/** GET /v1/media/{id}: the media object (contract 7.3), whose `url` payloads reference. */
export const mediaObjectSchema = z.looseObject({
  id: z.string(),
  url: z.string(),
  mimeType: z.optional(z.string()),
  sizeBytes: z.optional(z.number()),
  sha256: z.optional(z.nullable(z.string())),
  /** false: the service says a post may not reference these bytes again (SyncPostly: deleted, not fully uploaded, or another post's). */
  reusable: z.optional(z.boolean()),
});
export type MediaObject = z.infer<typeof mediaObjectSchema>;

export interface CreateMediaBody {
  name: string;
  mimeType: string;
  sizeBytes: number;
}

const errorIssueSchema = z.looseObject({ path: z.string(), message: z.string() });
export type ErrorIssue = z.infer<typeof errorIssueSchema>;


/** Body of a webhook delivery (Standard Webhooks). */
export const webhookPayloadSchema = z.looseObject({
  type: z.string(),
  postId: z.string(),
  platform: z.string(),
  status: z.string(),
  resultId: z.optional(z.string()),
  error: z.optional(resultErrorSchema),
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
