// `posts check --account`: each named account's state as one more check row of its platform's
// target, beside the platform's rules. Expired or disconnected fails with the fix the write's
// warning gives (RECONNECT), since the service takes the post and that target then fails.
import type { RuleCheck } from '../wire/post-rules.js';
import type { SocialAccount } from '../wire/account-schemas.js';
import type { Dialect } from '../wire/dialects.js';
import { accountLabel, isUnhealthy, RECONNECT } from './label.js';

export const ACCOUNT_STATUS_RULE = 'account.status';

/** Where the state came from, per dialect: said as each row's source. */
const SOURCE: Record<Dialect, string> = {
  socialpub: "the account's status (GET /v1/social-accounts)",
  syncpostly: "the account's newest result (SyncPostly's accounts have no status: TOKEN_EXPIRED is expired, ACCOUNT_DISCONNECTED disconnected)",
};

/**
 * One check per account (with its state already judged: withHealthStatus), grouped by platform.
 * `derived`: the service has no accounts route, so no account has a known state.
 */
export function accountStatusChecks(accounts: readonly SocialAccount[], dialect: Dialect, derived = false): Map<string, RuleCheck[]> {
  const byPlatform = new Map<string, RuleCheck[]>();
  for (const a of accounts) {
    const check = statusCheck(a, dialect, derived);
    byPlatform.set(a.platform, [...(byPlatform.get(a.platform) ?? []), check]);
  }
  return byPlatform;
}

function statusCheck(a: SocialAccount, dialect: Dialect, derived: boolean): RuleCheck {
  const base = { rule: ACCOUNT_STATUS_RULE, item: accountLabel(a), actual: a.status ?? 'unknown', limit: 'connected', source: SOURCE[dialect] };
  // The row names the account and its state: the message and fix need not say them again.
  if (isUnhealthy(a)) return { ...base, verdict: 'fail', message: `${a.status}: publishing to it fails until it is reconnected`, fix: `${RECONNECT}, then check again` };
  if (a.status === 'connected') return { ...base, verdict: 'pass' };
  const why = derived
    ? 'this service has no accounts route, so its state is not known'
    : dialect === 'syncpostly'
      ? 'none of the newest results is this account\'s, so its state is not known'
      : `the service gives its status as ${a.status ?? 'nothing'}`;
  return { ...base, verdict: 'unknown', message: why };
}
