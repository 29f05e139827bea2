// Shared by the accounts tests: the accounts of a sandbox workspace, read over plain HTTP, and a
// finder by platform.
import type { Sandbox } from '../../src/sandbox/index.js';
import { allRows } from './sandbox-support.js';

export interface Account {
  id: string;
  platform: string;
  username: string;
  status: string;
  isDefault: boolean;
}

export async function accountsOf(sb: Sandbox, workspace = 'demo'): Promise<Account[]> {
  return (await allRows<Account>(sb, sb.key(workspace), '/v1/social-accounts')).rows;
}

/** The first account on `platform` that `pred` accepts. */
export function pick(accounts: readonly Account[], platform: string, pred: (a: Account) => boolean = () => true): Account {
  const found = accounts.find((a) => a.platform === platform && pred(a));
  if (!found) throw new Error(`no ${platform} account matches`);
  return found;
}
