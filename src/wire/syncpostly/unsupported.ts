// What SyncPostly's published API cannot carry (see assumptions.ts beside this file): a flag,
// column or tool argument asking for it is refused before anything is sent, naming the dialect and
// the fix, rather than dropped silently or sent to a path the service does not have. The CLI and
// the MCP server both refuse through here, so the words are the same everywhere.
import { InvalidInputError, type InputIssue } from '../invalid-input.js';
import type { Dialect } from '../dialects.js';

/** Each thing the dialect lacks, said once. */
export const SP_LACKS = {
  title: "SyncPostly's API has no post title (a post is one caption, with overrides per platform)",
  eventTime: "SyncPostly's result rows carry no event time, so a time window cannot be applied exactly",
  webhooks: 'SyncPostly documents no webhooks and no signing, so no delivery can be verified or waited for',
  idempotencyKey: "SyncPostly's API documents no idempotency key, so a re-run cannot be recognised by one",
} as const;

export type SpLack = keyof typeof SP_LACKS;

/** Said with every refusal: where the dialect was chosen is where it is changed. */
export const DIALECT_HINT = "this profile speaks SyncPostly's API (experimental; `socialpub auth status` says where that was chosen)";

/** One problem, for a list of them (a bulk file's rows). */
export function dialectIssue(lack: SpLack, field: string, fix: string): InputIssue {
  return { field, message: `${field}: ${SP_LACKS[lack]}`, fix };
}

/** A request the dialect cannot carry: invalid input (exit 2, MCP invalid_input), nothing sent. */
export class DialectUnsupportedError extends InvalidInputError {
  readonly dialect: Dialect;
  readonly lack: SpLack;
  constructor(lack: SpLack, field: string, fix: string) {
    super([{ field, message: `${field}: ${SP_LACKS[lack]}; nothing was sent`, fix }], { hints: [DIALECT_HINT] });
    this.dialect = 'syncpostly';
    this.lack = lack;
  }
}

/** Said where a repeated call would otherwise be promised to replay the first. */
export const SP_NO_REPLAY = "calling it again makes another post: SyncPostly's API has no idempotency key, so check with list_posts before repeating a call";

/** The MCP tools' words for the fixes (the CLI names its flags instead). */
export const SP_TOOL_FIX = {
  title: 'leave title out: SyncPostly decides a YouTube video\'s title',
  window: 'leave since and until out; narrow by post_ids or platforms instead',
  idempotencyKey: 'leave idempotency_key out: with SyncPostly a repeated call makes another post, so check with list_posts before calling again',
} as const;

/** Throws when `given` asks the SyncPostly dialect for what it lacks; nothing in socialpub's own. */
export function refuseInDialect(dialect: Dialect, given: boolean, lack: SpLack, field: string, fix: string): void {
  if (given && dialect === 'syncpostly') throw new DialectUnsupportedError(lack, field, fix);
}
