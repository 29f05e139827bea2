// A platform-filtered page of stored results (index lookups: each row's nth among its
// platform's, a bisection for the page's first row) against filter-then-slice, for any mix of
// platforms, workspaces, offsets and limits.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/sandbox/db/open.js';
import { insertResult, resultPage } from '../../src/sandbox/db/results.js';
import { PLATFORMS, type Platform } from '../../src/wire/platforms.js';

const platform = fc.constantFrom(...PLATFORMS);

describe('resultPage', () => {
  it('equals filter-then-slice of the rows in newest-first order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ workspace: fc.integer({ min: 1, max: 2 }), platform, gap: fc.integer({ min: 1, max: 3 }) }), { maxLength: 120 }),
        fc.uniqueArray(platform, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 130 }),
        fc.integer({ min: 0, max: 20 }),
        (rows, wanted, offset, limit) => {
          const store = openStore(undefined);
          try {
            const kept: { workspace: number; row: number; platform: Platform }[] = [];
            let row = 5;
            store.transaction(() => {
              for (const r of rows) {
                row += r.gap;
                insertResult(store, r.workspace, { row, post: row, platform: r.platform, success: true, noAccount: false, brokeRule: false, at: row, account: 0 });
                kept.push({ workspace: r.workspace, row, platform: r.platform });
              }
            });
            const matches = kept.filter((k) => k.workspace === 1 && wanted.includes(k.platform)).map((k) => k.row).reverse();
            expect(resultPage(store, 1, wanted, offset, limit)).toEqual({ total: matches.length, items: offset >= matches.length ? [] : matches.slice(offset, offset + limit) });
          } finally {
            store.close();
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
