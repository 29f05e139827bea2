// The publisher: when a scheduled post's time comes on the sandbox clock it "publishes" to
// every platform of its payloads, writes one result per platform (a target that breaks its
// platform's rules fails with the matching code; only the others meet the random failure rate),
// sets the post to published (all succeeded) or failed (any failed) and hands each result to
// the webhook dispatcher. Drafts are never queued.
import { PLATFORMS, type Platform } from '../wire/platforms.js';
import type { SandboxClock } from './clock.js';
import { brokenRule } from './platform-rules.js';
import { STREAM, unit, type Entropy } from './random.js';
import { NO_ACCOUNT_RATE } from './store/fixtures.js';
import type { LivePost } from './store/post-store.js';
import type { Workspace } from './workspace.js';

interface Entry {
  at: number;
  seq: number;
  ws: Workspace;
  post: LivePost;
}

export interface PublisherHost {
  clock: SandboxClock;
  entropy: Entropy;
  failureRate: number;
  /** Called with each new result row; returns the delivery's first attempt. */
  onResult(ws: Workspace, row: number): Promise<void>;
  /** The post and its rows from `fromRow` on are new: recorded before anyone hears of them. */
  published(ws: Workspace, post: LivePost, fromRow: number): void;
}

export class Publisher {
  private queue: Entry[] = [];
  private seq = 0;
  private cancelTimer: (() => void) | undefined;
  private armedAt: number | undefined;
  private closed = false;

  constructor(private readonly host: PublisherHost) {}

  /** Queues a scheduled post (again, when it was moved: the old entry is skipped). */
  track(ws: Workspace, post: LivePost): void {
    if (post.deleted || post.status !== 'scheduled' || post.scheduledAt === null || this.closed) return;
    const entry: Entry = { at: post.scheduledAt, seq: this.seq++, ws, post };
    let i = this.queue.length;
    while (i > 0 && this.queue[i - 1]!.at > entry.at) i--;
    this.queue.splice(i, 0, entry);
    this.arm();
  }

  private arm(): void {
    const first = this.queue[0];
    if (first && this.armedAt === first.at) return;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.armedAt = undefined;
    if (!first || this.closed) return;
    this.armedAt = first.at;
    this.cancelTimer = this.host.clock.setTimer(first.at, () => {
      this.armedAt = undefined;
      this.cancelTimer = undefined;
      return this.runDue();
    });
  }

  /** Whether a queued post is due now (its timer may not have fired yet). */
  hasDue(): boolean {
    const first = this.queue[0];
    return first !== undefined && first.at <= this.host.clock.now();
  }

  /** Publishes every post due by now; resolves when their deliveries' first attempts are done. */
  runDue(): Promise<void> {
    const now = this.host.clock.now();
    const deliveries: Promise<void>[] = [];
    while (this.queue.length && this.queue[0]!.at <= now) {
      const { ws, post, at } = this.queue.shift()!;
      // Moved (a newer entry stands for it), unscheduled or deleted since it was queued.
      if (post.deleted || post.status !== 'scheduled' || post.scheduledAt !== at) continue;
      deliveries.push(...this.publish(ws, post, now));
    }
    this.arm();
    return Promise.all(deliveries).then(() => undefined);
  }

  private publish(ws: Workspace, post: LivePost, now: number): Promise<void>[] {
    const { entropy, failureRate } = this.host;
    const rows: number[] = [];
    const fromRow = ws.rows.length;
    let failed = false;
    for (const platform of Object.keys(post.payloads) as Platform[]) {
      if (!PLATFORMS.includes(platform)) continue;
      // One result per target account; an expired or disconnected account fails before anything else.
      for (const { account, named } of ws.socialAccounts.targetsOf(platform, post.payloads[platform])) {
        const row = ws.rows.length;
        const accountFailure = ws.socialAccounts.failureNow(account);
        const broken = !accountFailure && brokenRule(ws, post, platform) !== undefined;
        const success = !accountFailure && !broken && unit(entropy, STREAM.outcome, ws.tag, row) >= failureRate;
        const noAccount = !named && !accountFailure && unit(entropy, STREAM.account, ws.tag, row) < NO_ACCOUNT_RATE;
        ws.appendResult(post.index, platform, success, noAccount, now, broken);
        ws.socialAccounts.recordRow(row, account, accountFailure);
        if (!success) failed = true;
        rows.push(row);
      }
    }
    post.rowStart = rows[0] ?? ws.rows.length;
    post.rowCount = rows.length;
    post.updatedAt = Math.max(now, post.updatedAt);
    ws.posts.setStatus(post, failed ? 'failed' : 'published');
    this.host.published(ws, post, fromRow);
    return rows.map((row) => this.host.onResult(ws, row));
  }

  /** Posts waiting for their time. */
  get size(): number {
    return this.queue.length;
  }

  close(): void {
    this.closed = true;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.queue = [];
  }
}
