// The sandbox's notion of time. The publisher, webhook retries, rate windows, idempotency
// expiry and every timestamp read it, so tests pass a manual clock and never sleep.

export interface SandboxClock {
  now(): number;
  /**
   * Calls `fn` once the clock reaches `atMs` (soon, when that is already past) and returns a
   * cancel function. A manual clock waits for the promise `fn` returns before moving on.
   */
  setTimer(atMs: number, fn: () => unknown): () => void;
}

export interface ManualClock extends SandboxClock {
  now(): number;
  /**
   * Moves time forward by `ms`, running every timer that falls due on the way, in time order,
   * each at its own instant and each awaited (so a publish, its webhook deliveries and the
   * retries they schedule inside the window all complete before this resolves).
   */
  advance(ms: number): Promise<void>;
  /** Resolves when advance() reaches now + ms; lets code written against a sleeping clock run on this one. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Timers waiting to fire (for tests and debugging). */
  pendingTimers(): number;
}

/**
 * Where a failing timer (a publish, a webhook attempt) is reported. It must not crash the
 * sandbox: the process holds every workspace's state and other clients' requests, and one
 * failed task says nothing about the others; nor may it vanish silently, or a bug in the
 * publisher would look like a post that never published. Tests replace it to see failures.
 */
let reporter: (err: unknown) => void = (err) => {
  process.stderr.write(`sandbox: a scheduled task failed (the sandbox keeps running): ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
};

export function reportTimerError(err: unknown): void {
  reporter(err);
}

/** Replaces the reporter (default: a line on stderr); returns the previous one. */
export function onTimerError(report: (err: unknown) => void): (err: unknown) => void {
  const previous = reporter;
  reporter = report;
  return previous;
}

/** Longest delay setTimeout accepts; longer waits re-arm. */
const MAX_TIMEOUT = 2_147_483_647;

export const systemClock: SandboxClock = {
  now: () => Date.now(),
  setTimer(atMs, fn) {
    let handle: NodeJS.Timeout | undefined;
    let cancelled = false;
    const arm = () => {
      const delay = atMs - Date.now();
      if (delay > MAX_TIMEOUT) {
        handle = setTimeout(arm, MAX_TIMEOUT);
      } else {
        handle = setTimeout(() => {
          if (!cancelled) void Promise.resolve().then(fn).catch((err: unknown) => reportTimerError(err));
        }, Math.max(0, delay));
      }
      // Timers never keep a process alive on their own: the server does, and close() cancels them.
      handle.unref();
    };
    arm();
    return () => {
      cancelled = true;
      if (handle) clearTimeout(handle);
    };
  },
};

interface ManualTimer {
  at: number;
  seq: number;
  fn: () => unknown;
}

/** One turn of the event loop: every microtask queued before it has run. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createManualClock(startMs: number = Date.now()): ManualClock {
  let now = startMs;
  let seq = 0;
  let timers: ManualTimer[] = [];
  let queue: Promise<void> = Promise.resolve();

  const nextDue = (limit: number): ManualTimer | undefined => {
    let best: ManualTimer | undefined;
    for (const t of timers) {
      if (t.at <= limit && (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq))) best = t;
    }
    return best;
  };

  const clock: ManualClock = {
    now: () => now,
    setTimer(atMs, fn) {
      const timer: ManualTimer = { at: atMs, seq: seq++, fn };
      timers.push(timer);
      return () => {
        timers = timers.filter((t) => t !== timer);
      };
    },
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) return Promise.reject(new RangeError(`advance(${ms}): expected a duration ≥ 0`));
      // Calls are serialised: a second advance() starts where the first one ends.
      const run = async () => {
        const target = now + ms;
        for (let due = nextDue(target); due; due = nextDue(target)) {
          timers = timers.filter((t) => t !== due);
          if (due.at > now) {
            // What the timers before woke runs to its next wait at their time, as it would on a
            // real clock, before time moves on: a check of the time and the request it allows
            // must not see two different times.
            await turn();
            now = due.at;
          }
          try {
            await due.fn();
          } catch (err) {
            // A failing timer must not stop time; it is reported, not hidden.
            reportTimerError(err);
          }
        }
        // One turn of the event loop, too, so that I/O started by the timers gets going.
        await turn();
        if (target > now) now = target;
      };
      queue = queue.then(run, run);
      return queue;
    },
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(abortError());
        const cancel = clock.setTimer(now + Math.max(0, ms), () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        });
        const onAbort = () => {
          cancel();
          reject(abortError());
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    pendingTimers: () => timers.length,
  };
  return clock;
}

function abortError(): Error {
  const e = new Error('interrupted');
  e.name = 'AbortError';
  return e;
}
