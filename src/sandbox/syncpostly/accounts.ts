// SyncPostly's social accounts: GET /api/v1/social-accounts (paged; `platform` and `username`
// filters, as Post Bridge's, assumptions.accountFilters) and GET /api/v1/social-accounts/{id}
// (assumptions.accountsSingle). SocialAccountDto is `{ id, platform, username, display_name }`:
// no status, default or token expiry, as documented, though the sandbox keeps them for our dialect.
import { isPlatform, PLATFORMS } from '../../wire/platforms.js';
import type { SocialAccount } from '../accounts.js';
import { multiValues, pageParams } from '../http/query.js';
import { notFound, type Reply } from '../http/reply.js';
import type { Call } from '../routes.js';
import { SpHttpError } from './dialect.js';

function accountDto(call: Call, a: SocialAccount) {
  return { id: call.ws.socialAccounts.idOf(a), platform: a.platform, username: a.username, display_name: a.displayName };
}

export function spListAccounts(call: Call): Reply {
  const platforms = multiValues(call.query, 'platform');
  const usernames = new Set(multiValues(call.query, 'username').map((u) => u.replace(/^@/, '').toLowerCase()));
  const bad = platforms.filter((p) => !isPlatform(p));
  if (bad.length) {
    throw new SpHttpError(400, `unknown platform ${bad.map((p) => JSON.stringify(p)).join(', ')}; use ${PLATFORMS.join(', ')}`, [{ path: ['platform'], message: `must be one of ${PLATFORMS.join(', ')}`, code: 'invalid_value' }]);
  }
  const { offset, limit } = pageParams(call.query);
  const all = call.ws.socialAccounts.list({ platforms, statuses: [] }).filter((a) => usernames.size === 0 || usernames.has(a.username.toLowerCase()));
  return { status: 200, body: { data: all.slice(offset, offset + limit).map((a) => accountDto(call, a)), meta: { offset, limit, total: all.length } } };
}

export function spGetAccount(call: Call): Reply {
  const id = call.params[0]!;
  const a = call.ws.socialAccounts.find(id);
  if (!a) throw notFound('social account', id);
  return { status: 200, body: accountDto(call, a) };
}
