// SyncPostly's documented objects as zod/mini schemas: the create/update body the sandbox validates
// (its 422 `issues` are these schemas' own Zod issues, as SyncPostly's are), and the loose response
// DTOs the client reads. Every documented `null` is allowed (research 1: PostResultDto,
// SocialAccountDto, MediaDto). Choices the documents leave open are in ./assumptions.ts.
import * as z from 'zod/mini';
import { SP_MEDIA_TYPES } from './assumptions.js';

const nullableString = z.optional(z.nullable(z.string()));
const freeForm = z.optional(z.nullable(z.record(z.string(), z.unknown())));

/** CreatePostPayload (posts page); PATCH takes Partial<CreatePostPayload>. */
export const spCreatePostSchema = z.object({
  caption: z.string().check(z.minLength(1)),
  social_accounts: z.array(z.string().check(z.minLength(1))).check(z.minLength(1)),
  scheduled_at: z.optional(z.nullable(z.iso.datetime({ offset: true }))),
  is_draft: z.optional(z.nullable(z.boolean())),
  media: z.optional(z.array(z.string())),
  media_urls: z.optional(z.array(z.url())),
  platform_configurations: freeForm,
  account_configurations: freeForm,
  processing_enabled: z.optional(z.nullable(z.boolean())),
});
export type SpCreatePost = z.infer<typeof spCreatePostSchema>;
export const spUpdatePostSchema = z.partial(spCreatePostSchema);
export type SpUpdatePost = z.infer<typeof spUpdatePostSchema>;

/** PostDto (models page; the example is cut after `processing_enabled`, so more fields may come). */
export const spPostSchema = z.looseObject({
  id: z.string(),
  caption: z.optional(z.nullable(z.string())),
  social_accounts: z.optional(z.nullable(z.array(z.string()))),
  scheduled_at: nullableString,
  is_draft: z.optional(z.nullable(z.boolean())),
  status: z.string(),
  media: z.optional(z.nullable(z.array(z.string()))),
  platform_configurations: freeForm,
  account_configurations: freeForm,
  processing_enabled: z.optional(z.nullable(z.boolean())),
  created_at: nullableString,
  updated_at: nullableString,
});
export type SpPost = z.infer<typeof spPostSchema>;

const spErrorSchema = z.looseObject({ code: z.string(), message: z.string(), context: freeForm });

/** PostResultDto: platform_data's fields and social_account_id may each be null. */
export const spPostResultSchema = z.looseObject({
  id: z.string(),
  post_id: z.string(),
  success: z.boolean(),
  social_account_id: nullableString,
  platform_data: z.optional(z.nullable(z.looseObject({ id: nullableString, url: nullableString, username: nullableString }))),
  error: z.optional(z.nullable(spErrorSchema)),
});
export type SpPostResult = z.infer<typeof spPostResultSchema>;

/** SocialAccountDto: `{ id, platform, username, display_name }`; no status, default or expiry. */
export const spAccountSchema = z.looseObject({
  id: z.string(),
  platform: z.string(),
  username: nullableString,
  display_name: nullableString,
});
export type SpAccount = z.infer<typeof spAccountSchema>;

/** MediaDto. */
export const spMediaSchema = z.looseObject({
  id: z.string(),
  mime_type: nullableString,
  type: nullableString,
  post_id: nullableString,
  status: nullableString,
  object: z.optional(z.nullable(z.looseObject({ isDeleted: z.optional(z.boolean()), url: nullableString, size_bytes: z.optional(z.nullable(z.number())), name: nullableString }))),
});
export type SpMedia = z.infer<typeof spMediaSchema>;

/** The create-upload-URL body (assumed: Post Bridge's) and the documented answers. */
export const spCreateUploadUrlSchema = z.object({
  mime_type: z.enum(SP_MEDIA_TYPES),
  size_bytes: z.int().check(z.positive()),
  name: z.string().check(z.minLength(1)),
});
export type SpCreateUploadUrl = z.infer<typeof spCreateUploadUrlSchema>;
export const spUploadUrlSchema = z.looseObject({ media_id: z.string(), upload_url: z.string(), name: nullableString });
export const spUploadDoneSchema = z.looseObject({ success: z.optional(z.boolean()), media_id: z.optional(z.string()), url: nullableString });

function spList<T extends z.ZodMiniType>(row: T) {
  return z.looseObject({ data: z.array(row), meta: z.looseObject({ offset: z.int(), limit: z.int(), total: z.int() }) });
}
export const spPostListSchema = spList(spPostSchema);
export const spPostResultListSchema = spList(spPostResultSchema);
export const spAccountListSchema = spList(spAccountSchema);
export const spMediaListSchema = spList(spMediaSchema);

