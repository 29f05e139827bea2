// Argument schemas shared by several tools, each with the description an assistant reads.
import { checkPostId } from '../../posts/find.js';
import { FieldInputError } from '../../wire/invalid-input.js';
import { looksLikeResultId } from '../../wire/protocol.js';
import { PLATFORMS, POST_STATUSES } from '../../wire/platforms.js';
import { takesFirstComment, takesThread } from '../../wire/post-extras.js';
import type { JsonSchema } from '../json-schema.js';

/** Rows per answer: a page an assistant can read; a cursor continues. */
export const MAX_ROWS = 50;
export const DEFAULT_ROWS = 20;

export const platforms: JsonSchema = {
  type: 'array',
  description: 'Platforms to post to.',
  items: { type: 'string', enum: PLATFORMS },
  minItems: 1,
  uniqueItems: true,
};

export const payloadFields: Record<string, JsonSchema> = {
  platforms,
  text: {
    type: 'string',
    description: 'Text for every platform without its own in text_for.',
  },
  text_for: {
    type: 'object',
    description: 'Per-platform texts; a platform given one is a target too.',
    // One optional property per platform, not a free-form map: strict function calling takes no
    // open-ended keys (propertyNames, additionalProperties with a schema).
    properties: Object.fromEntries(PLATFORMS.map((p) => [p, { type: 'string' }])),
    additionalProperties: false,
  },
  media: {
    type: 'array',
    description: 'Images or videos for every platform: https:// URLs, or absolute paths under a --media-dir folder.',
    items: { type: 'string', minLength: 1 },
    maxItems: 20,
  },
  title: { type: 'string', description: 'Internal title (not published), up to 200 characters.', minLength: 1, maxLength: 200 },
  thread: {
    type: 'boolean',
    description: `true: a text too long for ${PLATFORMS.filter(takesThread).join(', ')} goes out as a thread there.`,
  },
  first_comment: {
    type: 'string',
    description: `A comment right after the post (${PLATFORMS.filter(takesFirstComment).join(', ')}).`,
    minLength: 1,
  },
  alt: {
    type: 'array',
    description: 'Alt text per media item, in media order ("" for none).',
    items: { type: 'string' },
    maxItems: 20,
  },
  options: {
    type: 'array',
    description: 'Settings as "platform.key=value", e.g. "youtube.privacy=unlisted".',
    // Strings, not an object per platform: the settings' schemas in full would triple tools/list.
    items: { type: 'string', minLength: 3 },
    maxItems: 30,
  },
};

/** The accounts to publish to (write tools); list_accounts shows them. */
export const accountsField: JsonSchema = {
  type: 'array',
  description: "Accounts (id, @handle or platform:@handle; list_accounts); null: each platform's default.",
  items: { type: 'string', minLength: 1 },
  minItems: 1,
  maxItems: 50,
};

export const writeFields: Record<string, JsonSchema> = {
  dry_run: { type: 'boolean', description: 'true: send nothing.' },
  idempotency_key: {
    type: 'string',
    description: '1–255 printable ASCII characters, no spaces.',
    pattern: '^[\\x21-\\x7e]{1,255}$',
  },
};

/** Carried by the second call of a destructive change made without elicitation (see confirm.ts). */
export const confirmFields: Record<string, JsonSchema> = {
  confirm_token: {
    type: 'string',
    description: 'null, or the token of a preview the user agreed to.',
    minLength: 1,
  },
};

export const timeZone: JsonSchema = {
  type: 'string',
  description: 'IANA time zone, e.g. Europe/Paris.',
  minLength: 1,
};

export const resultFilters: Record<string, JsonSchema> = {
  post_ids: { type: 'array', description: 'Only results of these posts.', items: { type: 'string', minLength: 1 }, minItems: 1, maxItems: 50 },
  platforms: { type: 'array', description: 'Only these platforms.', items: { type: 'string', enum: PLATFORMS }, minItems: 1, uniqueItems: true },
  failed_only: { type: 'boolean', description: 'Only failures.' },
  since: {
    type: 'string',
    description: 'From: a duration back ("48h", "7d"), RFC 3339, or "YYYY-MM-DD [HH:MM]" in time_zone.',
    minLength: 1,
  },
  until: { type: 'string', description: 'Before: the forms of since.', minLength: 1 },
  time_zone: { ...timeZone, description: 'IANA zone of local since/until (default UTC).' },
};

export const listFields: Record<string, JsonSchema> = {
  limit: { type: 'integer', description: `Rows, 1–${MAX_ROWS} (default ${DEFAULT_ROWS}).`, minimum: 1, maximum: MAX_ROWS },
  cursor: { type: 'string', description: 'next_cursor of the previous answer (same filters).', minLength: 1 },
};

export const statuses: JsonSchema = { type: 'array', description: 'Only these statuses.', items: { type: 'string', enum: POST_STATUSES }, minItems: 1, uniqueItems: true };

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const strs = (v: unknown): string[] | undefined => (Array.isArray(v) ? (v as string[]) : undefined);
export const int = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/**
 * A post_id argument, checked before anything is sent; the refusal names the tool to use (a
 * result id given by mistake: get_result), never a command the assistant cannot run.
 */
export function postIdArg(value: unknown, field = 'post_id'): string {
  const id = String(value).trim();
  if (looksLikeResultId(id)) throw new FieldInputError(field, `${field}: "${id}" is a result id, not a post id`, 'get_result shows that result with its post_id');
  return checkPostId(id, field, 'list_posts');
}
