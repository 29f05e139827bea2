// Numbers and durations. Whole numbers (--limit, --offset, --port, --concurrency, --expect …):
// digits only, `_` and `,` allowed as thousands separators, within a range. Durations as the
// flags take them: 500ms, 30s, 10m, 2h, 1d (a bare number is seconds); a duration no timer can
// hold (Node's timers top out at 2^31-1 ms, about 24.8 days) is refused, because Node would
// warn and fire the timer at once, so every request would time out immediately.
import { flagError, quote } from './text.js';

export interface NumberRange {
  min?: number;
  max?: number;
}

export function wholeNumber(flag: string, value: string, { min = 0, max = Number.MAX_SAFE_INTEGER }: NumberRange = {}): number {
  const text = String(value).trim().replace(/[_,]/g, '');
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max.toLocaleString('en-US')}`;
    throw flagError(flag, `${quote(value)} is not a whole number ${range}`, [`e.g. ${flag} ${Math.max(min, Math.min(max, 20))}`]);
  }
  return n;
}

/** A whole number, or undefined when the flag was not given. */
export function optionalWholeNumber(flag: string, value: string | undefined, range?: NumberRange): number | undefined {
  return value === undefined ? undefined : wholeNumber(flag, value, range);
}

/** A share from 0 to 1, also written as a percentage (`0.2`, `20%`). */
export function share(flag: string, value: string): number {
  const percent = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(value);
  const n = percent ? Number(percent[1]) / 100 : Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw flagError(flag, `${quote(value)} is not a share from 0 to 1`, ['for example 0.2 or 20%']);
  return n;
}

/** An integer seed (may be negative). */
export function integer(flag: string, value: string): number {
  if (!/^-?\d{1,15}$/.test(value.trim())) throw flagError(flag, `${quote(value)} is not a whole number`);
  return Number(value.trim());
}

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
  // "0s" and "-5s" are durations, only not ones this flag can use: say that, not "not a duration".
  const negative = ms === undefined && parseDuration(value.trim().replace(/^-/, '')) !== undefined;
  if (negative || (ms === 0 && !allowZero)) {
    const [least, fix] = allowZero ? ['0s or more', 'give 0s or a duration such as 30s or 5m'] : ['more than 0s', 'give a positive duration such as 30s or 5m'];
    throw flagError(flag, `must be ${least}, not ${quote(value)}`, [fix]);
  }
  if (ms === undefined) throw flagError(flag, `${quote(value)} is not a duration`, ['use a number with a unit: 500ms, 30s, 10m, 2h, 1d']);
  if (ms > MAX_TIMER_MS) throw flagError(flag, `${quote(value)} is longer than any timer can wait (24 days)`, ['use at most 24d']);
  return ms;
}

export function optionalDuration(flag: string, value: string | undefined, rules?: DurationRules): number | undefined {
  return value === undefined ? undefined : duration(flag, value, rules);
}
