// The sandbox's list machinery against naive implementations: ids decode to what they encode
// (and nothing else), merged pages equal sort-then-slice, status pages equal filter-then-slice.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdCodec } from '../../src/sandbox/ids.js';
import { entropyFromSeed } from '../../src/sandbox/random.js';
import { CategoryIndex } from '../../src/sandbox/store/category-index.js';
import { mergedPageDescending } from '../../src/sandbox/store/merge-page.js';

describe('IdCodec', () => {
  const codec = new IdCodec(entropyFromSeed(1));

  it('decodes what it encodes, for any scope and index', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 65535 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (scope, index) => {
        const id = codec.encode('result', scope, index);
        expect(id).toMatch(/^res_[0-9A-Za-z]{12}$/);
        expect(codec.decode('result', scope, id)).toBe(index);
      }),
    );
  });

  it('rejects ids of another scope, another kind, another seed, or garbage', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 1_000_000 }), (scope, index) => {
        const id = codec.encode('post', scope, index);
        expect(codec.decode('post', scope + 1, id)).toBeUndefined();
        expect(codec.decode('result', scope, id.replace('post_', 'res_'))).toBeUndefined();
        expect(new IdCodec(entropyFromSeed(2)).decode('post', scope, id)).toBeUndefined();
      }),
    );
    for (const junk of ['', 'post_', 'post_000000000000', 'post_zzzzzzzzzzzz', 'post_!!!!!!!!!!!!', 'post_0000000000000']) expect(codec.decode('post', 1, junk)).toBeUndefined();
  });

  it('looks random: consecutive indexes share no obvious prefix', () => {
    const ids = Array.from({ length: 50 }, (_, i) => codec.encode('post', 1, i));
    expect(new Set(ids.map((id) => id.slice(5, 8))).size).toBeGreaterThan(40);
  });
});

describe('mergedPageDescending', () => {
  it('equals merging everything, sorting newest first, then slicing', () => {
    const lists = fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 5000 }), { maxLength: 200 }), { minLength: 1, maxLength: 9 });
    fc.assert(
      fc.property(lists, fc.nat(1200), fc.integer({ min: 1, max: 100 }), (raw, offset, limit) => {
        // Disjoint ascending lists, as the per-platform indexes are.
        const seen = new Set<number>();
        const disjoint = raw.map((l) => l.filter((v) => !seen.has(v) && seen.add(v)).sort((a, b) => a - b));
        const expected = disjoint.flat().sort((a, b) => b - a);
        const page = mergedPageDescending(disjoint, offset, limit);
        expect(page.total).toBe(expected.length);
        expect(page.rows).toEqual(expected.slice(offset, offset + limit));
      }),
      { numRuns: 300 },
    );
  });
});

describe('CategoryIndex', () => {
  it('pages the rows of a set of categories newest first, through pushes and changes', () => {
    const op = fc.oneof(
      fc.record({ push: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ set: fc.nat(), to: fc.integer({ min: 0, max: 3 }) }),
    );
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 100 }), fc.array(op, { maxLength: 150 }), fc.uniqueArray(fc.integer({ min: 0, max: 3 }), { minLength: 1 }), fc.nat(120), fc.integer({ min: 1, max: 30 }), (initial, ops, cats, offset, limit) => {
        const index = new CategoryIndex(4, initial);
        const naive = [...initial];
        for (const o of ops) {
          if ('push' in o) {
            index.push(o.push);
            naive.push(o.push);
          } else if (naive.length) {
            const pos = o.set % naive.length;
            index.set(pos, o.to);
            naive[pos] = o.to;
          }
        }
        const expected = naive.map((c, i) => [c, i] as const).filter(([c]) => cats.includes(c)).map(([, i]) => i).reverse();
        const page = index.pageDescending(cats, offset, limit);
        expect(page.total).toBe(expected.length);
        expect(page.rows).toEqual(expected.slice(offset, offset + limit));
      }),
      { numRuns: 300 },
    );
  });
});
