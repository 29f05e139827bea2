// Time problems found while composing become issues, so that every problem of a post is reported
// at once (one InvalidInputError) instead of the first one alone.
import type { Issue } from './draft.js';
import { TimeInputError } from './when.js';

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
