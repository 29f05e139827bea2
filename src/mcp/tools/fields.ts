// Argument schemas shared by several tools. An argument every tool means the same way carries no
// description of its own: it is described once, in the server's instructions (ARGUMENT_GUIDE), and
// the rules a served schema cannot state are checked when called, each refusal with its fix.
import { checkPostId } from '../../posts/find.js';
import { FieldInputError } from '../../wire/invalid-input.js';
import { looksLikeResultId } from '../../wire/protocol.js';
import { PLATFORM_LIMITS, PLATFORMS, POST_STATUSES, type Platform } from '../../wire/platforms.js';
import { PLATFORM_EXTRAS, takesFirstComment, takesThread } from '../../wire/post-extras.js';
import { PLATFORM_NAMES } from '../../wire/text-limits.js';
import type { JsonSchema } from '../json-schema.js';
import type { Dialect } from '../../wire/dialects.js';
import { refuseInDialect, SP_TOOL_FIX } from '../../wire/syncpostly/unsupported.js';

/** Rows per answer: a page an assistant can read; a cursor continues. */
export const MAX_ROWS = 50;
export const DEFAULT_ROWS = 20;
export const MAX_MEDIA = 20;
export const MAX_TITLE = 200;
/**
 * The longest id taken. The contract leaves ids to the service, but none is this long; a longer
 * one would only come back as a 431 about the request line, so it is refused naming the argument.
 */
export const MAX_ID = 200;

/**
 * The longest text, first comment and alt text taken: twice the most any platform accepts (a text
 * in one post or a whole thread), so that no text a platform could take is refused, while one no
 * platform takes is refused by the argument check before it is counted, split into thread parts
 * and judged for every platform (a 5 MB text cost seconds of CPU for an answer too large to send).
 * Twice, since a platform's unit may hold more characters than its limit (X counts a URL as 23).
 */
const MARGIN = 2;

/** The platform that takes the most in one field, and how much, in characters of its own unit. */
function most(of: (p: Platform) => number | undefined): { platform: Platform; max: number } {
  return PLATFORMS.map((platform) => ({ platform, max: of(platform) ?? 0 })).reduce((a, b) => (b.max > a.max ? b : a));
}

/** A string argument refused past MARGIN times the most any platform takes, the refusal naming that. */
function textField(what: string, largest: { platform: Platform; max: number }, schema: Omit<JsonSchema, 'type'> = {}): JsonSchema {
  const maxLength = MARGIN * largest.max;
  return { type: 'string', ...schema, maxLength, fix: `no platform takes a ${what} this long: the most any takes is ${largest.max} characters (${PLATFORM_NAMES[largest.platform]}); shorten it` };
}

const LONGEST_TEXT = most((p) => PLATFORM_LIMITS[p].maxText * (PLATFORM_EXTRAS[p].thread?.maxParts ?? 1));
export const MAX_TEXT = MARGIN * LONGEST_TEXT.max;
const text = textField('text', LONGEST_TEXT);

/** The post an id-taking tool acts on. */
export const postId: JsonSchema = { type: 'string', minLength: 1, maxLength: MAX_ID, fix: 'give a post id as list_posts returns it' };

/** A platform name; the values are listed once, in the instructions. */
const platform: JsonSchema = { type: 'string', enum: PLATFORMS, enumInInstructions: true };

export const platforms: JsonSchema = { type: 'array', items: platform, minItems: 1, uniqueItems: true };

/** A list of at most `max` strings, each non-empty unless `item` says otherwise. */
const strings = (max: number, item: JsonSchema = { type: 'string', minLength: 1 }): JsonSchema => ({ type: 'array', items: item, maxItems: max });

export const payloadFields: Record<string, JsonSchema> = {
  platforms,
  text,
  text_for: {
    type: 'object',
    // One optional property per platform, not a free-form map: strict function calling takes no
    // open-ended keys (propertyNames, additionalProperties with a schema).
    properties: Object.fromEntries(PLATFORMS.map((p) => [p, text])),
    additionalProperties: false,
  },
  media: strings(MAX_MEDIA),
  // The fixes say what the command line says of an empty --title and --first-comment.
  title: { type: 'string', minLength: 1, maxLength: MAX_TITLE, emptyFix: 'leave title out, or give it some text' },
  thread: { type: 'boolean' },
  first_comment: textField('first comment', most((p) => PLATFORM_EXTRAS[p].firstComment?.max), { minLength: 1, emptyFix: 'give it text, or leave first_comment out' }),
  alt: strings(MAX_MEDIA, textField('alt text', most((p) => PLATFORM_EXTRAS[p].alt?.max))),
  // Strings, not an object per platform: the settings' schemas in full would triple tools/list.
  options: strings(30, { type: 'string', minLength: 3, fix: 'give "platform.key=value", e.g. "youtube.privacy=unlisted"' }),
};

/** The accounts to publish to (write tools); list_accounts shows them. */
export const accountsField: JsonSchema = { ...strings(50), minItems: 1 };

export const IDEMPOTENCY_KEY_FORM = '1–255 printable ASCII characters, no spaces';

export const writeFields: Record<string, JsonSchema> = {
  dry_run: { type: 'boolean' },
  idempotency_key: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$', fix: IDEMPOTENCY_KEY_FORM },
};

/** SyncPostly's API has no idempotency key: one given is refused naming the dialect, as the CLI's --idempotency-key is. */
export function refuseKeyInDialect(dialect: Dialect, args: Record<string, unknown>): void {
  refuseInDialect(dialect, args.idempotency_key !== undefined, 'idempotencyKey', 'idempotency_key', SP_TOOL_FIX.idempotencyKey);
}

/** Carried by the second call of a destructive change made without elicitation (see confirm.ts). */
export const confirmFields: Record<string, JsonSchema> = {
  confirm_token: { type: 'string', minLength: 1 },
};

export const timeZone: JsonSchema = { type: 'string', minLength: 1 };

export const resultFilters: Record<string, JsonSchema> = {
  post_ids: { ...strings(50, postId), minItems: 1 },
  platforms,
  failed_only: { type: 'boolean' },
  since: { type: 'string', minLength: 1 },
  until: { type: 'string', minLength: 1 },
  time_zone: timeZone,
};

export const listFields: Record<string, JsonSchema> = {
  limit: { type: 'integer', minimum: 1, maximum: MAX_ROWS },
  cursor: { type: 'string', minLength: 1 },
};

export const statuses: JsonSchema = { type: 'array', items: { type: 'string', enum: POST_STATUSES }, minItems: 1, uniqueItems: true };

/**
 * What the shared arguments mean, said once in the server's instructions (each tool's schema
 * carries only the arguments of its own). Every name here is an argument of some tool.
 */
export const ARGUMENT_GUIDE: Record<string, string> = {
  post_id: 'a post id (post_…), as list_posts returns it',
  result_id: 'a result id, as list_results returns it',
  platforms: PLATFORMS.join(', '),
  text: 'for every platform without its own in text_for',
  text_for: 'one optional text per platform; a platform given one is a target too',
  media: `images or videos for every platform, at most ${MAX_MEDIA}: https:// URLs, or absolute paths under a --media-dir folder the server was started with`,
  alt: 'alt text per media item, in media order ("" for none)',
  title: `internal, never published, at most ${MAX_TITLE} characters`,
  thread: `true: a text too long for ${PLATFORMS.filter(takesThread).join(', ')} goes out as a thread there`,
  first_comment: `a comment right after the post (${PLATFORMS.filter(takesFirstComment).join(', ')})`,
  options: 'settings as "platform.key=value", e.g. "youtube.privacy=unlisted"',
  accounts: "ids, @handles or platform:@handle (list_accounts shows them); null: each platform's default",
  at: 'a future time (see Times)',
  time_zone: 'an IANA zone such as Europe/Paris, for a local time in at (needed there), since or until (default UTC)',
  post_ids: 'only results of these posts',
  failed_only: 'true: only failures',
  since: 'a duration back ("48h", "7d"), RFC 3339, or "YYYY-MM-DD [HH:MM]" in time_zone',
  until: 'before this, in the forms of since',
  limit: `rows, 1–${MAX_ROWS} (default ${DEFAULT_ROWS})`,
  cursor: "the previous answer's next_cursor, with the same filters",
  dry_run: 'true: validate and return the requests, sending nothing',
  idempotency_key: `by default derived from the arguments (a repeated call replays the first answer for 24 hours); give a new one for a second, identical post on purpose; ${IDEMPOTENCY_KEY_FORM}`,
  confirm_token: 'null, or the token of a preview the user agreed to',
};

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
