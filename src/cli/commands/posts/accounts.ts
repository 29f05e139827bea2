// `--account` on posts create, schedule and check: the accounts resolved (one lookup, before
// anything is written), the platforms taken from them when none is given, and each draft
// platform's payload given the `accounts` chosen for it. On a terminal, the confirmation says which account each
// platform publishes to, and which one is the default where there are several.
import type { Context } from '../../context.js';
import { UsageError } from '../../cli-error.js';
import type { Composed } from './compose.js';
import type { ComposeFlags } from './compose.js';
import { accountFlag } from '../accounts/select.js';
import { loadAccounts } from '../../../accounts/catalog.js';
import { withHealthStatus } from '../../../accounts/health.js';
import type { ApiClient } from '../../../client/types.js';
import { handleOf, isUnhealthy, reconnectHint } from '../../../accounts/label.js';
import type { SocialAccount } from '../../../wire/account-schemas.js';
import { visibleLine } from '../../../output/terminal-safe.js';

/**
 * The accounts --account names, resolved, an expired or disconnected one warned about; with
 * neither --platform, --text-for nor --file their platforms become the post's. Undefined without
 * --account.
 */
export async function chooseAccounts<F extends ComposeFlags>(ctx: Context, opts: F, draftId?: string): Promise<{ accounts: SocialAccount[]; opts: F } | undefined> {
  if (!opts.account?.length) return undefined;
  if (draftId !== undefined) {
    throw new UsageError(`a draft id (${draftId}) cannot be combined with --account`, [`choose the accounts of the draft with: socialpub posts edit ${draftId} --account …`, 'then schedule it as it is']);
  }
  const chosen = (await accountsAndPlatforms(ctx, opts))!;
  await warnUnhealthy(ctx, chosen.client, chosen.accounts);
  return chosen;
}

/** What create, schedule and check take --account from: the accounts, and the post's platforms. */
export interface AccountFlags {
  account?: string[];
  platform?: string[];
  textFor?: string[];
  file?: string;
}

/**
 * The accounts --account names (one lookup; the client is built for it), and the flags with their
 * platforms as the post's when neither --platform, --text-for nor --file names them. Undefined
 * without --account.
 */
export async function accountsAndPlatforms<F extends AccountFlags>(ctx: Context, opts: F): Promise<{ accounts: SocialAccount[]; opts: F; client: ApiClient; derived: boolean } | undefined> {
  if (!opts.account?.length) return undefined;
  const client = await ctx.client();
  const { accounts, catalog } = (await accountFlag(ctx, client, opts.account))!;
  const named = opts.platform?.length || opts.textFor?.length || opts.file !== undefined;
  const platforms = [...new Set(accounts.map((a) => a.platform))];
  return { accounts, opts: named ? opts : { ...opts, platform: platforms }, client, derived: catalog.derived };
}


/**
 * An expired or disconnected account named with --account: the post is made, but its target there
 * fails (TOKEN_EXPIRED, ACCOUNT_DISCONNECTED) until the account is reconnected; said now, not found
 * in the results later. Judged by the shared health logic, in either dialect (withHealthStatus).
 */
export async function warnUnhealthy(ctx: Context, client: ApiClient, accounts: readonly SocialAccount[], linesOf?: ReadonlyMap<string, readonly number[]>): Promise<void> {
  for (const a of (await withHealthStatus(client, accounts, { bestEffort: true })).filter(isUnhealthy)) {
    const lines = linesOf?.get(a.id);
    ctx.output().warn(visibleLine(reconnectHint(a, lines?.length ? `${lines.length === 1 ? 'line' : 'lines'} ${lines.join(', ')}` : undefined)));
  }
}

/**
 * Lines for the confirmation: the accounts each platform goes to; where a platform has several
 * and none was chosen, which is the default. Nothing on a service without the accounts route.
 * Handles come from the service and the lines go straight to the terminal: their control
 * characters are shown, not obeyed, and each stays on its line.
 */
export async function accountLines(ctx: Context, c: Composed, known: { accounts?: SocialAccount[] }): Promise<string[]> {
  const platforms = c.draft?.platforms ?? [];
  if (!platforms.length) return [];
  // Read once per confirmation loop: an Edit shows the summary again without asking again.
  if (!known.accounts) {
    try {
      known.accounts = (await loadAccounts(await ctx.client(), { derive: false })).accounts;
    } catch {
      // The confirmation goes on without it: the post itself is what is being confirmed.
      known.accounts = [];
    }
  }
  const all = known.accounts;
  const byId = new Map(all.map((a) => [a.id, a]));
  const lines: string[] = [];
  for (const p of platforms) {
    const mine = all.filter((a) => a.platform === p.platform);
    const ids = Array.isArray(p.extra.accounts) ? (p.extra.accounts as unknown[]).filter((x): x is string => typeof x === 'string') : [];
    if (ids.length) lines.push(visibleLine(`${p.platform} → ${ids.map((id) => (byId.get(id) ? handleOf(byId.get(id)!) : id)).join(', ')}`));
    else if (mine.length > 1) {
      const def = mine.find((a) => a.isDefault);
      lines.push(visibleLine(`${p.platform} → ${def ? `${handleOf(def)} (the default of ${mine.length} accounts; --account chooses another)` : `${mine.length} accounts, none marked default (--account chooses)`}`));
    }
  }
  return lines;
}
