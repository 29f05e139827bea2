// receivedAt (src/listen/clock.ts): the text Date.prototype.toISOString gives for every time,
// although Date formats only once a second; the cache must never hand out another millisecond's
// or another second's text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { receivedAtText } from '../../src/listen/clock.js';

const iso = (t: number) => new Date(t).toISOString();

describe('receivedAtText', () => {
  it('gives toISOString for each time, in any order, across second, day and year boundaries', () => {
    const at = receivedAtText();
    const base = Date.UTC(2026, 11, 31, 23, 59, 59, 998);
    for (const t of [base, base, base + 1, base + 2, base + 1, base + 1000, base - 999, 0, -0, -1, -1000, -1001, 999.9, -0.5, 1.5, base + 0.25, 8.64e15, -8.64e15, 253402300799999, 253402300800000]) {
      expect(at(t), String(t)).toBe(iso(t));
    }
  });

  it('agrees with toISOString on generated sequences of times', () => {
    const time = fc.oneof(
      fc.integer({ min: -8.64e15, max: 8.64e15 }),
      fc.integer({ min: 1_700_000_000_000, max: 1_700_000_003_000 }),
      fc.double({ min: -1e13, max: 1e13, noNaN: true }),
    );
    fc.assert(
      fc.property(fc.array(time, { minLength: 1, maxLength: 30 }), (times) => {
        const at = receivedAtText();
        for (const t of times) expect(at(t)).toBe(iso(t));
      }),
      { numRuns: 500 },
    );
  });

  it('outside the range of a Date, throws as toISOString does', () => {
    const at = receivedAtText();
    for (const t of [8.64e15 + 1, -8.64e15 - 1, NaN, Infinity]) {
      expect(() => at(t)).toThrow(RangeError);
      expect(() => iso(t)).toThrow(RangeError);
    }
  });
});
