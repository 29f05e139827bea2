// Idempotency on the wire: every POST carries a key (the caller's or a fresh UUID v4), GETs carry
// none, replays are flagged as replays, and a key reused with another body is not retried.
import { afterEach, describe, expect, it } from 'vitest';
import type { MockAgent } from 'undici';
import { IdempotencyKeyReusedError } from '../../src/client/errors.js';
import { exitCodeFor, hintsFor } from '../../src/cli/errors.js';
import { json, mockAgent, record, testClient, type Recorded } from './client-kit.js';

let agent: MockAgent;
afterEach(async () => {
  await agent?.close().catch(() => {});
});

const post = { id: 'post_1', status: 'draft', payloads: { bluesky: { text: 'hi' } }, scheduledAt: null };
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('idempotency', () => {
  it('a replayed response is flagged (and is the original post, not a second one)', async () => {
    const m = mockAgent();
    agent = m.agent;
    m.pool.intercept({ path: '/v1/posts', method: 'POST' }).reply(201, post, { headers: json });
    m.pool.intercept({ path: '/v1/posts', method: 'POST' }).reply(201, post, { headers: { ...json, 'idempotent-replayed': 'true' } });
    const { client } = testClient(agent);
    const first = await client.posts.create({ payloads: { bluesky: { text: 'hi' } } }, { idempotencyKey: 'k1' });
    const again = await client.posts.create({ payloads: { bluesky: { text: 'hi' } } }, { idempotencyKey: 'k1' });
    expect(first.replayed).toBe(false);
    expect(again.replayed).toBe(true);
    expect(again.data.id).toBe(first.data.id);
    expect(again.idempotencyKey).toBe('k1');
  });

  it('generates one UUID v4 per logical POST; GET carries no key', async () => {
    const m = mockAgent();
    agent = m.agent;
    const seen: Recorded[] = [];
    m.pool.intercept({ path: () => true, method: () => true }).reply((o) => {
      seen.push(record(o));
      return { statusCode: o.method === 'POST' ? 201 : 200, data: o.method === 'POST' ? post : { data: [], meta: { offset: 0, limit: 10, total: 0 } }, responseOptions: { headers: json } };
    }).persist();
    const { client } = testClient(agent);
    const a = await client.posts.create({ payloads: {} });
    const b = await client.posts.create({ payloads: {} });
    await client.posts.list();
    expect(a.idempotencyKey).toMatch(UUID_V4);
    expect(b.idempotencyKey).toMatch(UUID_V4);
    expect(a.idempotencyKey).not.toBe(b.idempotencyKey);
    expect(seen.map((r) => r.headers['idempotency-key'])).toEqual([a.idempotencyKey, b.idempotencyKey, undefined]);
  });

  it('422 IDEMPOTENCY_KEY_REUSED is not retried and is explained', async () => {
    const m = mockAgent();
    agent = m.agent;
    let calls = 0;
    m.pool.intercept({ path: '/v1/schedule', method: 'POST' }).reply(() => {
      calls++;
      return { statusCode: 422, data: { error: { code: 'IDEMPOTENCY_KEY_REUSED', message: 'this key was used with a different body' }, requestId: 'req_reuse' }, responseOptions: { headers: json } };
    }).persist();
    const { client, clock } = testClient(agent);
    const err = (await client.posts.schedule({ postId: 'p', scheduledAt: '2026-12-01T09:00:00.000Z' }, { idempotencyKey: 'launch-1' }).catch((e: unknown) => e)) as IdempotencyKeyReusedError;
    expect(err).toBeInstanceOf(IdempotencyKeyReusedError);
    expect(calls).toBe(1);
    expect(clock.sleeps).toEqual([]);
    expect(err.message).toMatch(/idempotency key launch-1 was already used with a different request body/);
    expect(err.requestId).toBe('req_reuse');
    expect(exitCodeFor(err)).toBe(2);
    expect(hintsFor(err, Date.now())[0]).toMatch(/new --idempotency-key/);
  });

  it('409 (same key still in flight) is retried with the same key until the first finishes', async () => {
    const m = mockAgent();
    agent = m.agent;
    const keys: string[] = [];
    const reply = (status: number, replayed: boolean) => (o: Parameters<typeof record>[0]) => {
      keys.push(record(o).headers['idempotency-key']!);
      return { statusCode: status, data: status === 201 ? post : { error: { code: 'IDEMPOTENCY_KEY_IN_FLIGHT', message: 'in flight' } }, responseOptions: { headers: { ...json, ...(replayed ? { 'idempotent-replayed': 'true' } : {}) } } };
    };
    m.pool.intercept({ path: '/v1/posts', method: 'POST' }).reply(reply(409, false));
    m.pool.intercept({ path: '/v1/posts', method: 'POST' }).reply(reply(201, true));
    const { client } = testClient(agent);
    const res = await client.posts.create({ payloads: {} });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(res.replayed).toBe(true);
  });
});
