// What each tool's structuredContent looks like (its outputSchema in tools/list). A client that
// knows the schema validates every answer against it (the official SDK client does). Each
// requires and types the top-level fields every answer of the tool carries that a client acts on
// (what it found, whether it is done); the rest, and the objects inside (a post, a result, a
// planned request, the service's), are left open: tools/list stays small (an assistant reads it
// whole, every tool's schema each time), and a field the service adds never makes an answer
// invalid. The other fields are listed here for the reader of this file.
import type { PublishedSchema } from '../json-schema.js';

/** `string`, `integer`, … ; a trailing `?` adds null. */
type Kind = 'string' | 'integer' | 'boolean' | 'object' | 'array' | 'string?' | 'integer?';

/**
 * The tool's answer, or a tool error's body: the SDK client validates an error's
 * structuredContent against the output schema too, so the schema admits both.
 */
function shape(fields: Record<string, Kind>, required: readonly string[]): PublishedSchema {
  // Typed: the fields every answer carries (the rest are described in the tool's text).
  const properties = Object.fromEntries(required.map((name) => [name, { type: fields[name]!.endsWith('?') ? [fields[name]!.slice(0, -1), 'null'] : fields[name] }]));
  return { type: 'object', properties, anyOf: [{ required: [...required] }, { required: ['code', 'message'] }] };
}

/**
 * The fields a write tool's answers turn on: the post (as list_posts shows it, trimPost's
 * snake_case row: id, status, title, scheduled_at, created_at, platforms, text, text_truncated;
 * get_post has the whole), the note saying what happened, and for a change awaiting the user,
 * its summary and token. Others (dry_run, requests, replayed, thread: each platform's parts and cut
 * warnings when the text was split, …) are in the text and allowed here.
 */
const WRITE: Record<string, Kind> = { post: 'object', note: 'string', summary: 'string', confirm_token: 'string' };

const RESULT_FILTERED: Record<string, Kind> = { results: 'array', count: 'integer', next_cursor: 'string', total_unfiltered: 'integer', note: 'string' };

export const OUTPUT_SCHEMAS: Record<string, PublishedSchema> = {
  preview_post: shape({ preview: 'object', note: 'string' }, ['preview']),
  check_post: shape({ accepted: 'boolean', problems: 'array', platforms: 'array', note: 'string' }, ['accepted', 'platforms']),
  create_draft: shape(WRITE, ['note']),
  schedule_post: shape(WRITE, ['note']),
  list_posts: shape({ posts: 'array', count: 'integer', total: 'integer', next_cursor: 'string' }, ['posts', 'total']),
  get_post: shape({ post: 'object', outcome: 'string', results: 'array' }, ['post', 'results']),
  update_post: shape(WRITE, ['note']),
  unschedule_post: shape(WRITE, ['note']),
  delete_post: shape({ ...WRITE, deleted: 'boolean' }, ['note']),
  list_results: shape(RESULT_FILTERED, ['results']),
  get_result: shape({ result: 'object' }, ['result']),
  wait_for_results: shape(
    { post_id: 'string', done: 'boolean', timed_out: 'boolean', still_waiting: 'boolean', reported: 'integer', expected: 'integer?', missing: 'array', failed: 'array', results: 'array', notes: 'array', reason: 'string' },
    ['done', 'still_waiting', 'results'],
  ),
  retry_failed: shape({ ...WRITE, retrying: 'array' }, ['note', 'retrying']),
  list_accounts: shape({ accounts: 'array', derived: 'boolean', health_window: 'object', note: 'string' }, ['accounts']),
  results_stats: shape({ by: 'string', total: 'integer', succeeded: 'integer', failed: 'integer', groups: 'array', groups_left_out: 'integer', complete: 'boolean', note: 'string' }, ['failed', 'groups', 'complete']),
};
