// The workspace's SyncPostly accounts, read once per client (every page of GET
// /api/v1/social-accounts): a post's platforms are the platforms of its accounts
// (assumptions.accounts), and a payload without `accounts` takes its platform's only account.
// Read again once when a post names an account the first read did not have.
import { SP_PATHS } from '../../wire/syncpostly/assumptions.js';
import type { SpAccount } from '../../wire/syncpostly/schemas.js';
import type { ListPage } from '../../wire/schemas.js';
import type { Paginate } from '../paginate.js';
import { lazySp } from './dto.js';

export const spAccountList = lazySp<ListPage<SpAccount>>((s) => s.spAccountListSchema);

export interface AccountCache {
  all(): Promise<readonly SpAccount[]>;
  /** Every account, read again once if one of these ids is not among them. */
  covering(ids: Iterable<string>): Promise<readonly SpAccount[]>;
}

export function createAccountCache(paginate: Paginate): AccountCache {
  let loaded: Promise<readonly SpAccount[]> | undefined;
  let reread = false;
  const load = async (): Promise<readonly SpAccount[]> => {
    const rows: SpAccount[] = [];
    for await (const row of paginate(SP_PATHS.socialAccounts, {}, spAccountList)) rows.push(row);
    return rows;
  };
  const all = () => {
    loaded ??= load();
    // A failed read is not kept: the next call reads again.
    loaded.catch(() => (loaded = undefined));
    return loaded;
  };
  return {
    all,
    async covering(ids) {
      const rows = await all();
      const known = new Set(rows.map((a) => a.id));
      if (reread || [...ids].every((id) => known.has(id))) return rows;
      reread = true;
      loaded = undefined;
      return all();
    },
  };
}
