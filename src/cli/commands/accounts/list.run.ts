// `accounts list`, run: the accounts (or, on a service without the route, those seen in recent
// results, said on stderr), each with its health from one page of recent results, read at once.
import type { Context } from '../../context.js';
import { choices, platforms as parsePlatforms } from '../../flags/choice.js';
import { checkTopFields, columnField } from '../../../output/fields.js';
import { ACCOUNT_STATUSES } from '../../../wire/account-status.js';
import { byStatus, healthFromRows, recentWindow, sendsStatusFilter, untoldCount, withHealth, withHealthStatus, type AccountWithHealth } from '../../../accounts/health.js';
import type { PostResult } from '../../../wire/schemas.js';
import { formatRelative } from '../../../output/time.js';
import { accountLabel, isUnhealthy } from '../../../accounts/label.js';
import { fieldsOf } from '../../../output/fields-of.js';
import { accountView, knownFields } from './columns.js';
import type { AccountsListFlags } from './list.js';
import { derivedNotice, lookUp } from './select.js';

export async function runAccountsList(ctx: Context, flags: AccountsListFlags): Promise<number> {
  const platform = parsePlatforms('--platform', flags.platform);
  const status = choices('--status', flags.status, ACCOUNT_STATUSES, { noun: 'account status', listLabel: 'statuses', code: 'UNKNOWN_STATUS' });
  const view = accountView(() => ctx.clock.now());
  checkTopFields(ctx.globals.fields, [...new Set([...view.columns.map(columnField), ...fieldsOf('accounts list')])]);
  const client = await ctx.client();
  const out = ctx.output();
  const filter = platform.length ? { platform } : {};
  // One round trip: the accounts and the window of recent results their health comes from, at once.
  const [catalog, recent] = await Promise.all([lookUp(ctx, client, { ...filter, ...(sendsStatusFilter(client, status) ? { status } : {}) }), recentWindow(client, filter)]);
  if (catalog.derived) out.notice(derivedNotice(catalog));
  const { accounts: listed, note } = byStatus(client, await withHealthStatus(client, catalog.accounts, { window: recent }), status, recent.length, { field: '--status', all: 'socialpub accounts list shows them all' });
  if (note) out.notice(note);
  const rows = withHealth(listed, healthFromRows(listed, recent));
  const shown = await out.list(rows, accountView(() => ctx.clock.now(), knownFields(rows)));
  out.footer(out.colors.dim(`${shown} account${shown === 1 ? '' : 's'} · ${windowText(rows, recent, ctx.clock.now())}`));
  const unhealthy = listed.filter(isUnhealthy);
  if (unhealthy.length) {
    out.info(`${unhealthy.length} ${unhealthy.length === 1 ? 'account needs' : 'accounts need'} reconnecting in the service's settings: ${unhealthy.map((a) => `${accountLabel(a)} (${a.status})`).join(', ')}`);
  }
  return 0;
}

/**
 * How far the health window reached, and, when it was full (older results exist), how many
 * accounts it held no outcome of and where to look further.
 */
function windowText(rows: readonly AccountWithHealth[], recent: readonly PostResult[], now: number): string {
  const oldest = recent.at(-1)?.created_at;
  if (recent.length === 0) return 'no results yet: no last success or failure to show';
  const reach = `last success and failure among the newest ${recent.length === 1 ? 'result' : `${recent.length} results`}${oldest ? ` (back to ${formatRelative(oldest, now) || 'the start'})` : ''}`;
  const untold = untoldCount(rows, recent);
  if (untold === 0) return reach;
  return `${reach} · ${untold} account${untold === 1 ? ' has' : 's have'} none there: socialpub accounts view <account> reads its own results`;
}
