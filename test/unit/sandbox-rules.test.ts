// Small rule tables of the sandbox: timestamps, rate windows, idempotency fingerprints, the
// constant-time key ring and the chaos picker's reproducibility.
import { describe, expect, it } from 'vitest';
import { Chaos } from '../../src/sandbox/chaos.js';
import { openStore } from '../../src/sandbox/db/open.js';
import { fingerprint, IdempotencyKeys } from '../../src/sandbox/idempotency.js';
import { KeyRing, makeApiKey } from '../../src/sandbox/keys.js';
import { RollingWindow } from '../../src/sandbox/rate-limit.js';
import { entropyFromSeed } from '../../src/sandbox/random.js';
import { parseTimestamp } from '../../src/sandbox/timestamps.js';
import { checkCreatePost } from '../../src/sandbox/validation.js';

describe('parseTimestamp', () => {
  it.each([
    ['2026-12-01T09:00:00Z', Date.UTC(2026, 11, 1, 9)],
    ['2026-12-01T09:00:00.250Z', Date.UTC(2026, 11, 1, 9, 0, 0, 250)],
    ['2026-12-01t10:00:00+01:00', Date.UTC(2026, 11, 1, 9)],
    ['2026-12-01 04:30-04:30', Date.UTC(2026, 11, 1, 9)],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
  ])('reads %s', (text, ms) => {
    expect(parseTimestamp(text)).toEqual({ ok: true, ms });
  });

  it.each([
    ['2026-12-01T09:00:00', 'no-offset'],
    ['2026-12-01', 'malformed'],
    ['2025-02-29T00:00:00Z', 'malformed'],
    ['2026-13-01T00:00:00Z', 'malformed'],
    ['2026-12-01T24:00:00Z', 'malformed'],
    ['2026-12-01T09:00:00+25:00', 'malformed'],
    ['next tuesday', 'malformed'],
  ])('refuses %s (%s)', (text, reason) => {
    expect(parseTimestamp(text)).toEqual({ ok: false, reason });
  });
});

describe('RollingWindow', () => {
  it('frees each slot exactly an hour after it was taken', () => {
    const w = new RollingWindow(2);
    expect(w.take(0)).toBe(true);
    expect(w.take(600_000)).toBe(true);
    expect(w.take(600_001)).toBe(false);
    expect(w.retryAfterSeconds(600_001)).toBe(3000);
    expect(w.remaining(3_599_999)).toBe(0);
    expect(w.take(3_600_000)).toBe(true);
    expect(w.remaining(4_200_000)).toBe(1);
  });
});

describe('idempotency', () => {
  it('fingerprints JSON by value, not by key order or spacing, and includes the path', () => {
    const a = fingerprint('POST', '/v1/posts', Buffer.from('{"a":1,"b":{"c":[1,2]}}'));
    expect(fingerprint('POST', '/v1/posts', Buffer.from('{ "b": {"c": [1, 2]}, "a": 1 }'))).toBe(a);
    expect(fingerprint('POST', '/v1/schedule', Buffer.from('{"a":1,"b":{"c":[1,2]}}'))).not.toBe(a);
    expect(fingerprint('POST', '/v1/posts', Buffer.from('{"a":1,"b":{"c":[2,1]}}'))).not.toBe(a);
  });

  it('admits, replays, refuses and expires', () => {
    const store = openStore(undefined);
    const cache = new IdempotencyKeys(store, 1, 1000);
    expect(cache.begin('k', 'f1', 0)).toEqual({ kind: 'new' });
    expect(cache.begin('k', 'f1', 1)).toEqual({ kind: 'in-flight' });
    cache.complete('k', { status: 201, body: '{}' });
    expect(cache.begin('k', 'f1', 2)).toEqual({ kind: 'replay', response: { status: 201, body: '{}' } });
    expect(cache.begin('k', 'f2', 3)).toEqual({ kind: 'mismatch' });
    // Another workspace's key of the same name is another key.
    expect(new IdempotencyKeys(store, 2, 1000).begin('k', 'f2', 3)).toEqual({ kind: 'new' });
    expect(cache.begin('k', 'f2', 1000)).toEqual({ kind: 'new' });
    store.close();
  });
});

describe('KeyRing', () => {
  it('finds the owner of a key, and nothing for a prefix, an extension or another key', () => {
    const a = makeApiKey(undefined, 1);
    const b = makeApiKey(undefined, 2);
    expect(a).toMatch(/^sk_sandbox_[0-9A-Za-z]{32}$/);
    expect(a).not.toBe(b);
    const ring = new KeyRing([
      { key: a, owner: 'a' },
      { key: b, owner: 'b' },
    ]);
    expect(ring.find(a)).toBe('a');
    expect(ring.find(b)).toBe('b');
    for (const wrong of [a.slice(0, -1), `${a}x`, '', 'sk_sandbox_']) expect(ring.find(wrong)).toBeUndefined();
    // Seeded keys are reproducible.
    expect(makeApiKey(entropyFromSeed(5), 1)).toBe(makeApiKey(entropyFromSeed(5), 1));
  });
});

describe('Chaos', () => {
  it('picks the same faults for the same seed and none at rate 0', () => {
    const picks = (seed: number) => {
      const c = new Chaos(0.3, entropyFromSeed(seed));
      return Array.from({ length: 200 }, () => c.pick() ?? '-');
    };
    expect(picks(1)).toEqual(picks(1));
    expect(picks(1)).not.toEqual(picks(2));
    const share = picks(1).filter((p) => p !== '-').length / 200;
    expect(share).toBeGreaterThan(0.2);
    expect(share).toBeLessThan(0.4);
    const none = new Chaos(0, entropyFromSeed(1));
    expect(Array.from({ length: 50 }, () => none.pick()).every((p) => p === undefined)).toBe(true);
  });
});

describe('checkCreatePost', () => {
  it('names media problems by index and refuses kinds a platform does not take', () => {
    const r = checkCreatePost({
      payloads: {
        'twitter-x': { text: 'x', media: [{ url: 'a.png' }, { url: 'b.png' }, { url: 'c.png' }, { url: 'd.png' }, { url: 'e.png' }] },
        youtube: { text: 'x', media: [{ url: 'https://e.com/v.mp4' }, { url: '' }] },
        pinterest: { text: 'x', media: [{ url: 'https://e.com/p.jpg', type: 'gif' }] },
      },
    });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.issues.map((i) => i.path)).toEqual(['payloads.twitter-x.media', 'payloads.youtube.media', 'payloads.youtube.media.1.url', 'payloads.pinterest.media.0.type']);
    }
  });
});
