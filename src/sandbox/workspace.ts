// One workspace: its key, its posts, results and media (fixtures generated from the entropy,
// the rest in the database), its idempotency keys and rate windows, and the JSON shapes of its
// objects. Workspaces share nothing but the entropy and the database; an id is minted with the
// workspace's tag, so another workspace's id never resolves here. Positions: fixtures first,
// then the stored rows, so a stored row is always newer than every fixture.
import { PLATFORMS, type Platform, type PostStatus } from '../wire/platforms.js';
import { accountFailureFor, DUPLICATE_WINDOW_MS, duplicateFailureFor, failureFor, mediaRequiredFor, refusesDuplicates, ruleFailureFor, type ResultError } from './failures.js';
import { brokenRule, hasMedia, threadParts } from './platform-rules.js';
import type { IdCodec } from './ids.js';
import { IdempotencyKeys } from './idempotency.js';
import { isoTime } from './timestamps.js';
import { platformDataFor, type PlatformData } from './platform-data.js';
import { AccountBook } from './accounts.js';
import { PUBLIC_MEDIA_PREFIX } from './handlers/media.js';
import { RollingWindow } from './rate-limit.js';
import type { Entropy } from './random.js';
import { fixtureText, type FixtureSpec } from './store/fixtures.js';
import { FixtureSet } from './store/fixture-set.js';
import { mergedPageDescending } from './store/merge-page.js';
import { FLAG_MEDIA_MISSING, FLAG_NO_ACCOUNT, FLAG_SUCCESS } from './store/row-table.js';
import { lastPostIndex, postNaming, postPage, readPost, scheduledPosts, writePost, type LivePost, type PostNarrowing } from './db/posts.js';
import { accountResultPage, insertResult, lastResult, publishedSince, readResult, resultPage, resultsOfPost, type AccountFailure, type ResultRow } from './db/results.js';
import { deleteMedia, mediaCount, mediaPage, readMedia, writeMedia, type MediaRecord } from './db/media.js';
import { loadHits } from './db/records.js';
import type { Store } from './db/store.js';

export type { LivePost, PostNarrowing } from './db/posts.js';
export type { MediaRecord } from './db/media.js';

export interface PostJson {
  id: string;
  status: PostStatus;
  payloads: Record<string, unknown>;
  scheduledAt: string | null;
  createdAt: string;
  updatedAt: string;
  title?: string;
  /** The latest outcome of each target platform. */
  targets: Record<string, 'pending' | 'published' | 'failed'>;
}

export interface ResultJson {
  id: string;
  post_id: string;
  success: boolean;
  social_account_id: string | null;
  platform_data: PlatformData;
  error: ResultError | null;
  platform: Platform;
  created_at: string;
}

export interface WorkspaceInit {
  name: string;
  /** 1..65535; part of every id this workspace mints. */
  tag: number;
  apiKey: string;
  addon: boolean;
  fixtures?: FixtureSpec | undefined;
}

export interface Page<T> {
  items: T[];
  total: number;
}

const iso = isoTime;
const PLATFORM_INDEX = new Map<string, number>(PLATFORMS.map((p, i) => [p, i]));
const FIXTURE_STATUSES: readonly PostStatus[] = ['published', 'failed'];

export class Workspace {
  readonly name: string;
  readonly tag: number;
  readonly apiKey: string;
  readonly addon: boolean;
  readonly fixtures: FixtureSet | undefined;
  readonly idempotency: IdempotencyKeys;
  readonly writes: RollingWindow;
  readonly reads: RollingWindow;
  /** The connected social accounts, their state, and the account of each fixture row. */
  readonly socialAccounts: AccountBook;

  constructor(
    private readonly entropy: Entropy,
    private readonly ids: IdCodec,
    private readonly store: Store,
    init: WorkspaceInit,
    limits: { write: number; read: number },
  ) {
    this.name = init.name;
    this.tag = init.tag;
    this.apiKey = init.apiKey;
    this.addon = init.addon;
    this.fixtures = init.fixtures && init.fixtures.count > 0 ? new FixtureSet(entropy, init.tag, init.fixtures) : undefined;
    this.idempotency = new IdempotencyKeys(store, init.tag);
    this.writes = new RollingWindow(limits.write, loadHits(store, init.tag, 'write'));
    this.reads = new RollingWindow(limits.read, loadHits(store, init.tag, 'read'));
    this.writes.onTake = (at) => store.hit({ workspace: init.tag, kind: 'write', at });
    this.reads.onTake = (at) => store.hit({ workspace: init.tag, kind: 'read', at });
    this.socialAccounts = new AccountBook(store, ids, entropy, init.tag);
  }

  private get fixturePosts(): number {
    return this.fixtures?.postCount ?? 0;
  }
  private get fixtureRows(): number {
    return this.fixtures?.rowCount ?? 0;
  }

  // ----- ids -----

  private lastPost = { index: -1, id: '' };

  postId(index: number): string {
    // Rows of one post sit side by side in a page: remember the last id.
    if (this.lastPost.index !== index) this.lastPost = { index, id: this.ids.encode('post', this.tag, index) };
    return this.lastPost.id;
  }
  resultId(row: number): string {
    return this.ids.encode('result', this.tag, row);
  }
  mediaId(index: number): string {
    return this.ids.encode('media', this.tag, index);
  }
  messageId(row: number): string {
    return this.ids.encode('message', this.tag, row);
  }
  /** Positions handed out so far: the next post's. */
  nextPostIndex(): number {
    const last = lastPostIndex(this.store, this.tag);
    return last === undefined ? this.fixturePosts : last + 1;
  }
  nextRow(): number {
    const last = lastResult(this.store, this.tag);
    return last === undefined ? this.fixtureRows : last.row + 1;
  }

  findPost(id: string): number | undefined {
    const i = this.ids.decode('post', this.tag, id);
    if (i === undefined) return undefined;
    if (i < this.fixturePosts) return i;
    const post = readPost(this.store, this.tag, i);
    return post && !post.deleted ? i : undefined;
  }
  findResult(id: string): number | undefined {
    const i = this.ids.decode('result', this.tag, id);
    if (i === undefined) return undefined;
    return i < this.fixtureRows || readResult(this.store, this.tag, i) ? i : undefined;
  }
  findMedia(id: string): MediaRecord | undefined {
    const i = this.ids.decode('media', this.tag, id);
    return i === undefined ? undefined : readMedia(this.store, this.tag, i);
  }

  /** A post created through the API (undefined for a fixture post or an unknown position). */
  livePost(index: number): LivePost | undefined {
    return index < this.fixturePosts ? undefined : readPost(this.store, this.tag, index);
  }

  postStatus(index: number): PostStatus {
    if (index < this.fixturePosts) return this.fixtures!.layout.postStatus[index] === 2 ? 'published' : 'failed';
    return this.livePost(index)?.status ?? 'draft';
  }

  /** A result row, fixture or stored. */
  private result(row: number): ResultRow {
    if (row < this.fixtureRows) {
      const t = this.fixtures!.rows;
      const flags = t.flags[row]!;
      return {
        row,
        post: t.post[row]!,
        platform: PLATFORMS[t.platform[row]!]!,
        success: (flags & FLAG_SUCCESS) !== 0,
        noAccount: (flags & FLAG_NO_ACCOUNT) !== 0,
        brokeRule: (flags & FLAG_MEDIA_MISSING) !== 0,
        at: t.time[row]!,
        account: this.socialAccounts.fixtureAccount(this.fixtures!, row),
      };
    }
    return readResult(this.store, this.tag, row)!;
  }

  /** Whether a result row succeeded, without making its JSON (the dashboard skips successes by it). */
  succeeded(row: number): boolean {
    return this.result(row).success;
  }

  /** The results of a post, in time order (none until it is published). */
  private resultsOf(index: number): ResultRow[] {
    if (index >= this.fixturePosts) return resultsOfPost(this.store, this.tag, index);
    const { start, count } = this.fixtures!.rowRange(index);
    return Array.from({ length: count }, (_, k) => this.result(start + k));
  }

  // ----- JSON -----

  postJson(index: number): PostJson {
    const results = this.resultsOf(index);
    const live = this.livePost(index);
    if (live) {
      return {
        id: this.postId(index),
        status: live.status,
        payloads: live.payloads,
        scheduledAt: live.scheduledAt === null ? null : iso(live.scheduledAt),
        createdAt: iso(live.createdAt),
        updatedAt: iso(live.updatedAt),
        ...(live.title !== undefined ? { title: live.title } : {}),
        targets: targetsOf(Object.keys(live.payloads), results),
      };
    }
    // A fixture post: published at its first row's time, created three hours before.
    const text = fixtureText(this.entropy, this.tag, index);
    const payloads: Record<string, unknown> = {};
    for (const r of results) payloads[r.platform] = { text, ...(r.noAccount ? {} : { accounts: [this.socialAccounts.idOf(r.account)] }) };
    const publishedAt = results[0]!.at;
    return {
      id: this.postId(index),
      status: this.postStatus(index),
      payloads,
      scheduledAt: iso(publishedAt),
      createdAt: iso(publishedAt - 3 * 3_600_000),
      updatedAt: iso(results.at(-1)!.at),
      targets: targetsOf(Object.keys(payloads), results),
    };
  }

  resultJson(row: number): ResultJson {
    const r = this.result(row);
    return {
      id: this.resultId(row),
      post_id: this.postId(r.post),
      success: r.success,
      social_account_id: r.noAccount ? null : this.socialAccounts.idOf(r.account),
      platform_data: platformDataFor(this.entropy, this.tag, row, r.platform, this.socialAccounts.usernameOf(r.account) ?? '', r.success),
      error: r.success ? null : this.failureOf(r),
      platform: r.platform,
      created_at: iso(r.at),
    };
  }

  /**
   * Why a row failed: its account, the rule its post broke (judged again from the post, which no
   * longer changes), the earlier post it repeated, or a random failure (for a live row, never one
   * of those causes drawn at random).
   */
  private failureOf(r: ResultRow): ResultError {
    if (r.accountFailure) return accountFailureFor(this.entropy, this.tag, r.row, r.platform, r.accountFailure);
    const live = this.livePost(r.post);
    if (r.brokeRule) {
      const broken = live && brokenRule(this, live, r.platform);
      return broken ? ruleFailureFor(this.entropy, this.tag, r.row, r.platform, broken, threadParts(live?.payloads[r.platform])) : mediaRequiredFor(this.entropy, this.tag, r.row, r.platform);
    }
    if (r.duplicateOf !== undefined) {
      const earlier = this.result(r.duplicateOf);
      return duplicateFailureFor(this.entropy, this.tag, r.row, r.platform, { postId: this.postId(earlier.post), resultId: this.resultId(earlier.row), publishedAt: iso(earlier.at) });
    }
    return failureFor(this.entropy, this.tag, r.row, r.platform, hasMedia(live?.payloads[r.platform]), threadParts(live?.payloads[r.platform]), r.row >= this.fixtureRows);
  }

  /**
   * The row of a published result that `text` would repeat on `account` at `now`: the same text
   * (spaces at the ends aside) published there within DUPLICATE_WINDOW_MS, on a platform that
   * refuses duplicates. Live rows only: the fixtures are history of another kind.
   */
  duplicateOf(account: number, platform: Platform, text: unknown, now: number): number | undefined {
    if (!refusesDuplicates(platform) || typeof text !== 'string' || text.trim() === '') return undefined;
    const said = text.trim();
    const row = this.publishedTexts(account, now).get(said);
    if (row === undefined) return undefined;
    // The index only points: the row itself decides (its window may have passed).
    const earlier = readResult(this.store, this.tag, row);
    if (earlier?.success && earlier.account === account && this.textOf(earlier) === said) return earlier.at >= now - DUPLICATE_WINDOW_MS ? row : undefined;
    // A row the index knew and the database does not (a write undone): read the window again.
    this.textsByAccount.delete(account);
    return this.publishedTexts(account, now).get(said);
  }

  /**
   * Per account, each text it published (ends trimmed) → its newest live row: read from the
   * database once per account, then kept as rows are added. Scanning the window's rows on every
   * publish made 1,500 posts to one account take 10 s.
   */
  private readonly textsByAccount = new Map<number, Map<string, number>>();

  private publishedTexts(account: number, now: number): Map<string, number> {
    let texts = this.textsByAccount.get(account);
    if (!texts) {
      texts = new Map();
      // Newest first: the first row seen of a text is its newest.
      for (const r of publishedSince(this.store, this.tag, account, now - DUPLICATE_WINDOW_MS)) {
        const said = this.textOf(r);
        if (said && !texts.has(said)) texts.set(said, r.row);
      }
      this.textsByAccount.set(account, texts);
    }
    return texts;
  }

  /** The text a live row published, ends trimmed (undefined for a fixture row or a post without one). */
  private textOf(r: Pick<ResultRow, 'post' | 'platform'>): string | undefined {
    const said = this.livePost(r.post)?.payloads[r.platform]?.text;
    return typeof said === 'string' ? said.trim() : undefined;
  }

  // ----- lists -----

  /**
   * Newest-first page of posts: the stored ones (newer), then the fixtures, by position. `narrow`
   * (the SyncPostly dialect's filters) adds scheduled posts by whether their time has come, and keeps
   * only posts with one of its platforms (the fixtures are then scanned, post by post).
   */
  postsPage(statuses: readonly PostStatus[], offset: number, limit: number, narrow: PostNarrowing = {}): Page<number> {
    const wanted = statuses.length === 0 && !narrow.scheduled ? (['draft', 'scheduled', 'published', 'failed'] as const) : [...new Set(statuses)];
    const fixtureStatuses = FIXTURE_STATUSES.filter((s) => wanted.includes(s));
    const fixtureLists = this.fixtures ? fixtureStatuses.map((s) => this.fixtures![s === 'published' ? 'published' : 'failed']) : [];
    const platforms = narrow.platforms?.length ? new Set(narrow.platforms) : undefined;
    return stack(
      (o, l) => postPage(this.store, this.tag, wanted, o, l, narrow),
      platforms ? (o, l) => this.fixturePostsOn(fixtureStatuses, platforms, o, l) : (o, l) => (fixtureLists.length === 2 ? byPosition(this.fixturePosts, o, l) : pageOf(fixtureLists, o, l)),
      offset,
      limit,
    );
  }

  /** Fixture posts in one of `statuses` with a result on one of `platforms`, newest first (a scan: only the platform filter needs it). */
  private fixturePostsOn(statuses: readonly PostStatus[], platforms: ReadonlySet<string>, offset: number, limit: number): Page<number> {
    const items: number[] = [];
    let total = 0;
    if (!this.fixtures || statuses.length === 0) return { items, total };
    const on = this.fixtures.rows.platform;
    for (let i = this.fixturePosts - 1; i >= 0; i--) {
      if (!statuses.includes(this.postStatus(i))) continue;
      const { start, count } = this.fixtures.rowRange(i);
      let hit = false;
      for (let r = start; r < start + count && !hit; r++) hit = platforms.has(PLATFORMS[on[r]!]!);
      if (!hit) continue;
      if (total >= offset && items.length < limit) items.push(i);
      total++;
    }
    return { items, total };
  }

  /**
   * Newest-first page of results. Post ids that are unknown here (or another workspace's)
   * match nothing. Each post owns a handful of rows, so a post filter collects those rows;
   * a platform filter pages the stored rows in SQL and the fixtures' per-platform lists, an
   * account filter (social_account_id) likewise per account; no filter reads positions directly.
   */
  resultsPage(filter: { postIds: readonly string[]; platforms: readonly Platform[]; accountIds?: readonly string[] | undefined }, offset: number, limit: number): Page<number> {
    const platforms = new Set(filter.platforms);
    const accounts = filter.accountIds?.length ? this.socialAccounts.selection(filter.accountIds, platforms) : undefined;
    if (filter.postIds.length > 0) {
      const rows: number[] = [];
      const chosen = accounts && new Set(accounts);
      for (const index of new Set(filter.postIds.map((id) => this.findPost(id)))) {
        if (index === undefined) continue;
        for (const r of this.resultsOf(index)) {
          if (platforms.size > 0 && !platforms.has(r.platform)) continue;
          if (chosen && (r.noAccount || !chosen.has(r.account))) continue;
          rows.push(r.row);
        }
      }
      rows.sort((a, b) => b - a);
      return { items: rows.slice(offset, offset + limit), total: rows.length };
    }
    if (accounts) {
      const lists = this.fixtures ? this.socialAccounts.fixtureRowsOf(this.fixtures, accounts) : [];
      return stack(
        (o, l) => accountResultPage(this.store, this.tag, accounts, o, l),
        (o, l) => pageOf(lists, o, l),
        offset,
        limit,
      );
    }
    if (platforms.size > 0 && platforms.size < PLATFORMS.length) {
      const lists = this.fixtures ? [...platforms].map((p) => this.fixtures!.byPlatform[PLATFORM_INDEX.get(p)!]!) : [];
      return stack(
        (o, l) => resultPage(this.store, this.tag, [...platforms], o, l),
        (o, l) => pageOf(lists, o, l),
        offset,
        limit,
      );
    }
    return byPosition(this.nextRow(), offset, limit);
  }

  // ----- changes (inside the caller's transaction) -----

  addPost(post: Omit<LivePost, 'index'>): LivePost {
    const record: LivePost = { index: this.nextPostIndex(), ...post };
    writePost(this.store, this.tag, record);
    return record;
  }

  scheduledPosts(): LivePost[] {
    return scheduledPosts(this.store, this.tag);
  }

  savePost(post: LivePost): void {
    writePost(this.store, this.tag, post);
  }

  /** A deleted post: a tombstone keeps the position (the id counter) but not the content. */
  deletePost(post: LivePost, now: number): void {
    const { title: _title, extras: _extras, ...rest } = post;
    writePost(this.store, this.tag, { ...rest, payloads: {}, updatedAt: now, deleted: true });
  }

  /**
   * Appends a result row at `now` (never before the previous row, so position order stays time
   * order), published to `account`; `accountFailure`: it failed on the account itself;
   * `duplicateOf`: it repeated that earlier row's text.
   */
  appendResult(r: { post: number; platform: Platform; success: boolean; noAccount: boolean; brokeRule: boolean; account: number; accountFailure?: AccountFailure | undefined; duplicateOf?: number | undefined }, now: number): number {
    const last = lastResult(this.store, this.tag);
    const row = last ? last.row + 1 : this.fixtureRows;
    const previous = last ? last.at : this.fixtureRows > 0 ? this.fixtures!.rows.lastTime() : -Infinity;
    const failed = r.brokeRule || r.accountFailure !== undefined || r.duplicateOf !== undefined;
    insertResult(this.store, this.tag, { ...r, row, success: r.success && !failed, noAccount: !failed && r.noAccount, at: Math.max(now, previous) });
    const texts = this.textsByAccount.get(r.account);
    if (texts && r.success && !failed) {
      const said = this.textOf(r);
      if (said) texts.set(said, row);
    }
    return row;
  }

  addMedia(m: Omit<MediaRecord, 'index'>): MediaRecord {
    const record: MediaRecord = { index: mediaCount(this.store, this.tag), ...m };
    writeMedia(this.store, this.tag, record);
    return record;
  }

  saveMedia(m: MediaRecord): void {
    writeMedia(this.store, this.tag, m);
  }

  /** The newest post whose payloads name this upload (by its public path), if any. */
  postOfMedia(m: MediaRecord): number | undefined {
    return postNaming(this.store, this.tag, `${PUBLIC_MEDIA_PREFIX}${this.mediaId(m.index)}/`);
  }

  deleteMedia(m: MediaRecord): void {
    deleteMedia(this.store, this.tag, m.index);
  }

  mediaPage(offset: number, limit: number): Page<MediaRecord> {
    return mediaPage(this.store, this.tag, offset, limit);
  }
}

/** Each target's result (a post is published once), or pending before any; a platform with several accounts is failed when any of them failed. */
function targetsOf(platforms: readonly string[], results: readonly ResultRow[]): PostJson['targets'] {
  const targets: PostJson['targets'] = {};
  for (const p of platforms) targets[p] = 'pending';
  for (const r of results) if (targets[r.platform] !== 'failed') targets[r.platform] = r.success ? 'published' : 'failed';
  return targets;
}

/** Positions count-1 down to 0: a page is its offset, whatever the depth. */
function byPosition(count: number, offset: number, limit: number): Page<number> {
  const items: number[] = [];
  for (let i = count - 1 - offset; i >= 0 && items.length < limit; i--) items.push(i);
  return { items, total: count };
}

function pageOf(lists: ArrayLike<number>[], offset: number, limit: number): Page<number> {
  const page = mergedPageDescending(lists, offset, limit);
  return { items: page.rows, total: page.total };
}

/** One newest-first page over two parts, the newer first: the stored rows, then the fixtures. */
function stack(newer: (offset: number, limit: number) => Page<number>, older: (offset: number, limit: number) => Page<number>, offset: number, limit: number): Page<number> {
  const first = newer(offset, limit);
  const rest = older(Math.max(0, offset - first.total), limit - first.items.length);
  return { items: [...first.items, ...rest.items], total: first.total + rest.total };
}
