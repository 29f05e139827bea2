// Durations as the contract writes them: 500ms, 30s, 10m, 2h, 1d (a bare number is seconds).
// A duration no timer can hold (Node's timers top out at 2^31-1 ms, about 24.8 days) is refused:
// Node would warn and fire the timer at once, so every request would time out immediately.
import { flagError, quote } from './error.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The longest delay setTimeout honours. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!m) return undefined;
  const ms = Number(m[1]) * (UNIT_MS[m[2] ?? 's'] ?? 1000);
  return Number.isFinite(ms) ? Math.round(ms) : undefined;
}

export interface DurationRules {
  /** Whether 0 is accepted (latency 0ms yes, a timeout of 0 no). */
  allowZero?: boolean;
}

export function duration(flag: string, value: string, { allowZero = false }: DurationRules = {}): number {
  const ms = parseDuration(value);
  if (ms === undefined || (!allowZero && ms <= 0)) {
    throw flagError(flag, `${quote(value)} is not a duration`, ['use a number with a unit: 500ms, 30s, 10m, 2h, 1d']);
  }
  if (ms > MAX_TIMER_MS) throw flagError(flag, `${quote(value)} is longer than any timer can wait (24 days)`, ['use at most 24d']);
  return ms;
}

export function optionalDuration(flag: string, value: string | undefined, rules?: DurationRules): number | undefined {
  return value === undefined ? undefined : duration(flag, value, rules);
}
