// How an account is named to people and on the command line: `platform:@handle`, the form
// `--account` takes back, and what an unhealthy account's failures are told with.
import type { SocialAccount } from '../wire/account-schemas.js';
import { UNHEALTHY_STATUSES } from '../wire/account-status.js';

/** The handle with one leading @ (YouTube handles already carry one). */
export function handleOf(a: Pick<SocialAccount, 'username' | 'id'>): string {
  const u = a.username?.trim();
  return u ? (u.startsWith('@') ? u : `@${u}`) : a.id;
}

/** `linkedin:@socialpub-demo`: unique in a workspace, and accepted by --account. */
export function accountLabel(a: Pick<SocialAccount, 'username' | 'id' | 'platform'>): string {
  return a.username?.trim() ? `${a.platform}:${handleOf(a)}` : a.id;
}

export function isUnhealthy(a: Pick<SocialAccount, 'status'> | undefined): boolean {
  return a !== undefined && UNHEALTHY_STATUSES.includes(a.status ?? '');
}

/** "account expired" / "account disconnected", said next to a failure of such an account. */
export function unhealthyNote(a: Pick<SocialAccount, 'status'> | undefined): string | undefined {
  return isUnhealthy(a) ? `account ${a!.status}` : undefined;
}

/**
 * An expired or disconnected account in one sentence: what is wrong, and what to do (where to
 * reconnect it, then retry). `where` says where the account was named ("lines 2, 4").
 */
export function reconnectHint(a: Pick<SocialAccount, 'username' | 'id' | 'platform' | 'status'>, where?: string): string {
  return `${accountLabel(a)}${where ? ` (${where})` : ''} is ${a.status}, so publishing to it fails: ${RECONNECT}, then retry`;
}

/** Where an expired or disconnected account is mended. */
export const RECONNECT = "reconnect it in the service's settings (Settings → Connected accounts)";
