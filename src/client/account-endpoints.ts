// GET /v1/social-accounts (paged) and GET /v1/social-accounts/{id}.
import { PATHS } from '../wire/protocol.js';
import { CHECKS } from '../wire/response-checks.js';
import type { SocialAccount } from '../wire/account-schemas.js';
import type { ListPage } from '../wire/schemas.js';
import type { Paginate } from './paginate.js';
import type { Requester } from './request.js';
import type { AccountListQuery, ApiClient } from './types.js';
import { schemasFrom } from './validate.js';

const lazy = schemasFrom(() => import('../wire/account-schemas.js'));

const oneAccount = lazy<SocialAccount>((s) => s.socialAccountSchema, CHECKS.socialAccountSchema);
const accountList = lazy<ListPage<SocialAccount>>((s) => s.socialAccountListSchema, CHECKS.socialAccountListSchema);

export function createAccountEndpoints(request: Requester, paginate: Paginate): ApiClient['accounts'] {
  return {
    iterate: (query: AccountListQuery = {}, options) =>
      paginate(PATHS.socialAccounts, { platform: query.platform, status: query.status, offset: query.offset, limit: query.limit }, accountList, options),
    get: (id: string) => request({ method: 'GET', path: `${PATHS.socialAccounts}/${encodeURIComponent(id)}`, schema: oneAccount }),
  };
}
