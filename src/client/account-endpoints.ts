// GET /v1/social-accounts (paged) and GET /v1/social-accounts/{id}.
import { PATHS } from '../wire/protocol.js';
import type { SocialAccount } from '../wire/account-schemas.js';
import type * as AccountSchemasModule from '../wire/account-schemas.js';
import type { ListPage, Schema } from '../wire/schemas.js';
import type { Paginate } from './paginate.js';
import type { Requester } from './request.js';
import type { AccountListQuery, ApiClient, LazySchema } from './types.js';

type AccountSchemas = typeof AccountSchemasModule;

function lazy<T>(pick: (schemas: AccountSchemas) => unknown): LazySchema<T> {
  return { load: async () => pick(await import('../wire/account-schemas.js')) as Schema<T> };
}

const oneAccount = lazy<SocialAccount>((s) => s.socialAccountSchema);
const accountList = lazy<ListPage<SocialAccount>>((s) => s.socialAccountListSchema);

export function createAccountEndpoints(request: Requester, paginate: Paginate): ApiClient['accounts'] {
  return {
    iterate: (query: AccountListQuery = {}, options) =>
      paginate(PATHS.socialAccounts, { platform: query.platform, status: query.status, offset: query.offset, limit: query.limit }, accountList, options),
    get: (id: string) => request({ method: 'GET', path: `${PATHS.socialAccounts}/${encodeURIComponent(id)}`, schema: oneAccount }),
  };
}
