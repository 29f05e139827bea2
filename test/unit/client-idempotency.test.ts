// Idempotency on the wire: every POST carries a key (the caller's or a fresh UUID v4), GETs carry
// none, replays are flagged as replays, and a key reused with another body is not retried.
import { describe, expect, it } from 'vitest';
import { IdempotencyKeyReusedError } from '../../src/client/errors.js';
import { exitCodeFor, hintsFor } from '../../src/cli/errors.js';
import { fakeService, json, testClient } from './client-kit.js';

const post = { id: 'post_1', status: 'draft', payloads: { bluesky: { text: 'hi' } }, scheduledAt: null };
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('idempotency', () => {
  it('a replayed response is flagged (and is the original post, not a second one)', async () => {
    const svc = fakeService().once(
      'POST',
      '/v1/posts',
      { status: 201, body: post, headers: json },
      { status: 201, body: post, headers: { ...json, 'idempotent-replayed': 'true' } },
    );
    const { client } = testClient(svc);
    const first = await client.posts.create({ payloads: { bluesky: { text: 'hi' } } }, { idempotencyKey: 'k1' });
    const again = await client.posts.create({ payloads: { bluesky: { text: 'hi' } } }, { idempotencyKey: 'k1' });
    expect(first.replayed).toBe(false);
    expect(again.replayed).toBe(true);
    expect(again.data.id).toBe(first.data.id);
    expect(again.idempotencyKey).toBe('k1');
  });

  it('generates one UUID v4 per logical POST; GET carries no key', async () => {
    const svc = fakeService().always(undefined, () => true, (r) =>
      r.method === 'POST' ? { status: 201, body: post, headers: json } : { status: 200, body: { data: [], meta: { offset: 0, limit: 10, total: 0 } }, headers: json },
    );
    const { client } = testClient(svc);
    const a = await client.posts.create({ payloads: {} });
    const b = await client.posts.create({ payloads: {} });
    await client.posts.list();
    expect(a.idempotencyKey).toMatch(UUID_V4);
    expect(b.idempotencyKey).toMatch(UUID_V4);
    expect(a.idempotencyKey).not.toBe(b.idempotencyKey);
    expect(svc.requests.map((r) => r.headers['idempotency-key'])).toEqual([a.idempotencyKey, b.idempotencyKey, undefined]);
  });

  it('422 IDEMPOTENCY_KEY_REUSED is not retried and is explained', async () => {
    const svc = fakeService().always('POST', '/v1/schedule', {
      status: 422,
      body: { error: { code: 'IDEMPOTENCY_KEY_REUSED', message: 'this key was used with a different body' }, requestId: 'req_reuse' },
      headers: json,
    });
    const { client, clock } = testClient(svc);
    const err = (await client.posts.schedule({ postId: 'p', scheduledAt: '2026-12-01T09:00:00.000Z' }, { idempotencyKey: 'launch-1' }).catch((e: unknown) => e)) as IdempotencyKeyReusedError;
    expect(err).toBeInstanceOf(IdempotencyKeyReusedError);
    expect(svc.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    expect(err.message).toMatch(/idempotency key launch-1 was already used with a different request body/);
    expect(err.requestId).toBe('req_reuse');
    expect(exitCodeFor(err)).toBe(2);
    expect(hintsFor(err, Date.now())[0]).toMatch(/new --idempotency-key/);
  });

  it('409 (same key still in flight) is retried with the same key until the first finishes', async () => {
    const svc = fakeService().once(
      'POST',
      '/v1/posts',
      { status: 409, body: { error: { code: 'IDEMPOTENCY_KEY_IN_FLIGHT', message: 'in flight' } }, headers: json },
      { status: 201, body: post, headers: { ...json, 'idempotent-replayed': 'true' } },
    );
    const { client } = testClient(svc);
    const res = await client.posts.create({ payloads: {} });
    const keys = svc.requests.map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(UUID_V4);
    expect(keys[1]).toBe(keys[0]);
    expect(res.replayed).toBe(true);
  });
});
