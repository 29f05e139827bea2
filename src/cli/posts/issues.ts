// Validation problems → one UsageError (exit 2) whose message names each field and its fix.
import { UsageError } from '../cli-error.js';
import type { Issue } from './draft.js';
import { TimeInputError } from './when.js';

export function issuesError(issues: readonly Issue[], what = 'the post'): UsageError {
  if (issues.length === 1) {
    const i = issues[0]!;
    return new UsageError(i.message, i.fix ? [i.fix] : [], 'INVALID_INPUT');
  }
  const lines = issues.map((i) => `  - ${i.message}${i.fix ? `\n      fix: ${i.fix}` : ''}`);
  return new UsageError(`${issues.length} problems in ${what}; nothing was sent:\n${lines.join('\n')}`, [], 'INVALID_INPUT');
}

/** Runs fn; a TimeInputError becomes an issue (returned undefined), anything else is thrown. */
export function catchTime<T>(issues: Issue[], fn: () => T): T | undefined {
  try {
    return fn();
  } catch (e) {
    if (e instanceof TimeInputError) {
      issues.push({ field: e.field, message: e.message, ...(e.hint ? { fix: e.hint } : {}) });
      return undefined;
    }
    throw e;
  }
}
