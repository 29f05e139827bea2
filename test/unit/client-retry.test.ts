// The request pipeline's retry rules against a scripted service: Retry-After in both forms, the
// wait budget, malformed headers, backoff, 5xx, connection resets, timeouts, 4xx never retried,
// and Ctrl-C during a wait. Time is injected: nothing here sleeps for real.
import { describe, expect, it, vi } from 'vitest';
import { AbortedError, NetworkError, RateLimitError, ServerError, TimeoutError } from '../../src/client/errors.js';
import { backoffDelay, BACKOFF_CAP_MS, isRetryableStatus, parseRetryAfter } from '../../src/client/retry-timing.js';
import { createClient } from '../../src/client/index.js';
import { exitCodeFor, hintsFor } from '../../src/cli/errors.js';
import { BASE, fakeService, json, KEY, sampleResult, T0, testClient } from './client-kit.js';
import type { RetryNotice } from '../../src/client/types.js';

const RES = '/api/v1/post-results/res_1';
const ok = { status: 200, body: sampleResult('res_1'), headers: json };
const connectionError = (message: string, code: string) => ({ error: Object.assign(new Error(message), { code }) });

describe('Retry-After', () => {
  it('sleeps the delay-seconds form, then succeeds', async () => {
    const svc = fakeService().once('GET', RES, { status: 429, body: { error: { code: 'RATE_LIMITED', message: 'slow down' } }, headers: { ...json, 'retry-after': '7' } }, ok);
    const notices: RetryNotice[] = [];
    const { client, clock } = testClient(svc, { onRetry: (n) => notices.push(n) });
    const res = await client.results.get('res_1');
    expect(res.data.id).toBe('res_1');
    expect(clock.sleeps).toEqual([7000]);
    expect(notices).toEqual([{ attempt: 2, delayMs: 7000, reason: expect.stringContaining('429'), until: T0 + 7000 }]);
  });

  it('sleeps until an HTTP-date, measured from the injected clock', async () => {
    const at = new Date(T0 + 42_000).toUTCString(); // IMF-fixdate, e.g. "Sun, 01 Mar 2026 12:00:42 GMT"
    const svc = fakeService().once('GET', RES, { status: 429, body: '', headers: { 'retry-after': at } }, ok);
    const { client, clock } = testClient(svc);
    await client.results.get('res_1');
    expect(clock.sleeps).toEqual([42_000]);
  });

  it('beyond the wait budget: RateLimitError with retryAt, without sleeping, exit 5 and a "retry after" hint', async () => {
    const svc = fakeService().always('POST', '/v1/posts', {
      status: 429,
      body: { error: { code: 'RATE_LIMITED', message: 'write limit reached' } },
      headers: { ...json, 'retry-after': '3600', 'request-id': 'req_429' },
    });
    const { client, clock } = testClient(svc, { maxWaitMs: 60_000 });
    const err = await client.posts.create({ payloads: { bluesky: { text: 'x' } } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    const e = err as RateLimitError;
    expect(e.retryAt).toBe(T0 + 3_600_000);
    expect(e.status).toBe(429);
    expect(e.requestId).toBe('req_429');
    expect(e.message).toMatch(/wait 1 h/);
    expect(clock.sleeps).toEqual([]);
    expect(svc.requests).toHaveLength(1);
    expect(exitCodeFor(e)).toBe(5);
    const hint = hintsFor(e, T0)[0]!;
    expect(hint).toContain(new Date(T0 + 3_600_000).toISOString());
    expect(hint).toMatch(/in 1 h/);
  });

  it('a per-call maxWaitMs lets a long Retry-After be slept through', async () => {
    const svc = fakeService().once(
      'POST',
      '/v1/posts',
      { status: 429, body: '', headers: { 'retry-after': '3600' } },
      { status: 201, body: { id: 'post_1', status: 'draft', payloads: {} }, headers: json },
    );
    const { client, clock } = testClient(svc, { maxWaitMs: 60_000 });
    const res = await client.posts.create({ payloads: {} }, { maxWaitMs: 2 * 3_600_000 });
    expect(res.data.id).toBe('post_1');
    expect(clock.sleeps).toEqual([3_600_000]);
  });

  it('a malformed Retry-After falls back to backoff (never a tight loop)', async () => {
    const svc = fakeService().once(
      'GET',
      RES,
      { status: 429, body: '', headers: { 'retry-after': 'soon-ish' } },
      { status: 429, body: '', headers: { 'retry-after': '-5' } },
      ok,
    );
    const { client, clock } = testClient(svc, { random: () => 0.5 });
    await client.results.get('res_1');
    // Full jitter with random 0.5: half of 1 s, then half of 2 s.
    expect(clock.sleeps).toEqual([500, 1000]);
  });

  it('when retries run out on 429, RateLimitError says when (Retry-After, else RateLimit-Reset)', async () => {
    const svc = fakeService().always('GET', RES, { status: 429, body: '', headers: { 'retry-after': '2', 'ratelimit-reset': '900' } });
    const { client, clock } = testClient(svc, { maxRetries: 2 });
    const err = (await client.results.get('res_1').catch((e: unknown) => e)) as RateLimitError;
    expect(err).toBeInstanceOf(RateLimitError);
    expect(svc.requests).toHaveLength(3);
    expect(clock.sleeps).toEqual([2000, 2000]);
    expect(err.retryAt).toBe(T0 + 4000 + 2000);
    expect(err.message).toMatch(/after 3 attempts/);

    const svc2 = fakeService().once('GET', RES, { status: 429, body: 'Too Many Requests', headers: { 'ratelimit-reset': '900' } });
    const { client: c2 } = testClient(svc2, { maxRetries: 0 });
    const err2 = (await c2.results.get('res_1').catch((e: unknown) => e)) as RateLimitError;
    expect(err2.retryAt).toBe(T0 + 900_000);
  });
});

describe('retries', () => {
  it('503 then success: one backoff, the second answer returned', async () => {
    const svc = fakeService().once('GET', RES, { status: 503, body: '<html><title>503 Service Unavailable</title></html>' }, ok);
    const { client, clock } = testClient(svc);
    const res = await client.results.get('res_1');
    expect(res.status).toBe(200);
    expect(clock.sleeps).toHaveLength(1);
  });

  it('5xx every time: ServerError after maxRetries + 1 attempts, exit 1', async () => {
    const svc = fakeService().always('GET', RES, { status: 502, body: 'Bad Gateway' });
    const { client, clock } = testClient(svc, { maxRetries: 3, random: () => 0.999 });
    const err = await client.results.get('res_1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect(svc.requests).toHaveLength(4);
    // Exponential ceilings 1, 2, 4 s (full jitter just below each), as the AWS SDKs' standard mode.
    expect(clock.sleeps).toEqual([999, 1998, 3996]);
    expect(exitCodeFor(err)).toBe(1);
  });

  it('retries 408 and 409, never other 4xx', async () => {
    for (const status of [408, 409]) {
      const svc = fakeService().once('GET', RES, { status, body: '' }, ok);
      const { client, clock } = testClient(svc);
      await client.results.get('res_1');
      expect({ status, sleeps: clock.sleeps.length, requests: svc.requests.length }).toEqual({ status, sleeps: 1, requests: 2 });
    }
    for (const status of [400, 401, 403, 404, 405, 410, 413, 422]) {
      const svc = fakeService().always('POST', '/v1/posts', { status, body: { error: { code: 'X', message: 'no' } }, headers: json });
      const { client, clock } = testClient(svc);
      await expect(client.posts.create({ payloads: {} })).rejects.toThrow();
      expect({ status, calls: svc.requests.length, sleeps: clock.sleeps }).toEqual({ status, calls: 1, sleeps: [] });
    }
  });

  it('a connection reset on a POST is retried with the same Idempotency-Key and byte-identical body', async () => {
    const svc = fakeService().once('POST', '/v1/posts', connectionError('read ECONNRESET', 'ECONNRESET'), {
      status: 201,
      body: { id: 'post_1', status: 'draft', payloads: { bluesky: { text: 'héllo 👋' } } },
      headers: json,
    });
    const { client, clock } = testClient(svc);
    const body = { payloads: { bluesky: { text: 'héllo 👋' } }, title: 'launch' };
    const res = await client.posts.create(body);
    expect(res.data.id).toBe('post_1');
    expect(clock.sleeps).toHaveLength(1);
    const seen = svc.requests;
    expect(seen).toHaveLength(2);
    expect(seen[0]!.body).toBe(JSON.stringify(body));
    expect(seen[1]!.bytes!.equals(seen[0]!.bytes!)).toBe(true);
    expect(seen[0]!.headers['idempotency-key']).toBe(res.idempotencyKey);
    expect(seen[1]!.headers['idempotency-key']).toBe(res.idempotencyKey);
    expect(res.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('the same key is sent on every attempt (checked on the wire, three attempts)', async () => {
    const svc = fakeService().once(
      'POST',
      '/v1/schedule',
      { status: 500, body: '', headers: json },
      { status: 409, body: '', headers: json },
      { status: 201, body: { id: 'p', status: 'draft', payloads: {} }, headers: json },
    );
    const { client } = testClient(svc);
    await client.posts.schedule({ postId: 'p', scheduledAt: '2026-12-01T09:00:00.000Z' }, { idempotencyKey: 'release-42' });
    expect(svc.requests.map((r) => r.headers['idempotency-key'])).toEqual(['release-42', 'release-42', 'release-42']);
    expect(new Set(svc.requests.map((r) => r.body)).size).toBe(1);
  });

  it('a write rides out a ten-second blip of 503s: backoff from 1 s, capped, the same key every time', async () => {
    const post = { id: 'p', status: 'scheduled', payloads: {} };
    // The clock says when the blip ends: every answer before T0 + 10 s is a 503.
    const { client, clock } = (() => {
      let kit: ReturnType<typeof testClient>;
      const svc = fakeService().always('POST', '/v1/schedule', () =>
        kit.clock.now() < T0 + 10_000 ? { status: 503, body: '', headers: json } : { status: 201, body: post, headers: json },
      );
      kit = testClient(svc, { random: () => 0.999 });
      return kit;
    })();
    const res = await client.posts.schedule({ postId: 'p', scheduledAt: '2026-12-01T09:00:00.000Z' }, { idempotencyKey: 'release-42' });
    expect(res.data.id).toBe('p');
    expect(clock.sleeps).toEqual([999, 1998, 3996, 7992]);
  });

  it('a write whose 503s never end stops after about 30 s in all, never a pause past it (exit 1)', async () => {
    const svc = fakeService().always('POST', '/v1/posts', { status: 503, body: '', headers: json });
    const { client, clock } = testClient(svc, { random: () => 0.999 });
    const err = await client.posts.create({ payloads: { bluesky: { text: 'x' } } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect(exitCodeFor(err)).toBe(1);
    const total = clock.sleeps.reduce((a, b) => a + b, 0);
    // 1 + 2 + 4 + 8 s = 15 s; the next pause (16 s) would end past 30 s.
    expect(clock.sleeps).toEqual([999, 1998, 3996, 7992]);
    expect(total).toBeLessThanOrEqual(30_000);
    expect(new Set(svc.requests.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    // With small draws the budget allows more tries, but never more than ten retries.
    const many = fakeService().always('POST', '/v1/posts', { status: 503, body: '', headers: json });
    const { client: c2 } = testClient(many, { random: () => 0 });
    await c2.posts.create({ payloads: { bluesky: { text: 'x' } } }).catch(() => undefined);
    expect(many.requests).toHaveLength(11);
    // A read keeps to its count (3 retries by default).
    const reads = fakeService().always('GET', RES, { status: 503, body: '', headers: json });
    const { client: c3 } = testClient(reads);
    await c3.results.get('res_1').catch(() => undefined);
    expect(reads.requests).toHaveLength(4);
  });

  it('connection refused every time: NetworkError, exit 6', async () => {
    const svc = fakeService().once('GET', RES, connectionError('connect ECONNREFUSED', 'ECONNREFUSED'), connectionError('connect ECONNREFUSED', 'ECONNREFUSED'));
    const { client, clock } = testClient(svc, { maxRetries: 1 });
    const err = (await client.results.get('res_1').catch((e: unknown) => e)) as NetworkError;
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toMatch(/could not reach http:\/\/api\.test: connect ECONNREFUSED \(after 2 attempts\)/);
    expect(clock.sleeps).toHaveLength(1);
    expect(exitCodeFor(err)).toBe(6);
  });

  it('times out each attempt, retries, and succeeds when an answer comes in time', async () => {
    const svc = fakeService().route({ method: 'GET', path: RES, delayMs: 2000 }, ok).once('GET', RES, ok);
    const { client, clock } = testClient(svc, { timeoutMs: 40 });
    const res = await client.results.get('res_1');
    expect(res.status).toBe(200);
    expect(clock.sleeps).toHaveLength(1);
  });

  it('TimeoutError (exit 6) when no attempt answers in time', async () => {
    const svc = fakeService().route({ method: 'GET', path: RES, delayMs: 2000 }, ok);
    const { client } = testClient(svc, { timeoutMs: 30, maxRetries: 0 });
    const err = await client.results.get('res_1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as Error).message).toMatch(/no response within 30ms/);
    expect(exitCodeFor(err)).toBe(6);
  });
});

describe('Ctrl-C', () => {
  it('aborts a wait at once, even when the injected sleep ignores the signal (exit 130)', async () => {
    const svc = fakeService().once('GET', RES, { status: 429, body: '', headers: { 'retry-after': '30' } });
    const controller = new AbortController();
    let slept = 0;
    const client = createClient({
      baseUrl: BASE,
      apiKey: KEY,
      fetcher: svc.fetch,
      signal: controller.signal,
      now: () => T0,
      sleep: () => {
        slept++;
        return new Promise<void>(() => {}); // never resolves on its own
      },
      onRetry: () => queueMicrotask(() => controller.abort()),
    });
    const err = await client.results.get('res_1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AbortedError);
    expect(slept).toBe(1);
    expect(exitCodeFor(err)).toBe(130);
  });

  it('aborts the default timer sleep at once during a long Retry-After', async () => {
    // Timers on a fake clock: 5 ms pass, not 600 s, so the call must have ended by then whatever
    // this machine's speed (a sleep that ignored the signal would still be pending).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const svc = fakeService().once('GET', RES, { status: 429, body: '', headers: { 'retry-after': '600' } });
      const controller = new AbortController();
      const client = createClient({ baseUrl: BASE, apiKey: KEY, fetcher: svc.fetch, signal: controller.signal, maxWaitMs: 3_600_000, onRetry: () => setTimeout(() => controller.abort(), 5) });
      let outcome: unknown = 'pending';
      void client.results.get('res_1').then(
        () => (outcome = 'answered'),
        (err: unknown) => (outcome = err),
      );
      await vi.advanceTimersByTimeAsync(5);
      await new Promise((resolve) => setImmediate(resolve));
      expect(outcome).toBeInstanceOf(AbortedError);
    } finally {
      vi.useRealTimers();
    }
  });

  it('aborts a request in flight, and is not retried', async () => {
    const svc = fakeService().route({ method: 'GET', path: RES, always: true, delayMs: 5000 }, ok);
    const controller = new AbortController();
    const { client, clock } = testClient(svc, { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    await expect(client.results.get('res_1')).rejects.toBeInstanceOf(AbortedError);
    expect(clock.sleeps).toEqual([]);
    expect(svc.requests).toHaveLength(1);
  });

  it('an already aborted signal sends nothing', async () => {
    const svc = fakeService().always('GET', RES, ok);
    const controller = new AbortController();
    controller.abort();
    const { client } = testClient(svc, { signal: controller.signal });
    await expect(client.results.get('res_1')).rejects.toBeInstanceOf(AbortedError);
    expect(svc.requests).toEqual([]);
  });
});

describe('rules in isolation', () => {
  it('parses Retry-After: seconds, decimals, IMF-fixdate, RFC 850, asctime; rejects the rest', () => {
    const now = T0;
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter(new Date(now + 5000).toUTCString(), now)).toBe(5000);
    expect(parseRetryAfter('Sunday, 01-Mar-26 12:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Sun Mar  1 12:00:30 2026', now)).toBeGreaterThanOrEqual(0);
    expect(parseRetryAfter(new Date(now - 60_000).toUTCString(), now)).toBe(0); // in the past: go now
    for (const bad of ['', 'soon', '-1', '7 minutes', '12:00:00', 'NaN', 'Infinity', '1e3']) expect(parseRetryAfter(bad, now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('full-jitter backoff stays within base·2^n, capped', () => {
    expect(backoffDelay(1, () => 0)).toBe(0);
    expect(backoffDelay(1, () => 0.999999)).toBeLessThan(1000);
    expect(backoffDelay(3, () => 0.5)).toBe(2000);
    expect(backoffDelay(30, () => 0.999999)).toBeLessThanOrEqual(BACKOFF_CAP_MS);
    expect([408, 409, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 413, 422].some(isRetryableStatus)).toBe(false);
  });
});
