// Idempotency keys over real HTTP: replays create nothing and do not count, another body with
// the same key is refused, a key still in flight answers 409, and keys expire after 24 hours.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, call, manualSandbox, text, type TestSandbox } from './sandbox-support.js';

let sb: TestSandbox;
let demo: ReturnType<typeof as>;

beforeAll(async () => {
  sb = await manualSandbox({ writeLimit: 50 });
  demo = as(sb, 'demo');
});
afterAll(() => sb.close());

const total = async () => (await demo.get('/v1/posts?limit=1')).body.meta.total as number;

describe('Idempotency-Key', () => {
  it('replays the first response for the same key and body: same object, nothing created, not counted', async () => {
    const body = { payloads: text(['twitter-x', 'bluesky']), title: 'once' };
    const first = await demo.post('/v1/posts', body, { 'idempotency-key': 'k-1' });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const before = await total();
    const remaining = first.headers.get('ratelimit-remaining');

    // Same JSON, keys in another order and other spacing: still the same request.
    const raw = JSON.stringify({ title: 'once', payloads: { bluesky: body.payloads.bluesky, 'twitter-x': body.payloads['twitter-x'] } }, null, 2);
    const second = await call(sb, 'POST', '/v1/posts', { key: demo.key, raw, headers: { 'content-type': 'application/json', 'idempotency-key': 'k-1' } });
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('request-id')).not.toBe(first.headers.get('request-id'));
    expect(second.headers.get('ratelimit-remaining')).toBe(remaining);
    expect(await total()).toBe(before);
  });

  it('refuses the same key with another body (422 IDEMPOTENCY_KEY_REUSED), creating nothing', async () => {
    await demo.post('/v1/posts', { payloads: text(['linkedin']) }, { 'idempotency-key': 'k-2' });
    const before = await total();
    const r = await demo.post('/v1/posts', { payloads: text(['threads']) }, { 'idempotency-key': 'k-2' });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(r.body.requestId).toBe(r.headers.get('request-id'));
    // The same key on another endpoint is another request too.
    const elsewhere = await demo.post('/v1/schedule', { payloads: text(['linkedin']), scheduledAt: '2030-01-01T00:00:00Z' }, { 'idempotency-key': 'k-2' });
    expect(elsewhere.status).toBe(422);
    expect(await total()).toBe(before);
  });

  it('scopes keys to the workspace', async () => {
    const body = { payloads: text(['pinterest']) };
    const mine = await demo.post('/v1/posts', body, { 'idempotency-key': 'shared' });
    const theirs = await as(sb, 'other').post('/v1/posts', body, { 'idempotency-key': 'shared' });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('forgets a key whose request was refused, so a corrected retry goes through', async () => {
    const bad = await demo.post('/v1/posts', { payloads: { 'twitter-x': { text: '' } } }, { 'idempotency-key': 'k-3' });
    expect(bad.status).toBe(422);
    const good = await demo.post('/v1/posts', { payloads: text(['twitter-x']) }, { 'idempotency-key': 'k-3' });
    expect(good.status).toBe(201);
    expect(good.headers.get('idempotent-replayed')).toBeNull();
  });

  it('replays within 24 hours and treats the key as new after', async () => {
    const body = { payloads: text(['facebook-page']) };
    const first = await demo.post('/v1/posts', body, { 'idempotency-key': 'k-4' });
    await sb.clock.advance(23 * 3_600_000);
    const replay = await demo.post('/v1/posts', body, { 'idempotency-key': 'k-4' });
    expect(replay.body.id).toBe(first.body.id);
    await sb.clock.advance(3_600_000);
    const fresh = await demo.post('/v1/posts', body, { 'idempotency-key': 'k-4' });
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    expect(fresh.body.id).not.toBe(first.body.id);
  });

  it('answers 409 while the first request with the key is still being processed', async () => {
    // Latency runs on the sandbox clock: the first request stays in flight until the clock moves.
    const slow = await manualSandbox({ latencyMs: 500 });
    try {
      const key = slow.key('demo');
      const body = { payloads: text(['tiktok']) };
      const send = () => call(slow, 'POST', '/v1/posts', { key, body, headers: { 'idempotency-key': 'k-5' } });
      const waiting = async (n: number) => {
        while (slow.clock.pendingTimers() < n) await new Promise((r) => setImmediate(r));
      };
      const first = send();
      await waiting(1);
      // The second is refused at once; its answer, too, comes after the latency.
      const second = send();
      await waiting(2);
      await slow.clock.advance(500);
      expect((await second).status).toBe(409);
      expect((await second).body.error.code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT');
      expect((await second).headers.get('request-id')).toMatch(/^req_\w+$/);
      expect((await first).status).toBe(201);
      const answers = Promise.all([send(), call(slow, 'GET', '/v1/posts', { key })]);
      await waiting(2);
      await slow.clock.advance(500);
      const [third, list] = await answers;
      expect(third.headers.get('idempotent-replayed')).toBe('true');
      expect(third.body.id).toBe((await first).body.id);
      expect(list.body.meta.total).toBe(1);
    } finally {
      await slow.close();
    }
  });
});
