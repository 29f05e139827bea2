// How long a bulk run takes at the write budget the service reports (RateLimit-* headers): said
// before the run spends it, so a run of 400 writes against 100 an hour is known to take hours.
import type { RateLimitInfo } from '../../client/types.js';

/** The service's windows are an hour long (contract: limits per workspace per hour). */
export const WINDOW_SECONDS = 3600;

export interface BudgetEstimate {
  writes: number;
  remaining: number;
  limit: number;
  /** Seconds until the last of those writes is allowed. */
  seconds: number;
}

/** Undefined when the writes fit in what is left now, or the service reported no budget. */
export function estimateBudget(writes: number, info: RateLimitInfo | undefined): BudgetEstimate | undefined {
  if (!info || info.limit === undefined || info.remaining === undefined || info.limit <= 0) return undefined;
  if (writes <= info.remaining) return undefined;
  const later = writes - info.remaining;
  const windows = Math.ceil(later / info.limit);
  const seconds = (info.resetSeconds ?? WINDOW_SECONDS) + (windows - 1) * WINDOW_SECONDS;
  return { writes, remaining: info.remaining, limit: info.limit, seconds };
}

/** "about 2 h 10 min" */
export function formatDuration(seconds: number): string {
  const m = Math.ceil(seconds / 60);
  if (m < 60) return `about ${m} min`;
  const h = Math.floor(m / 60);
  return `about ${h} h${m % 60 ? ` ${m % 60} min` : ''}`;
}

export function budgetNote(e: BudgetEstimate): string {
  return `this run needs up to ${e.writes} writes and the service allows ${e.limit} an hour (${e.remaining} left now): it will take ${formatDuration(e.seconds)} at that budget; the run waits for each window (Ctrl-C stops it, and a re-run resumes)`;
}
