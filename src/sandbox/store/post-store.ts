// Posts of one workspace: fixture posts (derived on demand from the fixture layout) followed
// by live ones (objects), in creation order, with their status in a CategoryIndex so that
// status-filtered pages are found without scanning.
import { POST_STATUSES, type PostStatus } from '../../wire/platforms.js';
import { CategoryIndex } from './category-index.js';
import type { FixtureLayout } from './fixtures.js';

export interface LivePost {
  index: number;
  status: PostStatus;
  /** Payloads exactly as accepted (platform options kept). */
  payloads: Record<string, Record<string, unknown>>;
  title?: string;
  scheduledAt: number | null;
  createdAt: number;
  updatedAt: number;
  /** Result rows, once published: rowStart..rowStart+rowCount-1. */
  rowStart?: number;
  rowCount?: number;
  /** Deleted: kept as a tombstone so that its index (and so its id) is never handed out again. */
  deleted?: true;
}

export const STATUS_CODE: Record<PostStatus, number> = { draft: 0, scheduled: 1, published: 2, failed: 3 };
/** The category of a deleted post: in no status list. */
const DELETED = POST_STATUSES.length;
const ALL_STATUSES = POST_STATUSES.map((s) => STATUS_CODE[s]);

export class PostStore {
  readonly statuses: CategoryIndex;
  readonly fixtureCount: number;
  private readonly live: LivePost[] = [];

  constructor(readonly fixtures: FixtureLayout | undefined) {
    this.fixtureCount = fixtures?.postCount ?? 0;
    this.statuses = new CategoryIndex(POST_STATUSES.length + 1, fixtures?.postStatus ?? []);
  }

  /** Indexes handed out so far, deleted posts included. */
  get count(): number {
    return this.fixtureCount + this.live.length;
  }

  /** Posts that are not deleted. */
  get visible(): number {
    return this.statuses.count(ALL_STATUSES);
  }

  isDeleted(index: number): boolean {
    return this.statuses.category(index) === DELETED;
  }

  /** Marks a post deleted; it keeps its index, so its id is never handed out again. */
  remove(post: LivePost): void {
    post.deleted = true;
    this.statuses.set(post.index, DELETED);
  }

  /** A live post, or undefined for a fixture or an index out of range. */
  livePost(index: number): LivePost | undefined {
    return index >= this.fixtureCount ? this.live[index - this.fixtureCount] : undefined;
  }

  status(index: number): PostStatus {
    return POST_STATUSES[this.statuses.category(index)]!;
  }

  /** Result rows of a post (empty until it is published). */
  rowRange(index: number): { start: number; count: number } {
    if (index < this.fixtureCount) {
      const s = this.fixtures!.postStart;
      return { start: s[index]!, count: s[index + 1]! - s[index]! };
    }
    const p = this.live[index - this.fixtureCount];
    return p && p.rowStart !== undefined ? { start: p.rowStart, count: p.rowCount ?? 0 } : { start: 0, count: 0 };
  }

  add(post: Omit<LivePost, 'index'>): LivePost {
    const record: LivePost = { index: this.count, ...post };
    this.live.push(record);
    this.statuses.push(record.deleted ? DELETED : STATUS_CODE[record.status]);
    return record;
  }

  setStatus(post: LivePost, status: PostStatus): void {
    post.status = status;
    this.statuses.set(post.index, STATUS_CODE[status]);
  }

  livePosts(): readonly LivePost[] {
    return this.live;
  }
}
