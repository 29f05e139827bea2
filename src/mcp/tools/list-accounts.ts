// list_accounts: the workspace's connected accounts with their health, read-only. Health comes
// from one window of recent results (never a scan of them all), as `accounts list` does.
import { loadAccounts } from '../../accounts/catalog.js';
import { byStatus, healthFromRows, recentWindow, sendsStatusFilter, untoldCount, withHealth, withHealthStatus } from '../../accounts/health.js';
import { accountLabel, isUnhealthy } from '../../accounts/label.js';
import { ACCOUNT_STATUSES } from '../../wire/account-status.js';
import type { ToolDefinition } from '../types.js';
import { platforms, strs } from './fields.js';

export const listAccounts: ToolDefinition = {
  name: 'list_accounts',
  description:
    "The social accounts (filters: platforms, statuses): status, default, token expiry, last success and failure. An expired or disconnected one fails every publish until the user reconnects it in the service.",
  inputSchema: {
    type: 'object',
    properties: {
      platforms,
      statuses: { type: 'array', items: { type: 'string', enum: [...ACCOUNT_STATUSES] }, minItems: 1, uniqueItems: true },
    },
    additionalProperties: false,
  },
  annotations: { title: 'List accounts', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  write: false,
  async run(args, tc) {
    const client = await tc.deps.client();
    const platform = strs(args.platforms);
    const status = strs(args.statuses);
    const [catalog, recent] = await Promise.all([loadAccounts(client, { ...(platform ? { platform } : {}), ...(status && sendsStatusFilter(client, status) ? { status } : {}) }), recentWindow(client, platform ? { platform } : {})]);
    // SyncPostly's accounts carry no status: their newest results in the same window tell it, and the filter applies to that.
    const { accounts: listed, note: inferred } = byStatus(client, await withHealthStatus(client, catalog.accounts, { window: recent }), status ?? [], recent.length, { field: 'statuses', all: 'list_accounts without statuses lists them all' });
    const accounts = withHealth(listed, healthFromRows(listed, recent));
    const unhealthy = listed.filter(isUnhealthy);
    const untold = untoldCount(accounts, recent);
    const notes = [
      ...(inferred ? [inferred] : []),
      ...(catalog.derived ? [`this service has no accounts route: these accounts were derived from the newest ${catalog.scanned ?? 0} results; status, default and token expiry are unknown`] : []),
      ...(untold ? [`${untold} of the accounts had no result among the newest ${recent.length} results, so their last success and failure are not known here`] : []),
      ...(unhealthy.length ? [`needs reconnecting in the service's settings before publishing to it: ${unhealthy.map((a) => `${accountLabel(a)} (${a.status})`).join(', ')}`] : []),
    ];
    // How far back health looked: an account without a last outcome was quiet in that window.
    return { accounts, derived: catalog.derived, health_window: { results: recent.length, since: recent.at(-1)?.created_at ?? null }, ...(notes.length ? { note: notes.join('. ') } : {}) };
  },
};
