// A SyncPostly body checked against the documented schema (src/wire/syncpostly/schemas.ts) and
// the sandbox's reading of `platform_configurations` (assumptions.platformConfigurations). Its
// Zod issues go out as they are; a required field that is missing is a 400 (a bad request), any
// other schema issue a 422 (assumptions.validationStatus).
import * as z from 'zod/mini';
import { spCreatePostSchema, spUpdatePostSchema, type SpCreatePost, type SpUpdatePost } from '../../wire/syncpostly/schemas.js';
import { SpHttpError, type SpIssue } from './dialect.js';

const mediaRefs = z.array(z.string().check(z.minLength(1)));

/** One platform's overrides, as the sandbox reads them (unknown keys refused, naming the ones it takes). */
export const spPlatformConfigSchema = z.strictObject({
  caption: z.optional(z.string().check(z.minLength(1))),
  media: z.optional(mediaRefs),
  media_urls: z.optional(z.array(z.url())),
  alt_text: z.optional(z.array(z.nullable(z.string()))),
  thread: z.optional(z.array(z.strictObject({ caption: z.string().check(z.minLength(1)), media: z.optional(mediaRefs) }))),
  first_comment: z.optional(z.string()),
  options: z.optional(z.record(z.string(), z.unknown())),
});
export type SpPlatformConfig = z.infer<typeof spPlatformConfigSchema>;

export function zodIssues(error: z.core.$ZodError, prefix: (string | number)[] = []): SpIssue[] {
  return error.issues.map((i) => ({ path: [...prefix, ...i.path.map((p) => (typeof p === 'number' ? p : String(p)))], message: i.message, code: i.code }));
}

function refused(issues: SpIssue[], missing: boolean): SpHttpError {
  const first = issues[0]!;
  const message = issues.length === 1 ? `${first.path.join('.') || 'body'}: ${first.message}` : `${issues.length} problems with the request; see issues`;
  return new SpHttpError(missing ? 400 : 422, message, issues);
}

const REQUIRED_ON_CREATE = ['caption', 'social_accounts'] as const;

export function parseCreateBody(json: Record<string, unknown>): SpCreatePost {
  const parsed = spCreatePostSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issues = zodIssues(parsed.error);
  throw refused(issues, REQUIRED_ON_CREATE.some((k) => json[k] === undefined));
}

export function parseUpdateBody(json: Record<string, unknown>): SpUpdatePost {
  const parsed = spUpdatePostSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  throw refused(zodIssues(parsed.error), false);
}

export function parsePlatformConfig(value: unknown, platform: string, issues: SpIssue[]): SpPlatformConfig | undefined {
  const parsed = spPlatformConfigSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  issues.push(...zodIssues(parsed.error, ['platform_configurations', platform]));
  return undefined;
}

/** Rule issues (ours, mapped to SyncPostly's fields) as a 422. */
export function invalid(issues: SpIssue[]): SpHttpError {
  return refused(issues, false);
}
