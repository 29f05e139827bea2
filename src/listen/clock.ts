// The listener's time. Signature tolerance, receivedAt, the slow-body sweep, forward timeouts,
// forward backoff and the close grace all read it, so tests pass a manual clock and never sleep.

export interface ListenerClock {
  now(): number;
  /** A pause the listener chooses (forward backoff). Rejects when the signal fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Calls `fn` once `ms` have passed on this clock and returns a cancel function. Deadlines that
   * race I/O (a forward's timeout, the close grace) and the slow-body sweep use this, not sleep:
   * a test clock may end sleeps at once, but a deadline must pass only when time does.
   */
  after(ms: number, fn: () => void): () => void;
}

export const systemListenerClock: ListenerClock = {
  now: () => Date.now(),
  sleep(ms, signal) {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortError());
      const onAbort = () => {
        cancel();
        reject(abortError());
      };
      const cancel = systemListenerClock.after(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

/**
 * The clock to use: the parts given (a command passes its own `{ now, sleep }`) and the system's
 * for the rest.
 */
export function listenerClock(given: Partial<ListenerClock> = {}): ListenerClock {
  return {
    // Bound, not wrapped: now() runs several times per delivery.
    now: given.now ? given.now.bind(given) : systemListenerClock.now,
    sleep: given.sleep ? given.sleep.bind(given) : systemListenerClock.sleep,
    after: given.after ? given.after.bind(given) : systemListenerClock.after,
  };
}

function abortError(): Error {
  const e = new Error('interrupted');
  e.name = 'AbortError';
  return e;
}

/**
 * receivedAt for events: deliveries arrive many per millisecond under load, and one ISO string
 * per millisecond of the listener's clock will do. Given the time the caller already read.
 * Date's own formatting (toISOString) runs once per second: within it, the milliseconds are put
 * after the second's text, the same characters for a few string joins instead of a formatted
 * print per millisecond.
 */
export function receivedAtText(): (t: number) => string {
  let isoMs = NaN;
  let iso = '';
  let second = NaN;
  /** The second's text up to and with the dot: 2026-01-02T03:04:05. */
  let secondText = '';
  return (t) => {
    if (t === isoMs) return iso;
    isoMs = t;
    // A Date keeps whole milliseconds, cut toward zero.
    const ms = Math.trunc(t);
    // Outside Date's range (or not a number): Date says so, as it always did.
    if (!(Math.abs(ms) <= MAX_DATE_MS)) return (iso = new Date(t).toISOString());
    const s = Math.floor(ms / 1000);
    if (s !== second) {
      second = s;
      secondText = new Date(s * 1000).toISOString().slice(0, -4);
    }
    const within = ms - s * 1000;
    return (iso = `${secondText}${within < 10 ? '00' : within < 100 ? '0' : ''}${within}Z`);
  };
}

/** The largest distance from 1970 a Date holds, in milliseconds (ECMAScript's TimeClip). */
const MAX_DATE_MS = 8.64e15;
