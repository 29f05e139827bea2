// Whole-number flags (--offset, --limit, --concurrency, --expect) checked before any request.
import { UsageError } from '../cli-error.js';

export function parseWholeNumber(flag: string, value: string | undefined, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim().replace(/_/g, '');
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
    throw new UsageError(`${flag}: "${value}" is not a whole number ${range}`);
  }
  return n;
}

/** 4213 → "4,213" (fixed locale, so output does not depend on the machine). */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
