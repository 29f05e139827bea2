// A create whose answer was lost (RequestOptions.lostAnswer): SyncPostly has no idempotency
// header, so sending it again could post twice (assumptions.idempotency). Before anything is
// sent again, the newest posts are searched for the one it made: the same caption, the same
// set of accounts, the same scheduled_at and is_draft, created after the attempt started (less
// a margin for the two clocks) where created_at is given, and not already the answer to another
// create of this client. Found: that post is the answer. Not found: the create may be sent again.
// Every step goes to the --debug trace.
import { SP_PATHS } from '../../wire/syncpostly/assumptions.js';
import type { SpCreatePost, SpPost } from '../../wire/syncpostly/schemas.js';
import type { ListPage } from '../../wire/schemas.js';
import { ApiError, type ApiErrorInit } from '../errors.js';
import type { Requester } from '../request.js';
import type { LostAnswerCheck } from '../types.js';
import { lazySp } from './dto.js';

/** How many of the newest posts are searched (one page: SyncPostly's largest). */
export const LOST_CREATE_SEARCH = 100;
/** How far the service's clock may be behind ours before a post made by the attempt is missed. */
export const CLOCK_MARGIN_MS = 5 * 60_000;

const postList = lazySp<ListPage<SpPost>>((s) => s.spPostListSchema);

export interface SearchDeps {
  request: Requester;
  debug: ((line: string) => void) | undefined;
  /** Posts already taken as the answer to a create of this client: never taken twice. */
  claimed: Set<string>;
}

export function findLostCreate(deps: SearchDeps, sent: SpCreatePost): LostAnswerCheck<SpPost> {
  const say = (line: string) => deps.debug?.(`lost create: ${line}`);
  return async ({ failure, startedAt }) => {
    const since = startedAt - CLOCK_MARGIN_MS;
    say(
      `searching the newest ${LOST_CREATE_SEARCH} posts for caption ${quote(sent.caption)}, accounts [${[...sent.social_accounts].sort().join(', ')}], ` +
        `scheduled_at ${sent.scheduled_at ?? 'null'}, is_draft ${String(sent.is_draft ?? false)}, created after ${new Date(since).toISOString()}`,
    );
    let rows: SpPost[];
    try {
      rows = (await deps.request({ method: 'GET', path: SP_PATHS.posts, query: { offset: 0, limit: LOST_CREATE_SEARCH }, schema: postList })).data.data;
    } catch (err) {
      say(`the search failed (${err instanceof Error ? err.message : String(err)}); not sending the create again`);
      throw searchFailed(failure, err);
    }
    const match = rows.find((row) => {
      const why = mismatch(row, sent, since, deps.claimed);
      if (why && row.caption === sent.caption) say(`post ${row.id} has the caption but ${why}`);
      return why === undefined;
    });
    if (!match) {
      say(`none of the ${rows.length} newest posts is it: the create did not take effect`);
      return undefined;
    }
    deps.claimed.add(match.id);
    say(`post ${match.id}${match.created_at ? ` (created ${match.created_at})` : ''} is the one sent: taking it as the answer`);
    return match;
  };
}

/** Why a post is not the one sent, or undefined when it is. */
export function mismatch(row: SpPost, sent: SpCreatePost, since: number, claimed: ReadonlySet<string>): string | undefined {
  if (row.caption !== sent.caption) return 'another caption';
  const a = [...(row.social_accounts ?? [])].sort().join(',');
  const b = [...sent.social_accounts].sort().join(',');
  if (a !== b) return `other accounts (${a})`;
  if (!sameInstant(row.scheduled_at, sent.scheduled_at)) return `another scheduled_at (${row.scheduled_at ?? 'null'})`;
  if (Boolean(row.is_draft) !== Boolean(sent.is_draft)) return `is_draft ${String(row.is_draft)}`;
  if (row.created_at) {
    const created = Date.parse(row.created_at);
    if (Number.isFinite(created) && created < since) return `it was created before the attempt (${row.created_at})`;
  }
  if (claimed.has(row.id)) return 'it is already the answer to another create of this run';
  return undefined;
}

function sameInstant(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a == null || b == null) return a == null && b == null;
  return Date.parse(a) === Date.parse(b);
}

function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 59)}…` : text);
}

/** The create's own failure, saying that the post may exist: it is not sent again blind. */
function searchFailed(failure: Error, searchError: unknown): Error {
  const message = `${failure.message}; the answer to the create was lost and looking for the post failed too (${searchError instanceof Error ? searchError.message : String(searchError)}), so it was not sent again: the post may exist, see socialpub posts list before sending it again`;
  if (!(failure instanceof ApiError)) return new Error(message, { cause: failure });
  const init: ApiErrorInit = { cause: failure, ...(failure.status !== undefined ? { status: failure.status } : {}), ...(failure.code !== undefined ? { code: failure.code } : {}), ...(failure.requestId !== undefined ? { requestId: failure.requestId } : {}) };
  const Same = failure.constructor as new (message: string, init: ApiErrorInit) => ApiError;
  return new Same(message, init);
}
