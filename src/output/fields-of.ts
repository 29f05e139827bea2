// The field names of the rows each command prints, for `--fields` (completion, and the list of
// known names). Post and result rows are read off the wire schemas by the build
// (src/wire/response-checks.ts, without zod), so a field added there is offered here without
// another edit; the rows the CLI builds itself (stats, profiles, listen records) are listed by
// hand and a unit test checks them against the code that builds them.
import { FIELDS as SCHEMA_FIELDS } from '../wire/response-checks.js';
import { AUTH_STATUS_FIELDS, PROFILE_SHOW_FIELDS } from './profile-fields.js';

const POST_FIELDS = SCHEMA_FIELDS.postSchema;
const RESULT_FIELDS = SCHEMA_FIELDS.postResultSchema;
/** `accounts list` rows: the service's account plus `health` (withHealth in src/accounts/health.ts). */
const ACCOUNT_FIELDS = [
  ...SCHEMA_FIELDS.socialAccountSchema,
  'health',
  'health.lastSuccess',
  'health.lastSuccess.at',
  'health.lastSuccess.resultId',
  'health.lastFailure',
  'health.lastFailure.at',
  'health.lastFailure.code',
  'health.lastFailure.resultId',
];
/** `results stats` rows (statsRows in src/results/stats.ts). */
const STATS_FIELDS = ['key', 'total', 'succeeded', 'failed', 'failure_rate', 'failure_share'];
/** `posts check` rows (CHECK_COLUMNS in commands/posts/check.run.ts); --json prints the report instead. */
const CHECK_FIELDS = ['target', 'rule', 'verdict', 'item', 'actual', 'limit', 'note'];
/** `profile list` rows (profileRow in commands/profile/list.run.ts); saved preferences come after. */
const PROFILE_FIELDS = ['name', 'current', 'baseUrl', 'api', 'key'];
/** `listen` records (eventRecord in commands/listen/render.ts): the delivery plus how it arrived. */
const LISTEN_FIELDS = [...SCHEMA_FIELDS.webhookPayloadSchema, 'webhookId', 'receivedAt', 'verified'];

const FIELDS: Readonly<Record<string, readonly string[]>> = {
  'auth status': AUTH_STATUS_FIELDS,
  'profile show': PROFILE_SHOW_FIELDS,
  'posts create': POST_FIELDS,
  'posts schedule': POST_FIELDS,
  'posts check': CHECK_FIELDS,
  // With the fields worked out from a post (derived in cli/commands/posts/list-columns.ts).
  'posts list': [...POST_FIELDS, 'platforms', 'text', 'headline'],
  'results list': RESULT_FIELDS,
  'accounts list': ACCOUNT_FIELDS,
  'results get': RESULT_FIELDS,
  'results wait': RESULT_FIELDS,
  'results retry': POST_FIELDS,
  'results stats': STATS_FIELDS,
  'profile list': PROFILE_FIELDS,
  listen: LISTEN_FIELDS,
};


/**
 * The field names of the rows a command prints ('results list' → id, post_id, …, error.code),
 * in row order, parents before children; [] for a command that prints no rows.
 */
export function fieldsOf(commandPath: string): string[] {
  return [...(FIELDS[commandPath.trim().replace(/\s+/g, ' ')] ?? [])];
}
