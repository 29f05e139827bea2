// The connected social accounts of one workspace: seeded (one default per platform, a second
// LinkedIn page, a second Instagram, an expired X account; handles that repeat across platforms),
// their state (connected, expired, disconnected), and which account each result row was published
// with. The publisher, the handlers and the result rows go through this interface only, so the
// store behind it can change. State lives in memory: with `--data`, what must be kept is each
// account's status, tokenExpiresAt and connectedAt, and the account of each live row.
import { PLATFORMS, type Platform } from '../wire/platforms.js';
import type { IdCodec } from './ids.js';
import { IntList } from './store/int-list.js';
import { mergedPageDescending, type MergedPage } from './store/merge-page.js';
import { FLAG_NO_ACCOUNT, type RowTable } from './store/row-table.js';
import { hash, type Entropy } from './random.js';
import { usernameFor } from './platform-data.js';
import { isoTime } from './timestamps.js';
import type { Issue } from './validation.js';

export const ACCOUNT_STATUSES = ['connected', 'expired', 'disconnected'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];
export const isAccountStatus = (v: string): v is AccountStatus => (ACCOUNT_STATUSES as readonly string[]).includes(v);

/** What the sandbox-only route can do to an account. */
export const ACCOUNT_ACTIONS = ['expire', 'disconnect', 'reconnect'] as const;
export type AccountAction = (typeof ACCOUNT_ACTIONS)[number];

export interface SocialAccount {
  index: number;
  platform: Platform;
  username: string;
  displayName: string | null;
  status: AccountStatus;
  isDefault: boolean;
  tokenExpiresAt: number | null;
  connectedAt: number;
  /** Fixture rows (the past) go to it only before this time: a seeded expired account stopped publishing when it expired. */
  fixturesUntil: number;
}

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

/** Why a row's publish failed because of its account (before any other failure). */
export type AccountFailure = 'TOKEN_EXPIRED' | 'ACCOUNT_DISCONNECTED';

export interface AccountBookInit {
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

export class AccountBook {
  readonly accounts: SocialAccount[] = [];
  private readonly byPlatform: SocialAccount[][] = PLATFORMS.map(() => []);
  /** The account (index) of each row published live, and why it failed when the account did. */
  private readonly liveRows = new Map<number, { account: number; failure?: AccountFailure }>();
  /** Row positions per account, ascending; built on the first account-filtered read, then kept up to date. */
  private rowIndex: IntList[] | undefined;
  private indexedUpTo = 0;
  /** Rows before this are fixtures (spread over the accounts); later ones were published live. */
  fixtureRows = 0;

  constructor(
    private readonly ids: IdCodec,
    private readonly entropy: Entropy,
    private readonly tag: number,
    workspace: string,
    init: AccountBookInit,
  ) {
    const w = workspace.toLowerCase().replace(/[^a-z0-9]/g, '');
    const at = init.anchorMs;
    // One default per platform, in platform order (account i of platform i keeps its id).
    PLATFORMS.forEach((p, i) => this.add(p, usernameFor(workspace, p), `Socialpub ${title(w)}`, 'connected', true, at - (40 + i) * DAY));
    this.add('linkedin', `socialpub-${w}-careers`, `Socialpub ${title(w)} Careers`, 'connected', false, at - 20 * DAY);
    this.add('instagram', `jo.${w}`, `Jo from Socialpub ${title(w)}`, 'connected', false, at - 12 * DAY);
    const expired = this.add('twitter-x', `socialpub_${w}_help`, `Socialpub ${title(w)} Help`, 'expired', false, at - 95 * DAY);
    expired.tokenExpiresAt = at - 3 * DAY;
    expired.fixturesUntil = expired.tokenExpiresAt;
    for (let k = this.accounts.length; k < (init.count ?? 0); k++) {
      const p = PLATFORMS[k % PLATFORMS.length]!;
      this.add(p, `${usernameFor(workspace, p)}${Math.floor(k / PLATFORMS.length)}`, `Socialpub ${title(w)} ${k}`, 'connected', false, at - (k % 30) * DAY);
    }
  }

  private add(platform: Platform, username: string, displayName: string | null, status: AccountStatus, isDefault: boolean, connectedAt: number): SocialAccount {
    const a: SocialAccount = {
      index: this.accounts.length,
      platform,
      username,
      displayName,
      status,
      isDefault,
      connectedAt,
      tokenExpiresAt: EXPIRING.has(platform) ? connectedAt + 60 * DAY : null,
      fixturesUntil: Infinity,
    };
    this.accounts.push(a);
    this.byPlatform[PLATFORMS.indexOf(platform)]!.push(a);
    return a;
  }

  idOf(a: SocialAccount): string {
    return this.ids.encode('account', this.tag, a.index);
  }

  find(id: string): SocialAccount | undefined {
    const i = this.ids.decode('account', this.tag, id);
    return i === undefined ? undefined : this.accounts[i];
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
    return this.accounts.filter((a) => (filter.platforms.length === 0 || filter.platforms.includes(a.platform)) && (filter.statuses.length === 0 || filter.statuses.includes(a.status)));
  }

  defaultOf(platform: Platform): SocialAccount {
    const list = this.byPlatform[PLATFORMS.indexOf(platform)]!;
    return list.find((a) => a.isDefault) ?? list[0]!;
  }

  /** The sandbox-only state changes; the new state is what a reconnect in the service's settings gives. */
  apply(a: SocialAccount, action: AccountAction, now: number): void {
    if (action === 'expire') {
      a.status = 'expired';
      a.tokenExpiresAt = now;
    } else if (action === 'disconnect') {
      a.status = 'disconnected';
    } else {
      a.status = 'connected';
      a.connectedAt = now;
      a.tokenExpiresAt = EXPIRING.has(a.platform) ? now + 60 * DAY : null;
    }
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
        payload.accounts = [this.idOf(this.defaultOf(platform))];
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

  // ----- rows -----

  /** Remembers the account of a row published live (and its failure, which a later reconnect does not undo). */
  recordRow(row: number, a: SocialAccount, failure: AccountFailure | undefined): void {
    this.liveRows.set(row, failure ? { account: a.index, failure } : { account: a.index });
  }

  failureOfRow(row: number): AccountFailure | undefined {
    return this.liveRows.get(row)?.failure;
  }

  /** The account a row was published with: recorded for live rows, spread over the platform's accounts for fixtures. */
  accountOfRow(rows: RowTable, row: number): SocialAccount | undefined {
    if (rows.flags[row]! & FLAG_NO_ACCOUNT) return undefined;
    const live = this.liveRows.get(row);
    if (live) return this.accounts[live.account];
    const list = this.byPlatform[rows.platform[row]!]!;
    // A live row restored from a data file, whose account is not kept there yet: the platform's default.
    if (row >= this.fixtureRows) return list.find((a) => a.isDefault) ?? list[0];
    const picked = list[hash(this.entropy, FIXTURE_ACCOUNT_STREAM, this.tag, row) % list.length]!;
    return rows.time[row]! < picked.fixturesUntil ? picked : (list.find((a) => a.isDefault) ?? list[0]);
  }

  /** Newest-first page of the rows of these accounts, optionally only of some platforms. */
  rowsPage(rows: RowTable, accounts: ReadonlySet<number>, platforms: ReadonlySet<number>, offset: number, limit: number): MergedPage {
    const index = this.indexRows(rows);
    const lists = [...accounts]
      .filter((i) => platforms.size === 0 || platforms.has(PLATFORMS.indexOf(this.accounts[i]!.platform)))
      .map((i) => index[i]!.view());
    return mergedPageDescending(lists, offset, limit);
  }

  /** The account indexes of the ids given (ids of no account here select nothing). */
  selection(ids: readonly string[]): Set<number> {
    const out = new Set<number>();
    for (const id of ids) {
      const a = this.find(id);
      if (a) out.add(a.index);
    }
    return out;
  }

  private indexRows(rows: RowTable): IntList[] {
    const index = (this.rowIndex ??= this.accounts.map(() => new IntList(64)));
    for (let r = this.indexedUpTo; r < rows.length; r++) {
      const a = this.accountOfRow(rows, r);
      if (a) index[a.index]!.push(r);
    }
    this.indexedUpTo = rows.length;
    return index;
  }
}
