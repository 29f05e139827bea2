// The one shape of a bad flag value: `--flag: what is wrong`, then the fix as a hint (exit 2).
import { UsageError } from '../cli-error.js';

export function flagError(flag: string, problem: string, fixes: ReadonlyArray<string | undefined> = [], code = 'USAGE'): UsageError {
  return new UsageError(`${flag}: ${problem}`, fixes.filter((f): f is string => Boolean(f)), code);
}

/** `"value"` as it is quoted in messages. */
export const quote = (value: string) => JSON.stringify(value);
