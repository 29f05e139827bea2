// Argument schemas shared by several tools, each with the description an assistant reads.
import { checkPostId } from '../../posts/find.js';
import { FieldInputError } from '../../wire/invalid-input.js';
import { looksLikeResultId } from '../../wire/protocol.js';
import { PLATFORMS, POST_STATUSES } from '../../wire/platforms.js';
import { allowedText, PLATFORM_EXTRAS, takesFirstComment, takesThread } from '../../wire/post-extras.js';
import type { JsonSchema } from '../json-schema.js';

/** Rows per answer: a page an assistant can read; a cursor continues. */
export const MAX_ROWS = 50;
export const DEFAULT_ROWS = 20;

export const platforms: JsonSchema = {
  type: 'array',
  description: `Platform ids to post to: ${PLATFORMS.join(', ')}.`,
  items: { type: 'string', enum: PLATFORMS },
  minItems: 1,
  uniqueItems: true,
};

export const payloadFields: Record<string, JsonSchema> = {
  platforms,
  text: {
    type: 'string',
    description: 'The text of the post, for every platform without its own text in text_for. Length is counted as each platform counts it (X: URLs 23, CJK and emoji 2; Bluesky: graphemes).',
  },
  text_for: {
    type: 'object',
    description: 'Per-platform texts, keyed by platform id (e.g. {"bluesky": "…"}); a platform named here is posted to even if platforms leaves it out.',
    propertyNames: { enum: PLATFORMS },
    additionalProperties: { type: 'string' },
  },
  media: {
    type: 'array',
    description: 'Images or videos for every platform: https:// URLs, or absolute paths of local files under a folder the user allowed with `socialpub mcp --media-dir` (uploaded first; recognised by their content). Instagram, TikTok, YouTube and Pinterest need at least one.',
    items: { type: 'string', minLength: 1 },
    maxItems: 20,
  },
  title: { type: 'string', description: 'An internal title for the post (shown in lists, not published).', minLength: 1, maxLength: 200 },
  thread: {
    type: 'boolean',
    description: `true: a text too long for ${PLATFORMS.filter(takesThread).join(', ')} is published there as a thread (split at paragraphs, then sentences, then words, each part within the platform's limit); lines holding only --- mark the parts by hand. Other platforms get the whole text. Default false.`,
  },
  first_comment: {
    type: 'string',
    description: `A comment posted right after the post (${PLATFORMS.filter(takesFirstComment).join(', ')}; on X and Threads as a reply), e.g. the hashtags or a link.`,
    minLength: 1,
  },
  alt: {
    type: 'array',
    description: 'Alt text for each media item, in the order of media ("" for an item without). Each platform has its own limit (X 1,000, Pinterest 500 characters).',
    items: { type: 'string' },
    maxItems: 20,
  },
  options: {
    type: 'object',
    description: `Each platform's settings, keyed by platform id: ${PLATFORMS.flatMap((p) => PLATFORM_EXTRAS[p].options.map((o) => `${p}.${o.key} (${allowedText(o)})`)).join('; ')}. E.g. {"youtube": {"privacy": "unlisted"}}.`,
    propertyNames: { enum: PLATFORMS },
    additionalProperties: { type: 'object' },
  },
};

export const writeFields: Record<string, JsonSchema> = {
  dry_run: { type: 'boolean', description: 'Validate and return the requests that would be sent, without sending anything. Default false.', default: false },
  idempotency_key: {
    type: 'string',
    description:
      'Key that makes the call safe to repeat: a repeated call with the same key within 24 hours replays the first answer and never posts twice. 1–255 printable ASCII characters, no spaces (e.g. "launch-2026-12-01"). Default: derived from the other arguments, so the same call repeated is one post; give a new key to make a second, identical post on purpose.',
    pattern: '^[\\x21-\\x7e]{1,255}$',
  },
};

export const timeZone: JsonSchema = {
  type: 'string',
  description: 'IANA time zone for local times, e.g. Europe/Paris, America/New_York, UTC.',
  minLength: 1,
};

export const resultFilters: Record<string, JsonSchema> = {
  post_ids: { type: 'array', description: 'Only results of these posts (ids post_…).', items: { type: 'string', minLength: 1 }, minItems: 1, maxItems: 50 },
  platforms: { type: 'array', description: `Only results on these platforms: ${PLATFORMS.join(', ')}.`, items: { type: 'string', enum: PLATFORMS }, minItems: 1, uniqueItems: true },
  failed_only: { type: 'boolean', description: 'Only failed results. Default false.', default: false },
  since: {
    type: 'string',
    description: 'Only results at or after this time: a duration back from now ("48h", "7d"), RFC 3339 ("2026-12-01T09:00:00Z"), or "YYYY-MM-DD [HH:MM]" in time_zone.',
    minLength: 1,
  },
  until: { type: 'string', description: 'Only results before this time: RFC 3339 or "YYYY-MM-DD [HH:MM]" in time_zone (or a duration back from now).', minLength: 1 },
  time_zone: { ...timeZone, description: 'IANA time zone for local dates in since/until (default UTC).' },
};

export const listFields: Record<string, JsonSchema> = {
  limit: { type: 'integer', description: `Rows to return, 1–${MAX_ROWS}. Default ${DEFAULT_ROWS}.`, minimum: 1, maximum: MAX_ROWS, default: DEFAULT_ROWS },
  cursor: { type: 'string', description: 'next_cursor from the previous answer, to continue the same list (give the same filters).', minLength: 1 },
};

export const statuses: JsonSchema = { type: 'array', description: `Only posts in these statuses: ${POST_STATUSES.join(', ')}.`, items: { type: 'string', enum: POST_STATUSES }, minItems: 1, uniqueItems: true };

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
