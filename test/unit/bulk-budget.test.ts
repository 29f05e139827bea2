// How long a bulk run takes at the write budget the service reports (RateLimit-* headers).
import { describe, expect, it } from 'vitest';
import { budgetNote, estimateBudget, formatDuration } from '../../src/posts/bulk/budget.js';

describe('estimateBudget', () => {
  it('says nothing when the writes fit in what is left, or when the service reported no budget', () => {
    expect(estimateBudget(40, { limit: 100, remaining: 40, resetSeconds: 1200 })).toBeUndefined();
    expect(estimateBudget(400, undefined)).toBeUndefined();
    expect(estimateBudget(400, { limit: undefined, remaining: undefined, resetSeconds: undefined })).toBeUndefined();
  });

  it('312 writes at 100 an hour with 12 left and the window resetting in 20 min: three more windows', () => {
    const e = estimateBudget(312, { limit: 100, remaining: 12, resetSeconds: 1200 })!;
    // 12 now; 300 more at 100 a window: the last window opens 20 min + 2 h from now.
    expect(e.seconds).toBe(1200 + 2 * 3600);
    expect(budgetNote(e)).toContain('up to 312 writes and the service allows 100 an hour (12 left now): it will take about 2 h 20 min');
  });

  it('words durations in minutes and hours', () => {
    expect(formatDuration(59)).toBe('about 1 min');
    expect(formatDuration(3600)).toBe('about 1 h');
    expect(formatDuration(5400)).toBe('about 1 h 30 min');
  });
});
