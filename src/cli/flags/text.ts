// The one shape of a bad flag value (`--flag: what is wrong`, then the fix as a hint, exit 2),
// and the flags taken as text: repeatable lists, http(s) URLs, values that must not be empty.
import { UsageError } from '../cli-error.js';

export function flagError(flag: string, problem: string, fixes: ReadonlyArray<string | undefined> = [], code = 'USAGE'): UsageError {
  return new UsageError(`${flag}: ${problem}`, fixes.filter((f): f is string => Boolean(f)), code);
}

/** `"value"` as it is quoted in messages. */
export const quote = (value: string) => JSON.stringify(value);

// Repeatable flags: commander collects every occurrence, and each may hold a comma list, so
// `--platform a,b --platform c` and `--platform a --platform b,c` mean the same.
/** Commander's accumulator for a repeatable flag. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Every occurrence split on commas, trimmed, empties and repeats dropped, order kept. */
export function splitList(values: readonly string[] | undefined): string[] {
  const out: string[] = [];
  for (const v of values ?? []) {
    for (const part of v.split(',')) {
      const t = part.trim();
      if (t && !out.includes(t)) out.push(t);
    }
  }
  return out;
}

/**
 * splitList for a flag whose every occurrence must name something: a blank one (an unset shell
 * variable, `--platform " "`) is refused, not read as the flag left out, which would widen a
 * filter or drop a change unsaid.
 */
export function givenList(flag: string, values: readonly string[] | undefined, what: string, fixes: readonly string[] = []): string[] {
  if (values?.some((v) => !/[^\s,]/.test(v))) throw flagError(flag, `give ${what}`, fixes);
  return splitList(values);
}

// http(s) URLs (--forward-to, --webhook-url, --base-url).
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
