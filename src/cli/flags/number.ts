// Whole numbers (--limit, --offset, --port, --concurrency, --expect …): digits only, `_` and `,`
// allowed as thousands separators, within a range.
import { flagError, quote } from './error.js';

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
