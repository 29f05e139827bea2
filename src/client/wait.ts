// Sleeping between attempts so that Ctrl-C ends the wait at once, even when an injected sleep
// ignores the signal.
import { AbortedError } from './errors.js';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const timerSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Fires when any of the signals fires; `dispose` removes the listeners (long-lived ctx.signal). */
export function linkSignals(signals: ReadonlyArray<AbortSignal | undefined>): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const live = signals.filter((s): s is AbortSignal => s !== undefined);
  const onAbort = () => controller.abort();
  for (const s of live) {
    if (s.aborted) {
      controller.abort();
      break;
    }
    s.addEventListener('abort', onAbort, { once: true });
  }
  return { signal: controller.signal, dispose: () => live.forEach((s) => s.removeEventListener('abort', onAbort)) };
}

export async function interruptibleSleep(sleep: Sleep, ms: number, signals: ReadonlyArray<AbortSignal | undefined>): Promise<void> {
  const linked = linkSignals(signals);
  try {
    if (linked.signal.aborted) throw new AbortedError();
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(new AbortedError());
      linked.signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([sleep(ms, linked.signal), aborted]);
    } catch (err) {
      if (linked.signal.aborted) throw new AbortedError();
      throw err;
    } finally {
      linked.signal.removeEventListener('abort', onAbort!);
      aborted.catch(() => {});
    }
  } finally {
    linked.dispose();
  }
}
