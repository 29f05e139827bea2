// http(s) URLs (--forward-to, --webhook-url, --base-url).
import { flagError, quote } from './error.js';

export function httpUrl(flag: string, value: string, example: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw flagError(flag, `${quote(value)} is not an http(s) URL`, [`for example ${flag} ${example}`]);
  return value;
}

/** A value that must not be empty (an unset shell variable would otherwise widen a command). */
export function nonEmpty(flag: string, value: string, what: string): string {
  const t = value.trim();
  if (!t) throw flagError(flag, `give ${what}`);
  return t;
}
