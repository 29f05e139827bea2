// The connected social accounts of one workspace: seeded at the workspace's first start (one
// default per platform, a second LinkedIn page, a second Instagram, an expired X account; handles
// that repeat across platforms), their state (connected, expired, disconnected) in the database,
// changed inside the request's transaction like every write, and which account each result row
// was published to (stored with the row; fixture rows derive theirs from the seed).
import { PLATFORMS, type Platform } from '../wire/platforms.js';
import type { IdCodec } from './ids.js';
import { IntList } from './store/int-list.js';
import type { FixtureSet } from './store/fixture-set.js';
import { FLAG_NO_ACCOUNT } from './store/row-table.js';
import { hash, type Entropy } from './random.js';
import { usernameFor } from './platform-data.js';
import { isoTime } from './timestamps.js';
import type { Issue } from './validation.js';
import { ACCOUNT_STATUSES, insertAccount, readAccount, readAccounts, updateAccountState, type AccountRow, type AccountStatus } from './db/accounts.js';
import type { AccountFailure } from './db/results.js';
import type { Store } from './db/store.js';

export { ACCOUNT_STATUSES, type AccountStatus } from './db/accounts.js';
export type { AccountFailure } from './db/results.js';
export const isAccountStatus = (v: string): v is AccountStatus => (ACCOUNT_STATUSES as readonly string[]).includes(v);

/** What the sandbox-only route can do to an account. */
export const ACCOUNT_ACTIONS = ['expire', 'disconnect', 'reconnect'] as const;
export type AccountAction = (typeof ACCOUNT_ACTIONS)[number];

export type SocialAccount = AccountRow;

export interface AccountJson {
  id: string;
  platform: Platform;
  username: string;
  displayName: string | null;
  status: AccountStatus;
  isDefault: boolean;
  tokenExpiresAt: string | null;
  connectedAt: string;
}

export interface AccountSeed {
  /** Accounts in this workspace at least (the seeded ones plus extra, spread over the platforms). */
  count?: number | undefined;
  /** Epoch ms the seeded connection and expiry times are measured from. */
  anchorMs: number;
}

const DAY = 24 * 3_600_000;
/** Platforms whose tokens expire (the others refresh on their own: no expiry shown). */
const EXPIRING: ReadonlySet<Platform> = new Set(['instagram', 'facebook-page', 'threads', 'linkedin', 'tiktok']);
/** Salt of the stream that spreads fixture rows over a platform's accounts. */
const FIXTURE_ACCOUNT_STREAM = 0x61636331;

const title = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The accounts a workspace starts with (written once, in the start's transaction, by sandbox.ts). */
export function seedAccounts(store: Store, tag: number, workspace: string, seed: AccountSeed): void {
  const w = workspace.toLowerCase().replace(/[^a-z0-9]/g, '');
  const at = seed.anchorMs;
  let index = 0;
  const add = (platform: Platform, username: string, displayName: string, isDefault: boolean, connectedAt: number, expired?: number) =>
    insertAccount(store, tag, {
      index: index++,
      platform,
      username,
      displayName,
      status: expired === undefined ? 'connected' : 'expired',
      isDefault,
      connectedAt,
      tokenExpiresAt: expired ?? (EXPIRING.has(platform) ? connectedAt + 60 * DAY : null),
      fixturesUntil: expired ?? Infinity,
    });
  // One default per platform, in platform order (account i of platform i keeps its id).
  PLATFORMS.forEach((p, i) => add(p, usernameFor(workspace, p), `Socialpub ${title(w)}`, true, at - (40 + i) * DAY));
  add('linkedin', `socialpub-${w}-careers`, `Socialpub ${title(w)} Careers`, false, at - 20 * DAY);
  add('instagram', `jo.${w}`, `Jo from Socialpub ${title(w)}`, false, at - 12 * DAY);
  add('twitter-x', `socialpub_${w}_help`, `Socialpub ${title(w)} Help`, false, at - 95 * DAY, at - 3 * DAY);
  for (let k = index; k < (seed.count ?? 0); k = index) {
    const p = PLATFORMS[k % PLATFORMS.length]!;
    add(p, `${usernameFor(workspace, p)}${Math.floor(k / PLATFORMS.length)}`, `Socialpub ${title(w)} ${k}`, false, at - (k % 30) * DAY);
  }
}

export function hasAccounts(store: Store, tag: number): boolean {
  return readAccount(store, tag, 0) !== undefined;
}

export class AccountBook {
  /**
   * Per platform: the positions of its accounts and its default. Accounts are only ever
   * seeded (before the book is made), and platform, handle, default and fixturesUntil never
   * change: what can change (status, token, connection time) is always read from the database.
   */
  private readonly byPlatform: number[][] = PLATFORMS.map(() => []);
  private readonly defaults: number[];
  private readonly fixturesUntil: number[] = [];
  private readonly usernames: string[] = [];
  /** Fixture row positions per account, ascending; built on the first account-filtered read. */
  private fixtureIndex: Int32Array[] | undefined;

  constructor(
    private readonly store: Store,
    private readonly ids: IdCodec,
    private readonly entropy: Entropy,
    private readonly tag: number,
  ) {
    const all = readAccounts(store, tag);
    for (const a of all) {
      this.byPlatform[PLATFORMS.indexOf(a.platform)]!.push(a.index);
      this.fixturesUntil[a.index] = a.fixturesUntil;
      this.usernames[a.index] = a.username;
    }
    this.defaults = this.byPlatform.map((list) => all.find((a) => list.includes(a.index) && a.isDefault)?.index ?? list[0] ?? 0);
  }

  idOf(a: SocialAccount | number): string {
    return this.ids.encode('account', this.tag, typeof a === 'number' ? a : a.index);
  }

  /** An account's handle (it never changes: no query, for every result row of a page). */
  usernameOf(index: number): string | undefined {
    return this.usernames[index];
  }

  at(index: number): SocialAccount | undefined {
    return readAccount(this.store, this.tag, index);
  }

  find(id: string): SocialAccount | undefined {
    const i = this.ids.decode('account', this.tag, id);
    return i === undefined ? undefined : this.at(i);
  }

  json(a: SocialAccount): AccountJson {
    return {
      id: this.idOf(a),
      platform: a.platform,
      username: a.username,
      displayName: a.displayName,
      status: a.status,
      isDefault: a.isDefault,
      tokenExpiresAt: a.tokenExpiresAt === null ? null : isoTime(a.tokenExpiresAt),
      connectedAt: isoTime(a.connectedAt),
    };
  }

  list(filter: { platforms: readonly string[]; statuses: readonly string[] }): SocialAccount[] {
    return readAccounts(this.store, this.tag).filter((a) => (filter.platforms.length === 0 || filter.platforms.includes(a.platform)) && (filter.statuses.length === 0 || filter.statuses.includes(a.status)));
  }

  /** The position of the platform's default account. */
  defaultIndex(platform: Platform): number {
    return this.defaults[PLATFORMS.indexOf(platform)]!;
  }

  defaultOf(platform: Platform): SocialAccount {
    return this.at(this.defaultIndex(platform))!;
  }

  /** Inside the request's transaction: the sandbox-only state changes; the new state is what a reconnect in the service's settings gives. */
  apply(a: SocialAccount, action: AccountAction, now: number): SocialAccount {
    const next: SocialAccount =
      action === 'expire'
        ? { ...a, status: 'expired', tokenExpiresAt: now }
        : action === 'disconnect'
          ? { ...a, status: 'disconnected' }
          : { ...a, status: 'connected', connectedAt: now, tokenExpiresAt: EXPIRING.has(a.platform) ? now + 60 * DAY : null };
    updateAccountState(this.store, this.tag, next);
    return next;
  }

  // ----- payloads -----

  /**
   * Checks each payload's `accounts` (ids of this workspace and of that platform, no repeats) and
   * fills in the platform's default where none is named, so the post echoes where it will go.
   */
  assign(payloads: Record<string, Record<string, unknown>>): Issue[] {
    const issues: Issue[] = [];
    for (const [key, payload] of Object.entries(payloads)) {
      const platform = key as Platform;
      const path = `payloads.${key}.accounts`;
      const named = payload.accounts;
      if (named === undefined || named === null) {
        payload.accounts = [this.idOf(this.defaultIndex(platform))];
        continue;
      }
      if (!Array.isArray(named) || named.length === 0) {
        issues.push({ path, message: `must be a non-empty array of account ids of ${platform} (GET /v1/social-accounts?platform=${platform} lists them); leave it out for the default account` });
        continue;
      }
      const seen = new Set<string>();
      named.forEach((id: unknown, i) => {
        const at = `${path}.${i}`;
        const a = typeof id === 'string' ? this.find(id) : undefined;
        if (typeof id !== 'string') issues.push({ path: at, message: 'must be an account id string' });
        else if (!a) issues.push({ path: at, message: `no account ${JSON.stringify(id)} in this workspace (GET /v1/social-accounts lists them)` });
        else if (a.platform !== platform) issues.push({ path: at, message: `${JSON.stringify(id)} is a ${a.platform} account (${a.username}), not a ${platform} one` });
        else if (seen.has(id)) issues.push({ path: at, message: `${JSON.stringify(id)} is named twice` });
        seen.add(String(id));
      });
    }
    return issues;
  }

  /** The accounts a payload publishes to (checked by assign when it was accepted). */
  targetsOf(platform: Platform, payload: Record<string, unknown> | undefined): { account: SocialAccount; named: boolean }[] {
    const named = Array.isArray(payload?.accounts) ? (payload.accounts as unknown[]).map((id) => (typeof id === 'string' ? this.find(id) : undefined)).filter((a): a is SocialAccount => a?.platform === platform) : [];
    // `named`: chosen by the caller rather than the default alone (such a row always names its account).
    if (named.length === 0) return [{ account: this.defaultOf(platform), named: false }];
    return named.map((account) => ({ account, named: named.length > 1 || !account.isDefault }));
  }

  /** Why publishing with this account fails now, before anything else is tried. */
  failureNow(a: SocialAccount): AccountFailure | undefined {
    return a.status === 'expired' ? 'TOKEN_EXPIRED' : a.status === 'disconnected' ? 'ACCOUNT_DISCONNECTED' : undefined;
  }

  // ----- fixture rows -----

  /** The account a fixture row was published to: spread over the platform's accounts by the entropy (a row without an account: the default). */
  fixtureAccount(fixtures: FixtureSet, row: number): number {
    const t = fixtures.rows;
    const platform = t.platform[row]!;
    if (t.flags[row]! & FLAG_NO_ACCOUNT) return this.defaults[platform]!;
    const list = this.byPlatform[platform]!;
    if (list.length === 0) return this.defaults[platform]!;
    const picked = list[hash(this.entropy, FIXTURE_ACCOUNT_STREAM, this.tag, row) % list.length]!;
    return t.time[row]! < this.fixturesUntil[picked]! ? picked : this.defaults[platform]!;
  }

  /** Per account (of those given), its fixture rows tied to it, ascending: the lists a filtered page merges. */
  fixtureRowsOf(fixtures: FixtureSet, accounts: readonly number[]): Int32Array[] {
    if (!this.fixtureIndex) {
      const lists = this.fixturesUntil.map(() => new IntList(64));
      const t = fixtures.rows;
      for (let r = 0; r < t.length; r++) if (!(t.flags[r]! & FLAG_NO_ACCOUNT)) lists[this.fixtureAccount(fixtures, r)]?.push(r);
      this.fixtureIndex = lists.map((l) => l.view());
    }
    return accounts.map((a) => this.fixtureIndex![a] ?? new Int32Array(0));
  }

  /** The account positions of the ids given that are on one of `platforms` (all platforms when empty); ids of no account here select nothing. */
  selection(ids: readonly string[], platforms: ReadonlySet<Platform>): number[] {
    const out = new Set<number>();
    for (const id of ids) {
      const i = this.ids.decode('account', this.tag, id);
      if (i === undefined || this.fixturesUntil[i] === undefined) continue;
      if (platforms.size === 0 || platforms.has(PLATFORMS[this.byPlatform.findIndex((list) => list.includes(i))]!)) out.add(i);
    }
    return [...out].sort((a, b) => a - b);
  }
}
