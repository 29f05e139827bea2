// Forwarding to a local app (a real node:http server on port 0): raw body and signature
// headers unchanged, retries with backoff, timeouts, and an app that fails or hangs never
// holding up the listener or the sender. Time is a manual clock: timeouts and the close grace
// pass only when a test advances it, and backoff pauses advance it at once.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startListener, type ForwardedEvent, type ForwardFailedEvent, type Listener, type ListenerOptions } from '../../src/listen/index.js';
import { createManualClock, type ManualClock } from '../../src/sandbox/clock.js';
import { generateWebhookSecret, sign } from '../../src/wire/webhook-signing.js';
import { closeAdvancing, manualListenerClock } from '../helpers/listener-clock.js';

const SECRET = generateWebhookSecret(Buffer.alloc(24, 3));

interface AppRequest {
  body: string;
  headers: http.IncomingHttpHeaders;
  url: string;
}

type AppBehaviour = (req: AppRequest, n: number, res: http.ServerResponse) => void;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface App {
  url: string;
  requests: AppRequest[];
  /** Resolves once the app has received n requests in all. */
  received(n: number): Promise<void>;
}

async function app(behaviour: AppBehaviour): Promise<App> {
  const requests: AppRequest[] = [];
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { body: Buffer.concat(chunks).toString(), headers: req.headers, url: req.url ?? '' };
      requests.push(r);
      behaviour(r, requests.length, res);
      for (const w of waiting.filter((w) => requests.length >= w.n)) w.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const received = (n: number) => (requests.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ n, resolve })));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/in`, requests, received };
}

async function listen(options: ListenerOptions, manual: ManualClock = createManualClock()) {
  const slept: number[] = [];
  const listener = await startListener({ port: 0, secret: SECRET, forwardBackoffMs: 10, clock: manualListenerClock(manual, slept), ...options });
  cleanups.push(() => closeAdvancing(() => listener.close(), manual));
  const forwarded: ForwardedEvent[] = [];
  const failed: ForwardFailedEvent[] = [];
  const order: string[] = [];
  listener.on('forwarded', (f) => forwarded.push(f));
  listener.on('forward-failed', (f) => failed.push(f));
  listener.on('event', (e) => order.push(e.webhookId ?? ''));
  return { listener, forwarded, failed, order, clock: manual, slept };
}

function until(listener: Listener, name: 'forwarded' | 'forward-failed', count = 1): Promise<void> {
  return new Promise((resolve) => {
    let n = 0;
    listener.on(name, () => {
      if (++n === count) resolve();
    });
  });
}

async function deliver(url: string, id: string, body = JSON.stringify({ type: 'post.result', postId: 'post_1', platform: 'bluesky', status: 'failed', error: { code: 'X', message: 'y', context: {} } })) {
  const ts = Math.floor(Date.now() / 1000);
  const headers = { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': sign(SECRET, id, ts, body) };
  const res = await fetch(url, { method: 'POST', headers, body });
  await res.arrayBuffer();
  return { status: res.status, headers, body };
}

describe('forwarding', () => {
  it('success: the app receives the raw body and the signature headers; forwarded with its status', async () => {
    const target = await app((_r, _n, res) => res.writeHead(200).end('ok'));
    const { listener, forwarded, failed } = await listen({ forwardTo: target.url });
    const done = until(listener, 'forwarded');
    const body = '{"type":"post.result",  "postId":"post_1","platform":"bluesky","status":"published"}';
    const sent = await deliver(listener.url, 'msg_fw_ok', body);
    expect(sent.status).toBe(204);
    await done;
    expect(target.requests).toHaveLength(1);
    const got = target.requests[0]!;
    expect(got.url).toBe('/hooks/in');
    expect(got.body).toBe(body); // byte for byte, spacing included
    expect(got.headers['webhook-id']).toBe('msg_fw_ok');
    expect(got.headers['webhook-timestamp']).toBe(sent.headers['webhook-timestamp']);
    expect(got.headers['webhook-signature']).toBe(sent.headers['webhook-signature']);
    expect(got.headers['content-type']).toBe('application/json');
    expect(forwarded).toMatchObject([{ webhookId: 'msg_fw_ok', status: 200, attempts: 1 }]);
    expect(failed).toHaveLength(0);
    expect(listener.stats()).toMatchObject({ forwarded: 1, forwardFailed: 0, forwardPending: 0 });
  });

  it('failure: a 500 is retried with backoff, then reported with the attempts and the status', async () => {
    const target = await app((_r, _n, res) => res.writeHead(500).end());
    const { listener, failed, slept } = await listen({ forwardTo: target.url, forwardRetries: 2 });
    const done = until(listener, 'forward-failed');
    await deliver(listener.url, 'msg_fw_500');
    await done;
    expect(target.requests).toHaveLength(3);
    expect(slept).toEqual([10, 20]); // the backoff doubles
    expect(failed).toMatchObject([{ webhookId: 'msg_fw_500', postId: 'post_1', platform: 'bluesky', attempts: 3, status: 500 }]);
    expect(failed[0]!.error).toMatch(/500/);
  });

  it('a flaky app (503, then 200) is forwarded on the second attempt', async () => {
    const target = await app((_r, n, res) => res.writeHead(n === 1 ? 503 : 200).end());
    const { listener, forwarded } = await listen({ forwardTo: target.url });
    const done = until(listener, 'forwarded');
    await deliver(listener.url, 'msg_fw_flaky');
    await done;
    expect(forwarded).toMatchObject([{ status: 200, attempts: 2 }]);
  });

  it('a 4xx answer is the app speaking: shown as its status, not retried', async () => {
    const target = await app((_r, _n, res) => res.writeHead(422).end());
    const { listener, forwarded } = await listen({ forwardTo: target.url });
    const done = until(listener, 'forwarded');
    await deliver(listener.url, 'msg_fw_422');
    await done;
    expect(target.requests).toHaveLength(1);
    expect(forwarded).toMatchObject([{ status: 422, attempts: 1 }]);
  });

  it('an app that is not running: connection refused, reported, listener unaffected', async () => {
    const target = await app((_r, _n, res) => res.end());
    const closedUrl = target.url;
    await cleanups.pop()!(); // stop the app, keep its (now closed) port
    const { listener, failed, order } = await listen({ forwardTo: closedUrl, forwardRetries: 1 });
    const done = until(listener, 'forward-failed');
    expect((await deliver(listener.url, 'msg_fw_refused')).status).toBe(204);
    await done;
    expect(failed[0]).toMatchObject({ webhookId: 'msg_fw_refused', attempts: 2 });
    expect(failed[0]!.error).toMatch(/connection refused/);
    expect((await deliver(listener.url, 'msg_after')).status).toBe(204);
    expect(order).toEqual(['msg_fw_refused', 'msg_after']);
  });

  it('timeout: a hanging app times out per attempt; the sender was answered at once and later events flow', async () => {
    const hanging: http.ServerResponse[] = [];
    const target = await app((_r, _n, res) => void hanging.push(res));
    const { listener, failed, order, clock } = await listen({ forwardTo: target.url, forwardTimeoutMs: 150, forwardRetries: 1 });
    const done = until(listener, 'forward-failed');
    const first = await deliver(listener.url, 'msg_fw_slow');
    expect(first.status).toBe(204);
    // Not held hostage by the forward: answered while it is still pending (and the clock has not
    // moved, so it cannot have timed out either).
    expect(listener.stats().forwardPending).toBe(1);
    expect(failed).toHaveLength(0);
    const second = await deliver(listener.url, 'msg_fw_next');
    expect(second.status).toBe(204);
    expect(order).toEqual(['msg_fw_slow', 'msg_fw_next']);
    await target.received(2); // both first attempts hang
    await clock.advance(150); // they time out; the retries start after their backoff
    await target.received(4);
    await clock.advance(150);
    await done;
    expect(failed[0]).toMatchObject({ webhookId: 'msg_fw_slow', attempts: 2 });
    expect(failed[0]!.error).toMatch(/no answer within 150 ms/);
  });

  it('forwards start in arrival order (one at a time here)', async () => {
    // The app answers a turn later, so with one forward at a time the next one has to wait.
    const target = await app((_r, _n, res) => setImmediate(() => res.writeHead(204).end()));
    const { listener } = await listen({ forwardTo: target.url, forwardConcurrency: 1 });
    const done = until(listener, 'forwarded', 10);
    const ids = Array.from({ length: 10 }, (_, i) => `msg_order_${i}`);
    for (const id of ids) await deliver(listener.url, id);
    await done;
    expect(target.requests.map((r) => r.headers['webhook-id'])).toEqual(ids);
  });

  it('a full queue drops the forward (reported) but never the event', async () => {
    const hanging: http.ServerResponse[] = [];
    const target = await app((_r, _n, res) => void hanging.push(res));
    const { listener, failed, order } = await listen({ forwardTo: target.url, forwardConcurrency: 1, forwardQueueLimit: 1, forwardTimeoutMs: 300 });
    for (const id of ['q1', 'q2', 'q3']) expect((await deliver(listener.url, id)).status).toBe(204);
    expect(order).toEqual(['q1', 'q2', 'q3']);
    expect(failed).toMatchObject([{ webhookId: 'q3', attempts: 0 }]);
    expect(failed[0]!.error).toMatch(/queue full/);
    for (const res of hanging) res.end();
  });

  it('duplicates are not forwarded twice', async () => {
    const target = await app((_r, _n, res) => res.writeHead(200).end());
    const { listener } = await listen({ forwardTo: target.url });
    const done = until(listener, 'forwarded');
    const a = await deliver(listener.url, 'msg_dup_fw');
    await fetch(listener.url, { method: 'POST', headers: a.headers, body: a.body }).then((r) => r.arrayBuffer());
    await done;
    // The duplicate was answered before this point; a forward of it would be pending or done.
    expect(listener.stats()).toMatchObject({ forwardPending: 0, forwarded: 1 });
    expect(target.requests).toHaveLength(1);
    expect(listener.stats().duplicates).toBe(1);
  });

  it('close() gives a pending forward its timeout, then reports it as failed and returns', async () => {
    const target = await app(() => {});
    const manual = createManualClock();
    const listener = await startListener({ port: 0, secret: SECRET, forwardTo: target.url, forwardTimeoutMs: 200, forwardRetries: 0, clock: manualListenerClock(manual) });
    const failed: ForwardFailedEvent[] = [];
    listener.on('forward-failed', (f) => failed.push(f));
    await deliver(listener.url, 'msg_closing');
    await target.received(1);
    let closed = false;
    const closing = listener.close().then(() => {
      closed = true;
    });
    // The forward gets its timeout, not longer: close() returns once the clock has passed it.
    await manual.advance(199);
    expect(closed).toBe(false);
    await manual.advance(1);
    await closing;
    expect(closed).toBe(true);
    expect(failed).toHaveLength(1);
  });
});
