// `accounts view`, run: the account named (with the candidates, exit 4 when no account has it, 2
// when ambiguous), its health and its most recent results, from one page of results.
import type { Context } from '../../context.js';
import { optionalWholeNumber } from '../../flags/number.js';
import { PAGE } from '../../../wire/protocol.js';
import { formatLocal, formatRelative } from '../../../output/time.js';
import type { Colors } from '../../../output/colors.js';
import { healthFromRows, recentWindow, withHealthStatus, type AccountWithHealth } from '../../../accounts/health.js';
import { accountLabel, isUnhealthy, reconnectHint } from '../../../accounts/label.js';
import { resolveAccount } from '../../../accounts/resolve.js';
import type { PostResult } from '../../../wire/schemas.js';
import { resultLinkOrError } from '../../../output/result-columns.js';
import { visibleLine as one } from '../../../output/terminal-safe.js';
import { statusText } from './columns.js';
import { derivedNotice, lookUp } from './select.js';
import type { AccountsViewFlags } from './view.js';

type Shown = AccountWithHealth & { results: PostResult[] };

export async function runAccountsView(ctx: Context, ref: string, flags: AccountsViewFlags): Promise<number> {
  const limit = optionalWholeNumber('--limit', flags.limit, { min: 1, max: PAGE.maxLimit }) ?? 10;
  const client = await ctx.client();
  const out = ctx.output();
  const catalog = await lookUp(ctx, client);
  const named = resolveAccount(ref, catalog.accounts, { field: '<account>', derived: catalog.derived });
  if (catalog.derived) out.notice(derivedNotice(catalog));
  const mine = (r: PostResult) => r.social_account_id === named.id;
  // SyncPostly filters no results by account (assumptions.resultFilter): one page would hold the
  // newest of every account, so its rows are looked for in its platform's health window, as
  // accounts list does. Elsewhere the client filters too: a service may ignore social_account_id.
  const results =
    client.dialect === 'syncpostly'
      ? (await recentWindow(client, { platform: [named.platform] })).filter(mine).slice(0, limit)
      : (await client.results.list({ socialAccountId: [named.id], limit })).data.data.filter(mine);
  // SyncPostly's accounts carry no status: the newest of these results tells it (no request more).
  const account = (await withHealthStatus(client, [named], { window: results }))[0] ?? named;
  const shown: Shown = { ...account, health: healthFromRows([account], results).get(account.id)!, results };
  const now = ctx.clock.now();
  await out.object(shown, (s) => render(s, out.colors, now));
  if (!out.structured && isUnhealthy(account)) out.warn(reconnectHint(account));
  return 0;
}

function render(a: Shown, c: Colors, now: number): string {
  const when = (iso: string | null | undefined) => (iso ? `${formatRelative(iso, now)} (${formatLocal(iso, 'UTC')})` : c.dim('—'));
  // Each value from the service on the line of its label: a line break in a handle or an error
  // code is shown as \n, not obeyed (the layout below is one value a line).
  const lines = [
    `${c.bold(one(accountLabel(a)))}${a.displayName ? `  ${one(a.displayName)}` : ''}`,
    `id             ${one(a.id)}`,
    `status         ${statusText(a.status, c)}${a.isDefault ? ` · ${c.green('default')} for ${a.platform}` : ''}`,
    `token expires  ${when(a.tokenExpiresAt)}`,
    `connected      ${when(a.connectedAt)}`,
    `last success   ${a.health.lastSuccess ? `${a.health.lastSuccess.at ? when(a.health.lastSuccess.at) : c.green('✓')} ${c.dim(one(a.health.lastSuccess.resultId))}` : c.dim('— (none in the recent results below)')}`,
    `last failure   ${a.health.lastFailure ? `${c.red(one(a.health.lastFailure.code ?? 'failed'))} ${when(a.health.lastFailure.at)} ${c.dim(one(a.health.lastFailure.resultId))}` : c.dim('— (none in the recent results below)')}`,
    '',
    a.results.length ? `recent results (${a.results.length}):` : c.dim('no recent results'),
    ...a.results.map((r) => `  ${r.success ? c.green('✓') : c.red('✗')} ${one(r.id)}  ${r.created_at ? formatRelative(r.created_at, now) : ''}  ${one(resultLinkOrError(r))}`),
  ];
  // out.object hands the value with the service's control characters already shown: the colours
  // added here are ours and must reach the terminal as they are.
  return lines.join('\n');
}
