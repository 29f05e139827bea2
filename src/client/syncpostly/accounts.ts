// Accounts on SyncPostly: GET /api/v1/social-accounts, mapped to the domain's account with what
// SyncPostly's lacks (status, default, token expiry) null, so a column of them shows empty. No
// filter is documented: the platform filter is applied here, a status filter is refused.
import { SP_PATHS } from '../../wire/syncpostly/assumptions.js';
import type { SpAccount } from '../../wire/syncpostly/schemas.js';
import type { SocialAccount } from '../../wire/account-schemas.js';
import { InvalidInputError } from '../../wire/invalid-input.js';
import { lacksRoute, NotFoundError } from '../errors.js';
import { ERROR_CODE } from '../../wire/protocol.js';
import type { Paginate } from '../paginate.js';
import type { Requester } from '../request.js';
import type { AccountListQuery, ApiClient } from '../types.js';
import { spAccountList, type AccountCache } from './account-cache.js';
import { lazySingle, unwrap } from './dto.js';

const oneAccount = lazySingle<SpAccount>((s) => s.spAccountSchema);

export function accountFromDto(dto: SpAccount): SocialAccount {
  const { display_name, ...rest } = dto;
  return { ...rest, displayName: display_name ?? null, status: null, isDefault: null, tokenExpiresAt: null };
}

export function createSpAccounts(request: Requester, paginate: Paginate, cache: AccountCache): ApiClient['accounts'] {
  return {
    iterate: (query: AccountListQuery = {}, options) => ({
      async *[Symbol.asyncIterator]() {
        if (query.status?.length) {
          throw new InvalidInputError([{ field: 'status', message: "SyncPostly's accounts have no status, so a status filter cannot apply", fix: 'leave the status filter (--status) out for this profile' }]);
        }
        const platforms = query.platform?.length ? new Set(query.platform) : undefined;
        // A read of every account from the start also serves the translation of posts and results.
        const every = !options?.offset ? ([] as SpAccount[]) : undefined;
        for await (const row of paginate(SP_PATHS.socialAccounts, { offset: query.offset, limit: query.limit }, spAccountList, options)) {
          every?.push(row);
          if (!platforms || platforms.has(row.platform)) yield accountFromDto(row);
        }
        if (every) cache.seed(every);
      },
    }),
    async get(id) {
      try {
        const res = await request({ method: 'GET', path: `${SP_PATHS.socialAccounts}/${encodeURIComponent(id)}`, schema: oneAccount });
        return { ...res, data: accountFromDto(unwrap(res.data)) };
      } catch (err) {
        // The single route is assumed (assumptions.accountsSingle): without it, the list says.
        if (!(err instanceof NotFoundError) && !lacksRoute(err)) throw err;
        const found = (await cache.covering([id])).find((a) => a.id === id);
        if (!found) {
          const e = err as NotFoundError;
          throw new NotFoundError(`no account ${id} in this workspace on SyncPostly`, { status: 404, code: ERROR_CODE.notFound, requestId: e.requestId, cause: err });
        }
        return { status: 200, data: accountFromDto(found), headers: {}, requestId: undefined, replayed: false, idempotencyKey: undefined, rateLimit: undefined };
      }
    },
  };
}
