// The pace of a bulk run: wait out a rate-limit window the last response announced as used up,
// sleep through Retry-After (unless it is beyond --max-wait), tell a failure that ends the run
// from one that fails only its row, and stop after too many transient failures in a row.
import { ApiError, RateLimitError } from '../../client/errors.js';
import type { RateLimitInfo } from '../../client/types.js';
import { LAST_DATE_MS } from '../../client/retry-timing.js';

/** Without --max-wait the run waits as long as the rate limit asks (a week is "as long as needed"). */
export const PATIENT_MS = 7 * 24 * 3_600_000;
/** Transient failures in a row before the run stops instead of failing every remaining row. */
export const MAX_CONSECUTIVE_TRANSIENT = 5;

export interface PacerOptions {
  now(): number;
  /** Rejects when the run is interrupted. */
  sleep(ms: number): Promise<void>;
  /** --max-wait when given: a longer wait stops the run with a RateLimitError. */
  maxWaitMs?: number | undefined;
  /** Told before each wait (for the status line and "waiting until HH:MM"). */
  onWait(until: number, reason: string): void;
  /** A time as the user reads it (messages). */
  formatTime(epochMs: number): string;
}

export interface FailureInfo {
  code: string;
  message: string;
  requestId: string | null;
}

export type Attempt<T> =
  | { kind: 'ok'; value: T }
  /** The row's idempotency key was used with other bytes (media uploaded again after the journal was lost): its post exists. */
  | { kind: 'reused' }
  /** Nothing more can be done the same way (auth, Ctrl-C, a wait beyond --max-wait): the run stops. */
  | { kind: 'stop'; error: unknown }
  /** This row failed; the run goes on unless too many transient failures came in a row. */
  | { kind: 'failed'; error: unknown; transient: boolean; info: FailureInfo };

export class Pacer {
  /** The longest wait a single request may sleep through. */
  readonly maxWaitMs: number;
  private rate: { info: RateLimitInfo; at: number } | undefined;
  private transientRun = 0;

  constructor(private readonly options: PacerOptions) {
    this.maxWaitMs = options.maxWaitMs ?? PATIENT_MS;
  }

  /** The budget the last response reported, if any. */
  get rateInfo(): RateLimitInfo | undefined {
    return this.rate?.info;
  }

  /** The RateLimit headers of a response (the client's onRateLimit). */
  noteRateLimit(info: RateLimitInfo): void {
    this.rate = { info, at: this.options.now() };
  }

  /** Runs `send` at the pace the service allows, retrying it after a 429 once the service said to come back. */
  async attempt<T>(send: () => Promise<T>): Promise<Attempt<T>> {
    for (;;) {
      try {
        await this.respectWindow();
        return { kind: 'ok', value: await send() };
      } catch (err) {
        if (err instanceof RateLimitError) {
          try {
            await this.waitUntil(this.retryAt(err), 'rate limit: Retry-After');
            continue;
          } catch (waitErr) {
            return { kind: 'stop', error: waitErr };
          }
        }
        if (err instanceof ApiError && err.kind === 'idempotency-key-reused') return { kind: 'reused' };
        if (isFatal(err)) return { kind: 'stop', error: err };
        return { kind: 'failed', error: err, transient: isTransient(err), info: describeFailure(err) };
      }
    }
  }

  /** Counts an outcome towards "too many transient failures in a row": true when the run must stop. */
  tooManyFailures(outcome: Attempt<unknown>): boolean {
    if (outcome.kind !== 'failed') this.transientRun = 0;
    else if (outcome.transient) return ++this.transientRun >= MAX_CONSECUTIVE_TRANSIENT;
    return false;
  }

  /** Waits out a window the last response announced as used up. */
  private async respectWindow(): Promise<void> {
    const rate = this.rate;
    if (!rate || rate.info.remaining !== 0 || !rate.info.resetSeconds) return;
    this.rate = undefined;
    await this.waitUntil(rate.at + rate.info.resetSeconds * 1000, 'rate limit: no writes left in this window');
  }

  /**
   * Waits until then, or fails beyond --max-wait (a week without it: a service that asks for more,
   * up to a date no timer or Date can hold, stops the run rather than spinning on it).
   */
  private async waitUntil(until: number, reason: string): Promise<void> {
    const ms = until - this.options.now();
    if (ms <= 0) return;
    if (ms > this.maxWaitMs) {
      const dated = Math.abs(until) <= LAST_DATE_MS;
      const limit = this.options.maxWaitMs !== undefined ? '--max-wait' : 'a week, the longest a bulk run waits without --max-wait';
      throw new RateLimitError(`rate limited: the next write is allowed ${dated ? `at ${this.options.formatTime(until)}` : 'no time soon'}, beyond ${limit}`, dated ? { retryAt: until } : {});
    }
    this.options.onWait(until, reason);
    await this.options.sleep(ms);
  }

  /**
   * When the service said to come back: the 429's own time, else the end of the last window (a
   * minute when unknown); never, when it asked for a wait beyond the client's and no date holds it.
   */
  private retryAt(err: RateLimitError): number {
    if (err.retryAt === undefined && (err.stoppedBy === 'max-wait' || err.stoppedBy === 'both')) return Infinity;
    return err.retryAt ?? this.options.now() + (this.rate?.info.resetSeconds ?? 60) * 1000;
  }
}

export function isAbortLike(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'AbortedError');
}

/** Errors that would fail every remaining row the same way: stop and say so. */
function isFatal(err: unknown): boolean {
  if (isAbortLike(err)) return true;
  return err instanceof ApiError && (err.kind === 'auth' || err.kind === 'addon-required' || err.kind === 'aborted');
}

function isTransient(err: unknown): boolean {
  return !(err instanceof ApiError) || ['network', 'timeout', 'server', 'conflict', 'response-shape'].includes(err.kind);
}

function describeFailure(err: unknown): FailureInfo {
  if (err instanceof ApiError) {
    const issues = err.issues.map((i) => `${i.path}: ${i.message}`).join('; ');
    return { code: err.code ?? err.kind.toUpperCase().replace(/-/g, '_'), message: issues ? `${err.message} (${issues})` : err.message, requestId: err.requestId ?? null };
  }
  return { code: 'ERROR', message: err instanceof Error ? err.message : String(err), requestId: null };
}
