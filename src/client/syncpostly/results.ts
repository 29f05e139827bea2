// Post results on SyncPostly: the same path and rows as ours, less what its rows lack
// (assumptions.resultRows): each row's platform is its account's, the `platform` and `created_at`
// a service may add are not read (the sandbox adds ours to every row; the live service has none),
// and the account filter, which SyncPostly does not document, is applied to the rows here
// (assumptions.resultFilter).
import { SP_PATHS } from '../../wire/syncpostly/assumptions.js';
import type { SpPostResult } from '../../wire/syncpostly/schemas.js';
import type { ListPage, PostResult } from '../../wire/schemas.js';
import type { PaginatePages } from '../paginate.js';
import type { Requester } from '../request.js';
import type { ApiClient, QueryValue, ResultListQuery } from '../types.js';
import type { AccountCache } from './account-cache.js';
import { lazySingle, lazySp, unwrap } from './dto.js';
import { documentedRoute } from './not-found.js';

const resultList = lazySp<ListPage<SpPostResult>>((s) => s.spPostResultListSchema);
const oneResult = lazySingle<SpPostResult>((s) => s.spPostResultSchema);

function resultQuery(q: ResultListQuery = {}): Record<string, QueryValue> {
  return { post_id: q.postId, platform: q.platform, offset: q.offset, limit: q.limit };
}

/** A row in the domain's shape: the platform from the account, nothing read that SyncPostly does not send. */
export function resultFromDto(dto: SpPostResult, platformOf: (accountId: string) => string | undefined): PostResult {
  const { platform: _ignoredPlatform, created_at: _ignoredTime, ...row } = dto as SpPostResult & { platform?: unknown; created_at?: unknown };
  const platform = dto.social_account_id ? platformOf(dto.social_account_id) : undefined;
  return { ...row, ...(platform !== undefined ? { platform } : {}) };
}

export function createSpResults(request: Requester, paginatePages: PaginatePages, accounts: AccountCache): ApiClient['results'] {
  async function translate(rows: readonly SpPostResult[], query: ResultListQuery = {}): Promise<PostResult[]> {
    const ids = rows.flatMap((r) => (r.social_account_id ? [r.social_account_id] : []));
    const platformOf = new Map((await accounts.covering(ids)).map((a) => [a.id, a.platform]));
    const only = query.socialAccountId?.length ? new Set(query.socialAccountId) : undefined;
    return rows.filter((r) => !only || (r.social_account_id != null && only.has(r.social_account_id))).map((r) => resultFromDto(r, (id) => platformOf.get(id)));
  }
  // Pages and the rows streamed from them keep every account's rows, as a service that ignores
  // social_account_id sends them: whoever pages filters them (the commands do, contract 7.2) and
  // so counts the rows it read, which is where the next --offset starts. Filtered here, 5 rows
  // kept of 15 read looked like 5 read, and "--offset 5 for the next rows" showed them again.
  const pages = (query: ResultListQuery | undefined, options: Parameters<ApiClient['results']['pages']>[1]) => ({
    async *[Symbol.asyncIterator]() {
      for await (const page of paginatePages(SP_PATHS.postResults, resultQuery(query), resultList, options)) yield await translate(page);
    },
  });
  return {
    async list(query) {
      const res = await request({ method: 'GET', path: SP_PATHS.postResults, query: resultQuery(query), schema: resultList });
      return { ...res, data: { ...res.data, data: await translate(res.data.data, query) } };
    },
    iterate: (query, options) => ({
      async *[Symbol.asyncIterator]() {
        for await (const page of pages(query, options)) yield* page;
      },
    }),
    pages,
    async get(id) {
      const res = await documentedRoute(request({ method: 'GET', path: `${SP_PATHS.postResults}/${encodeURIComponent(id)}`, schema: oneResult }));
      return { ...res, data: (await translate([unwrap(res.data)]))[0]! };
    },
  };
}
