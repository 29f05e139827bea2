// The sandbox's list machinery against naive implementations: ids decode to what they encode
// (and nothing else), merged pages equal sort-then-slice, status pages (stored posts on top of
// the fixtures) equal filter-then-slice.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdCodec } from '../../src/sandbox/ids.js';
import { entropyFromSeed } from '../../src/sandbox/random.js';
import { openStore } from '../../src/sandbox/db/open.js';
import { Workspace } from '../../src/sandbox/workspace.js';
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

describe('Workspace pages (stored rows stacked on the fixtures)', () => {
  const STATUSES = ['draft', 'scheduled', 'published', 'failed'] as const;
  it('equal filtering every post, newest first, then slicing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.array(fc.record({ status: fc.constantFrom(...STATUSES), deleted: fc.boolean() }), { maxLength: 30 }),
        fc.uniqueArray(fc.constantFrom(...STATUSES), { maxLength: 4 }),
        fc.nat(80),
        fc.integer({ min: 1, max: 30 }),
        (fixtures, live, statuses, offset, limit) => {
          const store = openStore(undefined);
          try {
            const entropy = entropyFromSeed(7);
            const ws = new Workspace(entropy, new IdCodec(entropy), store, { name: 'demo', tag: 1, apiKey: 'k', addon: true, fixtures: { count: fixtures, anchorMs: 0, failureRate: 0.3 } }, { write: 10, read: 10 });
            const all: { index: number; status: string }[] = [];
            for (let j = 0; j < (ws.fixtures?.postCount ?? 0); j++) all.push({ index: j, status: ws.postStatus(j) });
            for (const p of live) {
              const post = ws.addPost({ status: p.status, payloads: {}, scheduledAt: null, createdAt: 0, updatedAt: 0, ...(p.deleted ? { deleted: true as const } : {}) });
              if (!p.deleted) all.push({ index: post.index, status: p.status });
            }
            const wanted = statuses.length ? statuses : STATUSES;
            const expected = all.filter((p) => (wanted as readonly string[]).includes(p.status)).map((p) => p.index).reverse();
            const page = ws.postsPage(statuses, offset, limit);
            expect(page.total).toBe(expected.length);
            expect(page.items).toEqual(expected.slice(offset, offset + limit));
          } finally {
            store.close();
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
