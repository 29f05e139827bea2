// The workspace's SyncPostly accounts, read when first needed (every page of GET
// /api/v1/social-accounts): a post's platforms are the platforms of its accounts
// (assumptions.accounts), and a payload without `accounts` takes its platform's only account.
// Kept for a minute (a long-lived client, the MCP server, sees accounts connected since), and
// read again sooner, at most once a minute, when a post names an account the last read lacked.
import { SP_PATHS } from '../../wire/syncpostly/assumptions.js';
import type { SpAccount } from '../../wire/syncpostly/schemas.js';
import type { ListPage } from '../../wire/schemas.js';
import type { Paginate } from '../paginate.js';
import { lazySp } from './dto.js';

export const spAccountList = lazySp<ListPage<SpAccount>>((s) => s.spAccountListSchema);

/** How long a read of the accounts is trusted. */
export const ACCOUNTS_MAX_AGE_MS = 60_000;

export interface AccountCache {
  all(): Promise<readonly SpAccount[]>;
  /** Every account, read again (at most once a minute) if one of these ids is not among them. */
  covering(ids: Iterable<string>): Promise<readonly SpAccount[]>;
  /** Every account, just read by a caller (accounts list): kept, so it is not read again for the results beside it. */
  seed(rows: readonly SpAccount[]): void;
}

export function createAccountCache(paginate: Paginate, now: () => number): AccountCache {
  let loaded: { at: number; rows: Promise<readonly SpAccount[]> } | undefined;
  let rereadAt: number | undefined;
  const load = async (): Promise<readonly SpAccount[]> => {
    const rows: SpAccount[] = [];
    for await (const row of paginate(SP_PATHS.socialAccounts, {}, spAccountList)) rows.push(row);
    return rows;
  };
  const read = () => {
    const entry = { at: now(), rows: load() };
    loaded = entry;
    // A failed read is not kept: the next call reads again.
    entry.rows.catch(() => {
      if (loaded === entry) loaded = undefined;
    });
    return entry.rows;
  };
  const fresh = (at: number | undefined) => at !== undefined && now() - at < ACCOUNTS_MAX_AGE_MS;
  const all = () => (loaded && fresh(loaded.at) ? loaded.rows : read());
  return {
    all,
    async covering(ids) {
      const before = loaded;
      const rows = await all();
      const known = new Set(rows.map((a) => a.id));
      // All known, or just read for this call, or read again for an unknown id this minute.
      if ([...ids].every((id) => known.has(id)) || loaded !== before || fresh(rereadAt)) return rows;
      rereadAt = now();
      return read();
    },
    seed(rows) {
      loaded = { at: now(), rows: Promise.resolve(rows) };
    },
  };
}
