// The polling loop of `results wait` and the MCP tool wait_for_results: read the posts' results,
// judge them (wait-state.ts), sleep with backoff within the read budget, until every target has
// reported or the deadline passes, riding out an outage (connection failures, 5xx) on the way.
// The deadline holds: sleeps end at it, each read (the client's own retries included) ends by it,
// and no read starts once it has come. Time and sleeping come in from the caller, so the loop runs
// on a test's clock and a webhook can cut a sleep short.
import { ApiError, DeadlineError, RateLimitError } from '../client/errors.js';
import type { ApiClient } from '../client/types.js';
import type { Post, PostResult } from '../wire/schemas.js';
import { findPost, PostNotFoundError, resultsOf } from '../posts/find.js';
import { assessResults, nextPollDelayMs, type RateInfo, type WaitState } from './wait-state.js';

export interface WaitTarget {
  postId: string;
  /** The post's target platforms (what "every target reported" means); ignored with `expect`. */
  targets: readonly string[];
}

/** What the loop reads through: the results list. */
export interface ResultsSource {
  results: Pick<ApiClient['results'], 'iterate'>;
}

export interface WaitInput {
  client: ResultsSource;
  posts: readonly WaitTarget[];
  /** Wait for this many results of each post instead of one per target. */
  expect?: number | undefined;
  /** Epoch ms (on `now`'s clock) by which the loop is over: no read starts at or after it, none runs past it. */
  deadline: number;
  now(): number;
  /** Sleeps between polls; may end early (a webhook for the post arrived). */
  sleep(ms: number): Promise<void>;
  /** The RateLimit headers of the last response, so polls stay within the read budget. */
  rate?(): RateInfo | undefined;
  /** Told the state after every poll. */
  onPoll?(state: WaitState): void | Promise<void>;
  /** Told once when the service stops answering (connection failures, 5xx after the client's retries). */
  onOutage?(err: ApiError, deadline: number): void;
  /** Told once when it answers again. */
  onBack?(): void;
  /** Told when the service asks for a pause (429 Retry-After) that the wait sleeps through, with when it ends. */
  onRateLimited?(until: number): void;
  /** The rate limit's last tenth may be spent by polls (--spend-budget, --max-requests). */
  spendReserve?: boolean;
}

export interface WaitOutcome {
  /** All posts together. */
  state: WaitState;
  /** Each post on its own, in the order asked. */
  perPost: Map<string, WaitState>;
  timedOut: boolean;
}

export async function pollUntilReported(input: WaitInput): Promise<WaitOutcome> {
  const ids = input.posts.map((p) => p.postId);
  let down = false;
  const rideOut = outageRider({
    ...input,
    onOutage: (err, deadline) => {
      down = true;
      input.onOutage?.(err, deadline);
    },
    onBack: () => {
      down = false;
      input.onBack?.();
    },
  });
  let last: WaitOutcome | undefined;
  for (let attempt = 0; ; attempt++) {
    let rows: PostResult[];
    try {
      rows = await rideOut(() => resultsOf(input.client, ids, input.deadline));
    } catch (err) {
      // The service was answering; only the deadline cut this poll short: the wait timed out.
      if (err instanceof DeadlineError && last && !down) return { ...last, timedOut: true };
      throw err;
    }
    const outcome = (last = judge(input, rows));
    await input.onPoll?.(outcome.state);
    if (outcome.state.done) return outcome;
    const left = input.deadline - input.now();
    if (left <= 0) return { ...outcome, timedOut: true };
    await input.sleep(nextPollDelayMs(attempt, input.rate?.(), left, { spendReserve: input.spendReserve }));
    if (input.now() >= input.deadline) return { ...outcome, timedOut: true };
  }
}

/**
 * The service is down or failing for now: worth waiting out, unlike a bad key or a bad request.
 * A garbled answer is one too (a proxy cutting bodies short), but not one too large to read.
 */
export function isOutage(err: unknown): err is ApiError {
  if (!(err instanceof ApiError)) return false;
  if (err.kind === 'response-shape') return err.code !== 'RESPONSE_TOO_LARGE';
  return err.kind === 'network' || err.kind === 'timeout' || err.kind === 'server';
}

/**
 * Runs a read again and again through an outage until it succeeds or the deadline comes (then
 * the last failure is thrown), telling the caller once when the outage starts and once when it
 * ends. The read must end by the deadline itself (pass it to the client); no read starts at it.
 */
export function outageRider(input: Pick<WaitInput, 'deadline' | 'now' | 'sleep' | 'onOutage' | 'onBack' | 'onRateLimited'>): <T>(read: () => Promise<T>) => Promise<T> {
  let down: ApiError | undefined;
  return async function rideOut<T>(read: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        const value = await read();
        if (down) input.onBack?.();
        down = undefined;
        return value;
      } catch (err) {
        // The deadline came during an outage: the outage is what the caller must hear of.
        if (err instanceof DeadlineError && down) throw down;
        const left = input.deadline - input.now();
        // A pause the service asks for is slept through when the wait lasts past it (a 90 s
        // Retry-After inside a 30 min wait); one that outlasts the wait ends it (exit 5).
        if (err instanceof RateLimitError && err.retryAt !== undefined && err.retryAt < input.deadline && left > 0) {
          input.onRateLimited?.(err.retryAt);
          await input.sleep(Math.max(0, err.retryAt - input.now()));
          if (input.now() >= input.deadline) throw err;
          continue;
        }
        // A read cut short at the deadline ends the wait even when the clock reads a hair earlier.
        if (!isOutage(err) || left <= 0 || err instanceof DeadlineError) throw err;
        if (!down) input.onOutage?.(err, input.deadline);
        down = err;
        await input.sleep(nextPollDelayMs(attempt, undefined, left));
        if (input.now() >= input.deadline) throw err;
      }
    }
  };
}

export type NotWaitable = { reason: 'draft'; post: Post } | { reason: 'due-after-deadline'; post: Post; dueAt: number };

/** A post that cannot get results before the deadline: a draft, or one due after it. */
export function notWaitable(post: Post, deadline: number): NotWaitable | undefined {
  if (post.status === 'draft') return { reason: 'draft', post };
  const dueAt = post.scheduledAt ? Date.parse(post.scheduledAt) : NaN;
  if (post.status === 'scheduled' && Number.isFinite(dueAt) && dueAt > deadline) return { reason: 'due-after-deadline', post, dueAt };
  return undefined;
}

/** A post looked up to be waited for: its targets, and why it cannot report in time (if so). */
export type WaitLookUp = { found: false } | { found: true; post: Post; target: WaitTarget; blocked: NotWaitable | undefined };

/**
 * Finds the post to wait for (reads end by `lookUpBy`) and checks it can report by the wait's
 * `deadline`; `found: false` when the workspace has no such post. Each caller words the outcome.
 */
export async function lookUpWaitTarget(client: Pick<ApiClient, 'posts'>, postId: string, times: { lookUpBy: number; deadline: number }): Promise<WaitLookUp> {
  try {
    const post = await findPost(client, postId, { statusHint: ['scheduled', 'published', 'failed'], deadline: times.lookUpBy });
    return { found: true, post, target: { postId, targets: Object.keys(post.payloads) }, blocked: notWaitable(post, times.deadline) };
  } catch (err) {
    if (err instanceof PostNotFoundError) return { found: false };
    throw err;
  }
}

function judge(input: WaitInput, rows: readonly PostResult[]): WaitOutcome {
  const perPost = new Map<string, WaitState>();
  for (const p of input.posts) perPost.set(p.postId, assessResults(rows.filter((r) => r.post_id === p.postId), p.targets, input.expect));
  return { state: combine(perPost), perPost, timedOut: false };
}

/** One state for several posts: counts add up; a missing target is named with its post when there are several. */
function combine(perPost: Map<string, WaitState>): WaitState {
  const states = [...perPost];
  if (states.length === 1) return states[0]![1];
  const all: WaitState = { rows: [], reported: 0, expected: 0, missing: [], failures: [], done: true };
  for (const [postId, s] of states) {
    all.rows = all.rows.concat(s.rows);
    all.failures = all.failures.concat(s.failures);
    all.missing = all.missing.concat(s.missing.map((m) => `${m} (${postId})`));
    all.reported += s.reported;
    all.expected += s.expected;
    all.done &&= s.done;
  }
  return all;
}
