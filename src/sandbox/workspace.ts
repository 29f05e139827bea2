// One workspace: its key, its posts, results, media and idempotency keys, its rate windows,
// and the JSON shapes of its objects. Workspaces share nothing but the entropy; an id is
// minted with the workspace's tag, so another workspace's id never resolves here.
import { PLATFORMS, type Platform, type PostStatus } from '../wire/platforms.js';
import { failureFor, mediaRequiredFor, ruleFailureFor, type ResultError } from './failures.js';
import { brokenRule, hasMedia, threadParts } from './platform-rules.js';
import type { IdCodec } from './ids.js';
import { IdempotencyCache } from './idempotency.js';
import { isoTime } from './timestamps.js';
import { platformDataFor, usernameFor, type PlatformData } from './platform-data.js';
import { RollingWindow } from './rate-limit.js';
import type { Entropy } from './random.js';
import { STATUS_CODE, PostStore, type LivePost } from './store/post-store.js';
import { fixtureText, generateFixtures, type FixtureSpec } from './store/fixtures.js';
import { IntList } from './store/int-list.js';
import { mergedPageDescending } from './store/merge-page.js';
import { FLAG_MEDIA_MISSING, FLAG_NO_ACCOUNT, FLAG_SUCCESS, RowTable } from './store/row-table.js';

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

export interface MediaRecord {
  index: number;
  name: string;
  mimeType: string;
  sizeBytes: number;
  createdAt: number;
  bytes: Buffer | undefined;
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

export class Workspace {
  readonly name: string;
  readonly tag: number;
  readonly apiKey: string;
  readonly addon: boolean;
  readonly fixtures: FixtureSpec | undefined;
  readonly rows = new RowTable();
  readonly byPlatform: IntList[] = PLATFORMS.map(() => new IntList(64));
  readonly posts: PostStore;
  readonly media: MediaRecord[] = [];
  readonly idempotency = new IdempotencyCache();
  readonly writes: RollingWindow;
  readonly reads: RollingWindow;
  /** Per platform: the connected account's id and handle (the same on every row). */
  private readonly accounts: { id: string; username: string }[];

  constructor(
    private readonly entropy: Entropy,
    private readonly ids: IdCodec,
    init: WorkspaceInit,
    limits: { write: number; read: number },
  ) {
    this.name = init.name;
    this.tag = init.tag;
    this.apiKey = init.apiKey;
    this.addon = init.addon;
    this.fixtures = init.fixtures && init.fixtures.count > 0 ? init.fixtures : undefined;
    this.writes = new RollingWindow(limits.write);
    this.reads = new RollingWindow(limits.read);
    this.accounts = PLATFORMS.map((p, i) => ({ id: ids.encode('account', init.tag, i), username: usernameFor(init.name, p) }));
    const layout = this.fixtures ? generateFixtures(entropy, this.tag, this.fixtures, this.rows) : undefined;
    this.posts = new PostStore(layout);
    if (layout) this.indexRows(0);
  }

  /** Adds rows from `from` on to the per-platform indexes (sized first: one allocation each). */
  private indexRows(from: number): void {
    const counts = new Array<number>(PLATFORMS.length).fill(0);
    for (let i = from; i < this.rows.length; i++) counts[this.rows.platform[i]!]!++;
    for (let p = 0; p < PLATFORMS.length; p++) {
      if (counts[p]! > 0) {
        const list = new IntList(this.byPlatform[p]!.length + counts[p]! + 16);
        for (const v of this.byPlatform[p]!.view()) list.push(v);
        this.byPlatform[p] = list;
      }
    }
    for (let i = from; i < this.rows.length; i++) this.byPlatform[this.rows.platform[i]!]!.push(i);
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
  accountId(platform: number): string {
    return this.accounts[platform]!.id;
  }

  findPost(id: string): number | undefined {
    const i = this.ids.decode('post', this.tag, id);
    return i !== undefined && i < this.posts.count && !this.posts.isDeleted(i) ? i : undefined;
  }
  findResult(id: string): number | undefined {
    const i = this.ids.decode('result', this.tag, id);
    return i !== undefined && i < this.rows.length ? i : undefined;
  }
  findMedia(id: string): MediaRecord | undefined {
    const i = this.ids.decode('media', this.tag, id);
    return i === undefined ? undefined : this.media[i];
  }

  // ----- JSON -----

  postJson(index: number): PostJson {
    const live = this.posts.livePost(index);
    if (live) {
      return {
        id: this.postId(index),
        status: live.status,
        payloads: live.payloads,
        scheduledAt: live.scheduledAt === null ? null : iso(live.scheduledAt),
        createdAt: iso(live.createdAt),
        updatedAt: iso(live.updatedAt),
        ...(live.title !== undefined ? { title: live.title } : {}),
        targets: this.targetsOf(index, Object.keys(live.payloads)),
      };
    }
    // A fixture post: published at its first row's time, created three hours before.
    const { start, count } = this.posts.rowRange(index);
    const text = fixtureText(this.entropy, this.tag, index);
    const payloads: Record<string, unknown> = {};
    for (let r = start; r < start + count; r++) payloads[PLATFORMS[this.rows.platform[r]!]!] = { text };
    const publishedAt = this.rows.time[start]!;
    return {
      id: this.postId(index),
      status: this.posts.status(index),
      payloads,
      scheduledAt: iso(publishedAt),
      createdAt: iso(publishedAt - 3 * 3_600_000),
      updatedAt: iso(this.rows.time[start + count - 1]!),
      targets: this.targetsOf(index, Object.keys(payloads)),
    };
  }

  /** Each target's latest result (rows of a post lie in time order), or pending before any. */
  private targetsOf(index: number, platforms: readonly string[]): PostJson['targets'] {
    const targets: PostJson['targets'] = {};
    for (const p of platforms) targets[p] = 'pending';
    const { start, count } = this.posts.rowRange(index);
    for (let r = start; r < start + count; r++) targets[PLATFORMS[this.rows.platform[r]!]!] = this.rows.flags[r]! & FLAG_SUCCESS ? 'published' : 'failed';
    return targets;
  }

  resultJson(row: number): ResultJson {
    const platform = this.rows.platform[row]!;
    const flags = this.rows.flags[row]!;
    const success = (flags & FLAG_SUCCESS) !== 0;
    const name = PLATFORMS[platform]!;
    return {
      id: this.resultId(row),
      post_id: this.postId(this.rows.post[row]!),
      success,
      social_account_id: flags & FLAG_NO_ACCOUNT ? null : this.accountId(platform),
      platform_data: platformDataFor(this.entropy, this.tag, row, name, this.accounts[platform]!.username, success),
      error: success ? null : this.failureOf(row, name, flags),
      platform: name,
      created_at: iso(this.rows.time[row]!),
    };
  }

  /** Why a row failed: the rule its post broke (judged again from the post, which no longer changes), or a random failure. */
  private failureOf(row: number, platform: Platform, flags: number): ResultError {
    const live = this.posts.livePost(this.rows.post[row]!);
    if (flags & FLAG_MEDIA_MISSING) {
      const broken = live && brokenRule(this, live, platform);
      return broken ? ruleFailureFor(this.entropy, this.tag, row, platform, broken, threadParts(live?.payloads[platform])) : mediaRequiredFor(this.entropy, this.tag, row, platform);
    }
    return failureFor(this.entropy, this.tag, row, platform, hasMedia(live?.payloads[platform]), threadParts(live?.payloads[platform]));
  }

  // ----- lists -----

  postsPage(statuses: readonly PostStatus[], offset: number, limit: number): Page<number> {
    const codes = [...new Set(statuses.map((s) => STATUS_CODE[s]))];
    const all = codes.length === 0 || codes.length === 4;
    // Without deleted posts every index is a post: read positions directly.
    if (all && this.posts.visible === this.posts.count) {
      const total = this.posts.count;
      const items: number[] = [];
      for (let i = total - 1 - offset; i >= 0 && items.length < limit; i--) items.push(i);
      return { items, total };
    }
    const { total, rows } = this.posts.statuses.pageDescending(all ? Object.values(STATUS_CODE) : codes, offset, limit);
    return { items: rows, total };
  }

  /**
   * Newest-first page of results. Post ids that are unknown here (or another workspace's)
   * match nothing. Each post owns a handful of rows, so a post filter collects those rows;
   * a platform filter merges the per-platform indexes; no filter reads positions directly.
   */
  resultsPage(filter: { postIds: readonly string[]; platforms: readonly Platform[] }, offset: number, limit: number): Page<number> {
    const platformSet = new Set(filter.platforms.map((p) => PLATFORM_INDEX.get(p)!));
    if (filter.postIds.length > 0) {
      const rows: number[] = [];
      for (const index of new Set(filter.postIds.map((id) => this.findPost(id)))) {
        if (index === undefined) continue;
        const { start, count } = this.posts.rowRange(index);
        for (let r = start; r < start + count; r++) if (platformSet.size === 0 || platformSet.has(this.rows.platform[r]!)) rows.push(r);
      }
      rows.sort((a, b) => a - b);
      const page = mergedPageDescending([rows], offset, limit);
      return { items: page.rows, total: page.total };
    }
    if (platformSet.size > 0 && platformSet.size < PLATFORMS.length) {
      const page = mergedPageDescending([...platformSet].map((p) => this.byPlatform[p]!.view()), offset, limit);
      return { items: page.rows, total: page.total };
    }
    const total = this.rows.length;
    const items: number[] = [];
    for (let i = total - 1 - offset; i >= 0 && items.length < limit; i--) items.push(i);
    return { items, total };
  }

  // ----- changes -----

  addPost(post: Omit<LivePost, 'index'>): LivePost {
    return this.posts.add(post);
  }

  /** Appends a result row at `now` (never before the previous row, so position order stays time order). */
  appendResult(postIndex: number, platform: Platform, success: boolean, noAccount: boolean, now: number, mediaMissing = false): number {
    const time = Math.max(now, this.rows.lastTime());
    const p = PLATFORM_INDEX.get(platform)!;
    const flags = mediaMissing ? FLAG_MEDIA_MISSING : (success ? FLAG_SUCCESS : 0) | (noAccount ? FLAG_NO_ACCOUNT : 0);
    const row = this.rows.push(postIndex, p, flags, time);
    this.byPlatform[p]!.push(row);
    return row;
  }

  /** Restores rows saved by a previous run (after the fixtures, which are regenerated). */
  restoreRows(rows: readonly (readonly [number, number, number, number])[]): void {
    const from = this.rows.length;
    this.rows.reserve(from + rows.length + 64);
    for (const [post, platform, flags, time] of rows) this.rows.push(post, platform, flags, time);
    this.indexRows(from);
  }

  /** Rows created live, or from `start` on (the fixtures are not saved: they are regenerated from the entropy). */
  liveRows(start?: number): [number, number, number, number][] {
    const out: [number, number, number, number][] = [];
    const from = start ?? (this.posts.fixtures ? this.posts.fixtures.postStart[this.posts.fixtureCount]! : 0);
    for (let i = from; i < this.rows.length; i++) out.push([this.rows.post[i]!, this.rows.platform[i]!, this.rows.flags[i]!, this.rows.time[i]!]);
    return out;
  }
}
