// Zod schemas of the objects on the wire. Response schemas are loose: unknown fields are kept
// (so `--json` shows them) and only what the client relies on is required.
import { z } from 'zod';
import { PLATFORMS } from './platforms.js';

export const platformSchema = z.enum(PLATFORMS);

export const mediaRefSchema = z.looseObject({
  url: z.string().min(1),
  type: z.enum(['image', 'video']).optional(),
});
export type MediaRef = z.infer<typeof mediaRefSchema>;

export const platformPayloadSchema = z.looseObject({
  text: z.string(),
  media: z.array(mediaRefSchema).optional(),
});
export type PlatformPayload = z.infer<typeof platformPayloadSchema>;

/** Payloads as they travel: keyed by platform id. */
export type Payloads = Partial<Record<string, PlatformPayload>>;

/** Body of POST /v1/posts. */
export interface CreatePostBody {
  payloads: Payloads;
  title?: string;
}

/** Body of POST /v1/schedule: schedule a draft, or create and schedule at once. */
export type ScheduleBody =
  | { postId: string; scheduledAt: string }
  | { payloads: Payloads; scheduledAt: string; title?: string };

export const postSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  payloads: z.record(z.string(), z.unknown()),
  scheduledAt: z.string().nullable().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  title: z.string().nullable().optional(),
});
export type Post = z.infer<typeof postSchema>;

export const resultErrorSchema = z.looseObject({
  code: z.string(),
  message: z.string(),
  context: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type ResultError = z.infer<typeof resultErrorSchema>;

export const postResultSchema = z.looseObject({
  id: z.string(),
  post_id: z.string(),
  success: z.boolean(),
  social_account_id: z.string().nullable().optional(),
  platform_data: z
    .looseObject({
      id: z.string().optional(),
      url: z.string().nullable().optional(),
      username: z.string().optional(),
    })
    .nullable()
    .optional(),
  error: resultErrorSchema.nullable().optional(),
  platform: z.string().optional(),
  created_at: z.string().optional(),
});
export type PostResult = z.infer<typeof postResultSchema>;

export const metaSchema = z.looseObject({
  offset: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
});
export type Meta = z.infer<typeof metaSchema>;

export function listSchema<T extends z.ZodType>(row: T) {
  return z.looseObject({ data: z.array(row), meta: metaSchema });
}

export const postListSchema = listSchema(postSchema);
export const postResultListSchema = listSchema(postResultSchema);
export interface ListPage<T> {
  data: T[];
  meta: Meta;
}

/** POST /v1/media → where to PUT the bytes and the URL payloads reference afterwards. */
export const mediaUploadSchema = z.looseObject({
  id: z.string(),
  uploadUrl: z.string(),
  url: z.string(),
});
export type MediaUpload = z.infer<typeof mediaUploadSchema>;

export interface CreateMediaBody {
  name: string;
  mimeType: string;
  sizeBytes: number;
}

export const errorIssueSchema = z.looseObject({ path: z.string(), message: z.string() });
export type ErrorIssue = z.infer<typeof errorIssueSchema>;

/** The service's error body. Parsed leniently: a body of another shape still yields a message. */
export const errorBodySchema = z.looseObject({
  error: z.looseObject({
    code: z.string().optional(),
    message: z.string().optional(),
    issues: z.array(errorIssueSchema).optional(),
  }),
  requestId: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Body of a webhook delivery (CONTRACT section 2). */
export const webhookPayloadSchema = z.looseObject({
  type: z.string(),
  postId: z.string(),
  platform: z.string(),
  status: z.string(),
  resultId: z.string().optional(),
  error: resultErrorSchema.optional(),
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
