// Forwarding to a local app (a real node:http server on port 0): raw body and signature
// headers unchanged, retries with backoff, timeouts, and an app that fails or hangs never
// holding up the listener or the sender.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startListener, type ForwardedEvent, type ForwardFailedEvent, type Listener, type ListenerOptions } from '../../src/listen/index.js';
import { generateWebhookSecret, sign } from '../../src/wire/webhook-signing.js';

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

async function app(behaviour: AppBehaviour): Promise<{ url: string; requests: AppRequest[] }> {
  const requests: AppRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { body: Buffer.concat(chunks).toString(), headers: req.headers, url: req.url ?? '' };
      requests.push(r);
      behaviour(r, requests.length, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/in`, requests };
}

async function listen(options: ListenerOptions) {
  const listener = await startListener({ port: 0, secret: SECRET, forwardBackoffMs: 10, ...options });
  cleanups.push(() => listener.close());
  const forwarded: ForwardedEvent[] = [];
  const failed: ForwardFailedEvent[] = [];
  const order: string[] = [];
  listener.on('forwarded', (f) => forwarded.push(f));
  listener.on('forward-failed', (f) => failed.push(f));
  listener.on('event', (e) => order.push(e.webhookId ?? ''));
  return { listener, forwarded, failed, order };
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
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers, body });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started, headers, body };
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
    const { listener, failed } = await listen({ forwardTo: target.url, forwardRetries: 2 });
    const done = until(listener, 'forward-failed');
    await deliver(listener.url, 'msg_fw_500');
    await done;
    expect(target.requests).toHaveLength(3);
    expect(failed).toMatchObject([{ webhookId: 'msg_fw_500', attempts: 3, status: 500 }]);
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
    const { listener, failed, order } = await listen({ forwardTo: target.url, forwardTimeoutMs: 150, forwardRetries: 1 });
    const done = until(listener, 'forward-failed');
    const first = await deliver(listener.url, 'msg_fw_slow');
    expect(first.status).toBe(204);
    expect(first.ms).toBeLessThan(150); // not held hostage by the forward
    const second = await deliver(listener.url, 'msg_fw_next');
    expect(second.status).toBe(204);
    expect(order).toEqual(['msg_fw_slow', 'msg_fw_next']);
    await done;
    expect(failed[0]).toMatchObject({ webhookId: 'msg_fw_slow', attempts: 2 });
    expect(failed[0]!.error).toMatch(/no answer within 150 ms/);
  });

  it('forwards start in arrival order (one at a time here)', async () => {
    const target = await app((_r, _n, res) => setTimeout(() => res.writeHead(204).end(), 5));
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
    await new Promise((r) => setTimeout(r, 30));
    expect(target.requests).toHaveLength(1);
    expect(listener.stats().duplicates).toBe(1);
  });

  it('close() gives a pending forward its timeout, then reports it as failed and returns', async () => {
    const target = await app(() => {});
    const listener = await startListener({ port: 0, secret: SECRET, forwardTo: target.url, forwardTimeoutMs: 200, forwardRetries: 0 });
    const failed: ForwardFailedEvent[] = [];
    listener.on('forward-failed', (f) => failed.push(f));
    await deliver(listener.url, 'msg_closing');
    const started = Date.now();
    await listener.close();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(failed).toHaveLength(1);
  });
});
