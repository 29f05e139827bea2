// GET /v1/social-accounts, GET /v1/social-accounts/{id}, and the sandbox-only
// POST /sandbox/accounts/{id}/expire|disconnect|reconnect (what a token expiring, or someone
// disconnecting or reconnecting the account in the service's settings, would do).
import { accountStatus, platformId } from '../../wire/contract.js';
import { ACCOUNT_ACTIONS, type AccountAction, type SocialAccount } from '../accounts.js';
import { notFound, type Reply } from '../http/reply.js';
import { enumValues, pageParams } from '../http/query.js';
import type { Call } from '../routes.js';

export function listAccounts(call: Call): Reply {
  const platforms = enumValues(call.query, 'platform', platformId, 'platform');
  const statuses = enumValues(call.query, 'status', accountStatus, 'account status');
  const { offset, limit } = pageParams(call.query);
  const book = call.ws.socialAccounts;
  const all = book.list({ platforms, statuses });
  return { status: 200, body: { data: all.slice(offset, offset + limit).map((a) => book.json(a)), meta: { offset, limit, total: all.length } } };
}

function accountOf(call: Call): SocialAccount {
  const id = call.params[0]!;
  const a = call.ws.socialAccounts.find(id);
  if (!a) throw notFound('social account', id);
  return a;
}

export function getAccount(call: Call): Reply {
  return { status: 200, body: call.ws.socialAccounts.json(accountOf(call)) };
}

export function changeAccount(call: Call): Reply {
  const a = accountOf(call);
  const action = call.params[1] as AccountAction;
  if (!(ACCOUNT_ACTIONS as readonly string[]).includes(action)) throw notFound('account action', action);
  // Inside the request's transaction: committed before the answer, like every write.
  const changed = call.ws.socialAccounts.apply(a, action, call.now);
  return { status: 200, body: call.ws.socialAccounts.json(changed) };
}
