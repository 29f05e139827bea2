// A caller's deadline (RequestOptions.deadline) against a real service on 127.0.0.1 that fails
// every request, refuses connections or never answers: no attempt starts at or after the
// deadline, none runs past it, and no retry pause sleeps into it. The clock is injected (sleeping
// only moves it); each request is stamped with that clock when the server sees it.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { DeadlineError, NetworkError, ServerError } from '../../src/client/errors.js';
import { freePort } from '../helpers/ports.js';
import { fakeClock, KEY, T0 } from './client-kit.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A service on port 0 whose handler decides; returns its URL and the clock time of each request. */
async function serve(clock: { now(): number }, handle: (res: ServerResponse) => void): Promise<{ url: string; seenAt: number[] }> {
  const seenAt: number[] = [];
  server = createServer((req, res) => {
    seenAt.push(clock.now());
    req.resume();
    handle(res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seenAt };
}

const failing = (res: ServerResponse) => {
  res.writeHead(503, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'down for maintenance' } }));
};

/** Full jitter near its ceiling: pauses of about 990, 1980 and 3960 ms before retries 2, 3 and 4. */
const clientOn = (url: string, clock: ReturnType<typeof fakeClock>, timeoutMs = 30_000) =>
  createClient({ baseUrl: url, apiKey: KEY, maxRetries: 3, timeoutMs, now: clock.now, sleep: clock.sleep, random: () => 0.99 });

describe('a request with a deadline', () => {
  it('5xx on every attempt: the retry whose pause would reach the deadline is not made; every attempt started before it', async () => {
    const clock = fakeClock();
    const svc = await serve(clock, failing);
    const deadline = T0 + 3_500;
    const err = await clientOn(svc.url, clock)
      .request({ method: 'GET', path: '/v1/posts', deadline })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect((err as ServerError).message).toContain('503');
    expect(clock.sleeps).toEqual([990, 1_980]); // the third pause (3960 ms) would have run past it
    expect(clock.now()).toBeLessThan(deadline);
    expect(svc.seenAt).toEqual([T0, T0 + 990, T0 + 2_970]);
    expect(svc.seenAt.every((t) => t < deadline)).toBe(true);
  });

  it('a pause that ends past the deadline (the machine was slow to wake): the 503 it was retrying, not "not sent"', async () => {
    const clock = fakeClock();
    const svc = await serve(clock, failing);
    // The pause of 990 ms fits before the deadline, but the clock reads 600 ms later when it ends.
    const late = { now: clock.now, sleep: async (ms: number) => clock.sleep(ms + 600) };
    const err = await createClient({ baseUrl: svc.url, apiKey: KEY, maxRetries: 3, now: late.now, sleep: late.sleep, random: () => 0.99 })
      .request({ method: 'GET', path: '/v1/posts', deadline: T0 + 1_000 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect((err as Error).message).toContain('503');
    expect(svc.seenAt).toEqual([T0]);
  });

  it('without a deadline the same service gets every retry (what the deadline cuts)', async () => {
    const clock = fakeClock();
    const svc = await serve(clock, failing);
    await expect(clientOn(svc.url, clock).request({ method: 'GET', path: '/v1/posts' })).rejects.toBeInstanceOf(ServerError);
    expect(clock.sleeps).toEqual([990, 1_980, 3_960]);
    expect(svc.seenAt).toHaveLength(4);
  });

  it('connection refused: the connection failure itself, with no pause into the deadline', async () => {
    const clock = fakeClock();
    const port = await freePort();
    const deadline = T0 + 2_000;
    const err = await clientOn(`http://127.0.0.1:${port}`, clock)
      .request({ method: 'GET', path: '/v1/posts', deadline })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toMatch(/could not reach http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED.*\(after 2 attempts\)/);
    expect(clock.sleeps).toEqual([990]);
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeLessThan(deadline - T0);
  });

  it('a deadline already passed: nothing is sent', async () => {
    const clock = fakeClock();
    const svc = await serve(clock, failing);
    const err = await clientOn(svc.url, clock)
      .request({ method: 'GET', path: '/v1/posts', deadline: T0 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeadlineError);
    expect((err as Error).message).toMatch(/^not sent to http:\/\/127\.0\.0\.1:\d+: its deadline had passed$/);
    expect(svc.seenAt).toEqual([]);
    expect(clock.sleeps).toEqual([]);
  });

  it('a service that never answers: the attempt is cut at the time left, not the 30 s request timeout, and not retried', async () => {
    const clock = fakeClock();
    const svc = await serve(clock, () => undefined);
    const err = await clientOn(svc.url, clock)
      .request({ method: 'GET', path: '/v1/posts', deadline: T0 + 150 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeadlineError);
    expect((err as Error).message).toMatch(/did not answer: no response before the deadline \(the 150ms left\)$/);
    expect(svc.seenAt).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('every page of a listing carries it', async () => {
    const clock = fakeClock();
    const svc = await serve(clock, failing);
    const deadline = T0 + 3_500;
    const rows = clientOn(svc.url, clock).results.iterate({ postId: ['post_1'] }, { deadline });
    await expect((async () => {
      for await (const row of rows) void row;
    })()).rejects.toBeInstanceOf(ServerError);
    expect(clock.sleeps).toEqual([990, 1_980]);
    expect(svc.seenAt.every((t) => t < deadline)).toBe(true);
  });
});
