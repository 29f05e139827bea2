// The publisher: when a scheduled post's time comes on the sandbox clock it "publishes" to
// every platform of its payloads, writes one result per target account (an expired or
// disconnected account fails first; a target that breaks its platform's rules fails with the
// matching code; only the others meet the random failure rate),
// sets the post to published (all succeeded) or failed (any failed) and hands each result to
// the webhook dispatcher. The rows, the post and the queued webhooks are one transaction,
// committed before any receiver hears of them. Drafts are never queued.
import { PLATFORMS, type Platform } from '../wire/platforms.js';
import type { SandboxClock } from './clock.js';
import { brokenRule } from './platform-rules.js';
import { STREAM, unit, type Entropy } from './random.js';
import { NO_ACCOUNT_RATE } from './store/fixtures.js';
import type { LivePost, Workspace } from './workspace.js';

interface Entry {
  at: number;
  seq: number;
  ws: Workspace;
  index: number;
}

export interface PublisherHost {
  clock: SandboxClock;
  entropy: Entropy;
  failureRate: number;
  /** Runs `fn` in one transaction (its changes undone if it throws). */
  commit<T>(fn: () => T): T;
  /** Resolves once that transaction is committed (rejects when the commit failed). */
  committed(): Promise<void> | undefined;
  /** Inside the transaction: the rows' webhooks queued. */
  queueResults(ws: Workspace, rows: readonly number[]): void;
  /** After the commit, with each new result row; returns the delivery's first attempt. */
  onResult(ws: Workspace, row: number): Promise<void>;
  /** A publish that could not be committed (the post stays scheduled until the next start). */
  onFailure(err: Error): void;
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
    const entry: Entry = { at: post.scheduledAt, seq: this.seq++, ws, index: post.index };
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
      const { ws, index, at } = this.queue.shift()!;
      // Moved (a newer entry stands for it), unscheduled, deleted, or never committed since it was queued.
      const post = ws.livePost(index);
      if (!post || post.deleted || post.status !== 'scheduled' || post.scheduledAt !== at) continue;
      deliveries.push(...this.publish(ws, post, now));
    }
    this.arm();
    return Promise.all(deliveries).then(() => undefined);
  }

  private publish(ws: Workspace, post: LivePost, now: number): Promise<void>[] {
    const { entropy, failureRate } = this.host;
    let rows: number[];
    try {
      rows = this.host.commit(() => {
        const made: number[] = [];
        let failed = false;
        for (const platform of Object.keys(post.payloads) as Platform[]) {
          if (!PLATFORMS.includes(platform)) continue;
          // One result per target account; an expired or disconnected account fails before anything
          // else, then a broken rule, then a repeat of what the account published lately; only then chance.
          for (const { account, named } of ws.socialAccounts.targetsOf(platform, post.payloads[platform])) {
            const next = ws.nextRow();
            const accountFailure = ws.socialAccounts.failureNow(account);
            const brokeRule = !accountFailure && brokenRule(ws, post, platform) !== undefined;
            const duplicateOf = accountFailure || brokeRule ? undefined : ws.duplicateOf(account.index, platform, post.payloads[platform]?.text, now);
            const success = !accountFailure && !brokeRule && duplicateOf === undefined && unit(entropy, STREAM.outcome, ws.tag, next) >= failureRate;
            const noAccount = !named && !accountFailure && unit(entropy, STREAM.account, ws.tag, next) < NO_ACCOUNT_RATE;
            made.push(ws.appendResult({ post: post.index, platform, success, noAccount, brokeRule, account: account.index, accountFailure, duplicateOf }, now));
            if (!success) failed = true;
          }
        }
        ws.savePost({ ...post, status: failed ? 'failed' : 'published', updatedAt: Math.max(now, post.updatedAt) });
        this.host.queueResults(ws, made);
        return made;
      });
    } catch (err) {
      this.host.onFailure(err as Error);
      return [];
    }
    // No receiver hears of a row before it is committed.
    const committed = this.host.committed() ?? Promise.resolve();
    return [committed.then(
      () => Promise.all(rows.map((row) => this.host.onResult(ws, row))).then(() => undefined),
      (err: Error) => this.host.onFailure(err),
    )];
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
