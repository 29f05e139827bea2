// Generated at every build by scripts/gen-wire-checks.mjs from src/wire/schemas.ts and src/wire/account-schemas.ts:
// do not edit. Each response schema as a plain check (src/wire/check-kinds.ts), so that an answer
// that fits is taken without loading zod; one that does not goes to zod, which says what is wrong.
import { array, boolean, int, nullable, number, object, optional, record, string, unknown } from './check-kinds.js';

export { REFUSED } from './check-kinds.js';

const c0 = optional(string);
const c1 = optional(number);
const c2 = nullable(string);
const c3 = optional(c2);
const c4 = optional(boolean);
const c5 = object([["id", string], ["url", string], ["mimeType", c0, 1], ["sizeBytes", c1, 1], ["sha256", c3, 1], ["reusable", c4, 1]], 'loose');
const c6 = object([["id", string], ["uploadUrl", string], ["url", c0, 1]], 'loose');
const c7 = record(unknown);
const c8 = record(string);
const c9 = optional(c8);
const c10 = object([["id", string], ["status", string], ["payloads", c7], ["scheduledAt", c3, 1], ["createdAt", c0, 1], ["updatedAt", c0, 1], ["title", c3, 1], ["targets", c9, 1]], 'loose');
const c11 = array(c10);
const c12 = object([["offset", int], ["limit", int], ["total", int]], 'loose');
const c13 = object([["data", c11], ["meta", c12]], 'loose');
const c14 = object([["id", c3, 1], ["url", c3, 1], ["username", c3, 1]], 'loose');
const c15 = nullable(c14);
const c16 = optional(c15);
const c17 = nullable(c7);
const c18 = optional(c17);
const c19 = object([["code", string], ["message", string], ["context", c18, 1]], 'loose');
const c20 = nullable(c19);
const c21 = optional(c20);
const c22 = object([["status", string], ["error", c21, 1]], 'loose');
const c23 = nullable(c22);
const c24 = optional(c23);
const c25 = object([["id", string], ["post_id", string], ["success", boolean], ["social_account_id", c3, 1], ["platform_data", c16, 1], ["error", c21, 1], ["first_comment", c24, 1], ["platform", c0, 1], ["created_at", c0, 1]], 'loose');
const c26 = array(c25);
const c27 = object([["data", c26], ["meta", c12]], 'loose');
const c28 = array(unknown);
const c29 = object([["data", c28], ["meta", c12]], 'loose');
const c30 = nullable(boolean);
const c31 = optional(c30);
const c32 = object([["id", string], ["platform", string], ["username", c3, 1], ["displayName", c3, 1], ["status", c3, 1], ["isDefault", c31, 1], ["tokenExpiresAt", c3, 1], ["connectedAt", c3, 1]], 'loose');
const c33 = array(c32);
const c34 = object([["data", c33], ["meta", c12]], 'loose');
const c35 = optional(c19);
const c36 = object([["type", string], ["postId", string], ["platform", string], ["status", string], ["resultId", c0, 1], ["error", c35, 1]], 'loose');

/** Each schema's check: what its safeParse gives as data, or REFUSED. */
export const CHECKS = {
  mediaObjectSchema: c5,
  mediaUploadSchema: c6,
  postListSchema: c13,
  postResultListSchema: c27,
  postResultSchema: c25,
  postSchema: c10,
  rowListSchema: c29,
  socialAccountListSchema: c34,
  socialAccountSchema: c32,
  webhookPayloadSchema: c36,
} as const;

/** Each schema's field names for --fields (parents before children; records and arrays are leaves). */
export const FIELDS = {
  mediaObjectSchema: ["id","url","mimeType","sizeBytes","sha256","reusable"],
  mediaUploadSchema: ["id","uploadUrl","url"],
  postListSchema: ["data","meta","meta.offset","meta.limit","meta.total"],
  postResultListSchema: ["data","meta","meta.offset","meta.limit","meta.total"],
  postResultSchema: ["id","post_id","success","social_account_id","platform_data","platform_data.id","platform_data.url","platform_data.username","error","error.code","error.message","error.context","first_comment","first_comment.status","first_comment.error","first_comment.error.code","first_comment.error.message","first_comment.error.context","platform","created_at"],
  postSchema: ["id","status","payloads","scheduledAt","createdAt","updatedAt","title","targets"],
  rowListSchema: ["data","meta","meta.offset","meta.limit","meta.total"],
  socialAccountListSchema: ["data","meta","meta.offset","meta.limit","meta.total"],
  socialAccountSchema: ["id","platform","username","displayName","status","isDefault","tokenExpiresAt","connectedAt"],
  webhookPayloadSchema: ["type","postId","platform","status","resultId","error","error.code","error.message","error.context"],
} as const;
