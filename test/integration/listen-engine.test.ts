// The listener engine over real HTTP on 127.0.0.1 (port 0): signature checks with an injected
// clock, transport hygiene (405/403/404/413/408/400), duplicates, filters and ordering. The clock
// is manual: slow bodies time out when a test advances it, never by waiting.
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startListener, type DeliveryEvent, type Listener, type ListenerOptions, type RejectedEvent } from '../../src/listen/index.js';
import { createManualClock, type ManualClock } from '../../src/sandbox/clock.js';
import { generateWebhookSecret, sign } from '../../src/wire/webhook-signing.js';
import { manualListenerClock, until } from '../helpers/listener-clock.js';

const SECRET = generateWebhookSecret(Buffer.alloc(24, 7));
const NOW_S = 1_800_000_000;
const NOW_MS = NOW_S * 1000 + 123;

interface Reply {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; path?: string } = {}): Promise<Reply> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, path: options.path ?? u.pathname, method: options.method ?? 'POST', headers: options.headers, agent: false, setHost: !options.headers?.host },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

function delivery(body: string, opts: { id?: string; ts?: number; secret?: string } = {}) {
  const id = opts.id ?? `msg_${Math.random().toString(36).slice(2)}`;
  const ts = opts.ts ?? NOW_S;
  return {
    id,
    body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(ts),
      'webhook-signature': sign(opts.secret ?? SECRET, id, ts, body),
    } as Record<string, string>,
  };
}

const payload = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'post.result', postId: 'post_1', platform: 'twitter-x', status: 'published', resultId: 'res_1', ...extra });

/** Raw socket exchange for what http.request will not send (bad HTTP, partial bodies). */
function raw(port: number, write: (s: net.Socket) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1');
    let text = '';
    s.on('connect', () => write(s));
    s.on('data', (c) => (text += c.toString()));
    s.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' || e.code === 'EPIPE' ? resolve(text) : reject(e)));
    s.on('close', () => resolve(text));
  });
}

interface Recorded {
  listener: Listener;
  clock: ManualClock;
  events: DeliveryEvent[];
  rejected: RejectedEvent[];
  duplicates: string[];
}

let open: Listener[] = [];
afterEach(async () => {
  await Promise.all(open.map((l) => l.close()));
  open = [];
});

async function listen(options: ListenerOptions = {}): Promise<Recorded> {
  const clock = createManualClock(NOW_MS);
  const listener = await startListener({ port: 0, secret: SECRET, clock: manualListenerClock(clock), ...options });
  open.push(listener);
  const rec: Recorded = { listener, clock, events: [], rejected: [], duplicates: [] };
  listener.on('event', (e) => rec.events.push(e));
  listener.on('rejected', (r) => rec.rejected.push(r));
  listener.on('duplicate', (d) => rec.duplicates.push(d.webhookId));
  return rec;
}

describe('listener: start', () => {
  it('binds 127.0.0.1 on a free port with /webhooks, and says ready with the URL', async () => {
    const listener = await startListener({ port: 0, secret: SECRET });
    open.push(listener);
    const ready = await new Promise<{ url: string }>((resolve) => listener.once('ready', resolve));
    expect(listener.port).toBeGreaterThan(0);
    expect(listener.url).toBe(`http://127.0.0.1:${listener.port}/webhooks`);
    expect(ready.url).toBe(listener.url);
  });

  it('refuses a secret that is not base64, a bad path and a bad forward URL', async () => {
    await expect(startListener({ port: 0, secret: 'whsec_not base64!' })).rejects.toMatchObject({ code: 'EINVAL' });
    await expect(startListener({ port: 0, path: 'webhooks' })).rejects.toMatchObject({ code: 'EINVAL' });
    await expect(startListener({ port: 0, forwardTo: 'ftp://x' })).rejects.toMatchObject({ code: 'EINVAL' });
  });

  it('reports a port in use as EADDRINUSE', async () => {
    const { listener } = await listen();
    await expect(startListener({ port: listener.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  it('close() frees the port', async () => {
    const listener = await startListener({ port: 0 });
    const port = listener.port;
    await listener.close();
    const again = await startListener({ port });
    open.push(again);
    expect(again.port).toBe(port);
  });
});

describe('listener: signatures (clock injected at a fixed second)', () => {
  it('accepts a valid delivery: 204, one event with the payload unchanged', async () => {
    const rec = await listen();
    const d = delivery(payload({ extra: { nested: [1, 2] } }), { id: 'msg_valid' });
    const r = await send(rec.listener.url, { headers: d.headers, body: d.body });
    expect(r.status).toBe(204);
    expect(rec.events).toHaveLength(1);
    const e = rec.events[0]!;
    expect(e.payload).toEqual(JSON.parse(d.body));
    expect(e.raw.toString()).toBe(d.body);
    expect(e.webhookId).toBe('msg_valid');
    expect(e.verified).toBe(true);
    expect(e.receivedAt).toBe(new Date(NOW_MS).toISOString());
    expect(rec.listener.stats()).toMatchObject({ requests: 1, received: 1, events: 1, rejectedTotal: 0 });
  });

  it.each([
    [-299, 204],
    [299, 204],
    [-301, 401],
    [301, 401],
  ])('timestamp %i s from now → %i', async (offset, status) => {
    const rec = await listen();
    const d = delivery(payload(), { ts: NOW_S + offset });
    const r = await send(rec.listener.url, { headers: d.headers, body: d.body });
    expect(r.status).toBe(status);
    expect(rec.events).toHaveLength(status === 204 ? 1 : 0);
    if (status === 401) {
      expect(rec.rejected[0]?.reason).toBe(offset < 0 ? 'timestamp-too-old' : 'timestamp-too-new');
      expect(r.body).toMatch(offset < 0 ? /301 s old/ : /301 s in the future/);
    }
  });

  it('a tampered body → 401 with a one-line reason and never the event', async () => {
    const rec = await listen();
    const d = delivery(payload({ postId: 'post_secret_content' }));
    const r = await send(rec.listener.url, { headers: d.headers, body: d.body.replace('post_secret_content', 'post_other') });
    expect(r.status).toBe(401);
    expect(r.body.trim().split('\n')).toHaveLength(1);
    expect(r.body).toMatch(/no v1 signature matches/);
    expect(r.body).not.toContain('post_');
    expect(rec.events).toHaveLength(0);
    expect(rec.rejected).toMatchObject([{ reason: 'no-matching-signature', status: 401, webhookId: d.id }]);
    expect(rec.rejected[0]!.detail).not.toContain('post_');
  });

  it('a tampered timestamp (inside the tolerance) → 401', async () => {
    const rec = await listen();
    const d = delivery(payload());
    const r = await send(rec.listener.url, { headers: { ...d.headers, 'webhook-timestamp': String(NOW_S - 10) }, body: d.body });
    expect(r.status).toBe(401);
    expect(rec.rejected[0]?.reason).toBe('no-matching-signature');
  });

  it('multi-signature header: one valid v1 among others accepts; only wrong ones refuse', async () => {
    const rec = await listen();
    const d = delivery(payload());
    const wrong = 'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=';
    const good = d.headers['webhook-signature']!;
    const ok = await send(rec.listener.url, { headers: { ...d.headers, 'webhook-signature': `${wrong} v2,${good.slice(3)} ${good}` }, body: d.body });
    expect(ok.status).toBe(204);
    const d2 = delivery(payload());
    const bad = await send(rec.listener.url, { headers: { ...d2.headers, 'webhook-signature': `${wrong} v2,${d2.headers['webhook-signature']!.slice(3)}` }, body: d2.body });
    expect(bad.status).toBe(401);
    expect(rec.events).toHaveLength(1);
  });

  it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'])('missing %s → 401 missing-headers', async (name) => {
    const rec = await listen();
    const d = delivery(payload());
    const headers = { ...d.headers };
    delete headers[name];
    const r = await send(rec.listener.url, { headers, body: d.body });
    expect(r.status).toBe(401);
    expect(rec.rejected[0]?.reason).toBe('missing-headers');
  });

  it('a secret without whsec_ verifies the same deliveries', async () => {
    const rec = await listen({ secret: SECRET.slice('whsec_'.length) });
    const d = delivery(payload());
    expect((await send(rec.listener.url, { headers: d.headers, body: d.body })).status).toBe(204);
  });

  it('without a secret: accepted, verified false, webhookId null when absent', async () => {
    const rec = await listen({ secret: undefined });
    expect(rec.listener.verifying).toBe(false);
    const r = await send(rec.listener.url, { headers: { 'content-type': 'application/json' }, body: payload() });
    expect(r.status).toBe(204);
    expect(rec.events[0]).toMatchObject({ verified: false, webhookId: null });
  });
});

describe('listener: transport hygiene', () => {
  it.each(['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])('%s → 405 with Allow: POST', async (method) => {
    const rec = await listen();
    const r = await send(rec.listener.url, { method });
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('POST');
    expect(rec.rejected[0]?.reason).toBe('method-not-allowed');
  });

  it('another path → 404', async () => {
    const rec = await listen();
    const d = delivery(payload());
    const r = await send(rec.listener.url, { path: '/other', headers: d.headers, body: d.body });
    expect(r.status).toBe(404);
    expect(rec.events).toHaveLength(0);
    // A query string on the right path is fine.
    expect((await send(rec.listener.url, { path: '/webhooks?x=1', headers: d.headers, body: d.body })).status).toBe(204);
  });

  it('Host guard: loopback names with the port pass; anything else → 403', async () => {
    const rec = await listen();
    const port = rec.listener.port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      const d = delivery(payload());
      expect((await send(rec.listener.url, { headers: { ...d.headers, host }, body: d.body })).status, host).toBe(204);
    }
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, 'localhost', `localhost.evil.example:${port}`]) {
      const d = delivery(payload());
      const r = await send(rec.listener.url, { headers: { ...d.headers, host }, body: d.body });
      expect(r.status, host).toBe(403);
      expect(r.body).toMatch(/DNS-rebinding/);
    }
    expect(rec.events).toHaveLength(4);
    expect(rec.listener.stats().rejected['forbidden-host']).toBe(5);
  });

  it('a browser request (Origin or Sec-Fetch-Site), even correctly signed → 403, counted and reported, nothing emitted', async () => {
    const rec = await listen();
    const browser: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-origin', origin: `http://127.0.0.1:${rec.listener.port}` },
    ];
    for (const extra of browser) {
      const d = delivery(payload());
      const r = await send(rec.listener.url, { headers: { ...d.headers, ...extra }, body: d.body });
      expect(r.status, JSON.stringify(extra)).toBe(403);
      expect(r.body).toMatch(/web browser; webhook senders never send Origin or Sec-Fetch-Site\n$/);
      expect(r.headers.connection).toBe('close');
    }
    expect(rec.events).toHaveLength(0);
    expect(rec.rejected.map((x) => [x.reason, x.status])).toEqual(browser.map(() => ['browser-request', 403]));
    expect(rec.rejected[0]!.detail).toContain('Origin "https://evil.example"');
    expect(rec.rejected[2]!.detail).toContain('Sec-Fetch-Site "cross-site"');
    expect(rec.listener.stats()).toMatchObject({ rejectedTotal: 4, rejected: { 'browser-request': 4 }, events: 0 });
    // The same delivery without the browser's headers is accepted.
    const d = delivery(payload());
    expect((await send(rec.listener.url, { headers: d.headers, body: d.body })).status).toBe(204);
    expect(rec.events).toHaveLength(1);
  });

  it('no Host header at all (HTTP/1.0) → 403', async () => {
    const rec = await listen();
    const text = await raw(rec.listener.port, (s) => s.write('POST /webhooks HTTP/1.0\r\ncontent-length: 2\r\n\r\n{}'));
    expect(text).toMatch(/^HTTP\/1\.1 403/);
  });

  it('a declared body over 1 MiB → 413 before any of it is sent', async () => {
    const rec = await listen();
    const port = rec.listener.port;
    // Only the headers are written: the answer must come without waiting for the body.
    const text = await raw(port, (s) => s.write(`POST /webhooks HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-length: ${1024 * 1024 + 1}\r\n\r\n`));
    expect(text).toMatch(/^HTTP\/1\.1 413/);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(rec.rejected[0]?.reason).toBe('body-too-large');
  });

  it('a body of exactly 1 MiB is read (and then judged on its JSON)', async () => {
    const rec = await listen({ secret: undefined });
    const body = JSON.stringify({ platform: 'x', pad: 'a'.repeat(1024 * 1024 - 25) });
    expect(Buffer.byteLength(body)).toBe(1024 * 1024);
    const r = await send(rec.listener.url, { headers: { 'content-type': 'application/json' }, body });
    expect(r.status).toBe(204);
  });

  it('a chunked body without Content-Length is cut at the cap while streaming', async () => {
    const rec = await listen({ maxBodyBytes: 4096 });
    const port = rec.listener.port;
    let written = 0;
    const text = await raw(port, (s) => {
      s.write(`POST /webhooks HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ntransfer-encoding: chunked\r\n\r\n`);
      const chunk = 'x'.repeat(1024);
      const pump = () => {
        // Keeps sending until the server answers and closes: the server must stop it, not us.
        while (!s.destroyed && written < 64 * 1024 * 1024) {
          written += chunk.length;
          if (!s.write(`400\r\n${chunk}\r\n`)) return void s.once('drain', pump);
        }
      };
      pump();
    });
    expect(text).toMatch(/^HTTP\/1\.1 413/);
    expect(written).toBeLessThan(64 * 1024 * 1024);
    expect(rec.rejected[0]?.reason).toBe('body-too-large');
  });

  it('bodies that arrive a few bytes at a time, and requests sent back to back on one connection, are each read whole', async () => {
    const rec = await listen();
    const port = rec.listener.port;
    const ds = [0, 1, 2].map((i) => delivery(payload({ n: i, text: 'ü✓'.repeat(40) }), { id: `msg_piece${i}` }));
    const request = (d: (typeof ds)[number], close: boolean) =>
      `POST /webhooks HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n${close ? 'connection: close\r\n' : ''}content-length: ${Buffer.byteLength(d.body)}\r\n` +
      Object.entries(d.headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('') +
      '\r\n' +
      d.body;
    // The first request in pieces of 7 bytes (splitting its UTF-8 characters), each sent once the
    // listener has had a turn to read the last; the other two in one write after it.
    const first = Buffer.from(request(ds[0]!, false));
    const text = await raw(port, (s) => {
      let at = 0;
      const next = () => {
        if (at >= first.length) return void s.write(request(ds[1]!, false) + request(ds[2]!, true));
        s.write(first.subarray(at, (at += 7)));
        setTimeout(next, 1);
      };
      next();
    });
    expect(text.match(/HTTP\/1\.1 204/g)).toHaveLength(3);
    expect(rec.events.map((e) => e.webhookId)).toEqual(['msg_piece0', 'msg_piece1', 'msg_piece2']);
    expect(rec.events.map((e) => e.payload)).toEqual(ds.map((d) => JSON.parse(d.body)));
    expect(rec.events.map((e) => e.raw.toString())).toEqual(ds.map((d) => d.body));
  });

  it('a body that trickles in too slowly → 408', async () => {
    const rec = await listen({ bodyTimeoutMs: 150 });
    const port = rec.listener.port;
    const reply = raw(port, (s) => s.write(`POST /webhooks HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-length: 100\r\n\r\n{"a":`));
    await until(() => rec.listener.stats().requests === 1);
    // Nothing happens while the clock stands still; once 150 ms (and a sweep) have passed, 408.
    await rec.clock.advance(149);
    expect(rec.rejected).toHaveLength(0);
    await rec.clock.advance(50);
    const text = await reply;
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(rec.rejected[0]?.reason).toBe('body-timeout');
  });

  it('slow bodies among quick ones: each slow one gets 408 at its own deadline, quick ones are never touched', async () => {
    const rec = await listen({ bodyTimeoutMs: 400 });
    const port = rec.listener.port;
    const slowRequest = `POST /webhooks HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-length: 100\r\n\r\n{"a":`;
    const first = raw(port, (s) => s.write(slowRequest));
    await until(() => rec.listener.stats().requests === 1);
    // Quick deliveries finish between sweeps, before and after the second slow body starts.
    for (let i = 0; i < 3; i++) {
      const d = delivery(payload());
      expect((await send(rec.listener.url, { headers: d.headers, body: d.body })).status).toBe(204);
    }
    await rec.clock.advance(250);
    const second = raw(port, (s) => s.write(slowRequest));
    await until(() => rec.listener.stats().requests === 5);
    const d = delivery(payload());
    expect((await send(rec.listener.url, { headers: d.headers, body: d.body })).status).toBe(204);
    await rec.clock.advance(200); // 450 ms for the first, 200 ms for the second
    expect(await first).toMatch(/^HTTP\/1\.1 408/);
    expect(rec.rejected.map((r) => r.reason)).toEqual(['body-timeout']);
    await rec.clock.advance(250); // 450 ms for the second
    expect(await second).toMatch(/^HTTP\/1\.1 408/);
    expect(rec.rejected.map((r) => r.reason)).toEqual(['body-timeout', 'body-timeout']);
    expect(rec.events).toHaveLength(4);
    expect(rec.listener.stats()).toMatchObject({ requests: 6, events: 4, rejectedTotal: 2 });
  });

  it('headers that never finish → 408, counted as headers-timeout', async () => {
    const rec = await listen({ headersTimeoutMs: 150 });
    const text = await raw(rec.listener.port, (s) => s.write('POST /webhooks HTTP/1.1\r\nhost: 127.0.0.1\r\n'));
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(rec.rejected[0]?.reason).toBe('headers-timeout');
  });

  it('malformed HTTP → 400', async () => {
    const rec = await listen();
    const text = await raw(rec.listener.port, (s) => s.write('THIS IS NOT HTTP\r\n\r\n'));
    expect(text).toMatch(/^HTTP\/1\.1 400/);
    expect(rec.rejected[0]?.reason).toBe('bad-request');
  });

  it('malformed JSON (correctly signed) → 400; JSON that is not an object → 400', async () => {
    const rec = await listen();
    const d = delivery('{"postId": ');
    const r = await send(rec.listener.url, { headers: d.headers, body: d.body });
    expect(r.status).toBe(400);
    expect(rec.rejected[0]?.reason).toBe('malformed-json');
    const d2 = delivery('[1,2,3]');
    expect((await send(rec.listener.url, { headers: d2.headers, body: d2.body })).status).toBe(400);
    expect(rec.rejected[1]?.reason).toBe('not-an-object');
    expect(rec.events).toHaveLength(0);
  });

  it('every good event after bad input is still handled', async () => {
    const rec = await listen({ bodyTimeoutMs: 100 });
    const port = rec.listener.port;
    await raw(port, (s) => s.write('\x00\x01\x02 garbage\r\n\r\n'));
    await send(rec.listener.url, { method: 'GET' });
    const slow = raw(port, (s) => s.write(`POST /webhooks HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-length: 9\r\n\r\n{`));
    await until(() => rec.listener.stats().requests === 2);
    await rec.clock.advance(200);
    await slow;
    await raw(port, (s) => s.end(`POST /webhooks HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-length: 50\r\n\r\n{"short`));
    const d = delivery(payload());
    expect((await send(rec.listener.url, { headers: d.headers, body: d.body })).status).toBe(204);
    expect(rec.events.map((e) => e.webhookId)).toEqual([d.id]);
  });
});

describe('listener: duplicates, filters, ordering', () => {
  it('the same webhook-id again → 2xx, emitted once, counted as a duplicate', async () => {
    const rec = await listen();
    const d = delivery(payload(), { id: 'msg_retry' });
    const replies = [];
    for (let i = 0; i < 3; i++) replies.push(await send(rec.listener.url, { headers: d.headers, body: d.body }));
    expect(replies.map((r) => r.status)).toEqual([204, 204, 204]);
    expect(rec.events).toHaveLength(1);
    expect(rec.duplicates).toEqual(['msg_retry', 'msg_retry']);
    expect(rec.listener.stats()).toMatchObject({ received: 3, events: 1, duplicates: 2 });
  });

  it('a rejected delivery does not burn its id: the genuine one later is still shown', async () => {
    const rec = await listen();
    const d = delivery(payload(), { id: 'msg_forged_first' });
    expect((await send(rec.listener.url, { headers: { ...d.headers, 'webhook-signature': 'v1,AAAA' }, body: d.body })).status).toBe(401);
    expect((await send(rec.listener.url, { headers: d.headers, body: d.body })).status).toBe(204);
    expect(rec.events).toHaveLength(1);
  });

  it('--platform and --status filters: others are answered 204, counted, not emitted', async () => {
    const rec = await listen({ platforms: ['instagram'], statuses: ['failed'] });
    const bodies = [
      payload({ platform: 'instagram', status: 'failed' }),
      payload({ platform: 'instagram', status: 'published' }),
      payload({ platform: 'twitter-x', status: 'failed' }),
    ];
    for (const b of bodies) {
      const d = delivery(b);
      expect((await send(rec.listener.url, { headers: d.headers, body: d.body })).status).toBe(204);
    }
    expect(rec.events.map((e) => [e.payload.platform, e.payload.status])).toEqual([['instagram', 'failed']]);
    expect(rec.listener.stats()).toMatchObject({ received: 3, events: 1, filtered: 2 });
  });

  it('sequential deliveries come out in the order they were sent, with increasing seq', async () => {
    const rec = await listen();
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const d = delivery(payload({ n: i }), { id: `msg_${String(i).padStart(3, '0')}` });
      ids.push(d.id);
      await send(rec.listener.url, { headers: d.headers, body: d.body });
    }
    expect(rec.events.map((e) => e.webhookId)).toEqual(ids);
    expect(rec.events.map((e) => e.seq)).toEqual(ids.map((_, i) => i + 1));
  });

  it('concurrent deliveries: each emitted exactly once; order = order their bodies completed', async () => {
    const rec = await listen();
    const port = rec.listener.port;
    const a = delivery(payload({ n: 'a' }), { id: 'msg_a' });
    const b = delivery(payload({ n: 'b' }), { id: 'msg_b' });
    const head = (d: typeof a) =>
      `POST /webhooks HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(d.body)}\r\n` +
      Object.entries(d.headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('') +
      '\r\n';
    // A starts first but finishes its body last.
    let finishA: () => void = () => {};
    const pa = raw(port, (s) => {
      s.write(head(a) + a.body.slice(0, 5));
      finishA = () => s.write(a.body.slice(5));
    });
    await until(() => rec.listener.stats().requests === 1); // A's headers are in
    await raw(port, (s) => s.write(head(b) + b.body));
    finishA();
    await pa;
    expect(rec.events.map((e) => e.webhookId)).toEqual(['msg_b', 'msg_a']);

    const many = Array.from({ length: 100 }, (_, i) => delivery(payload({ n: i }), { id: `msg_c${i}` }));
    const replies = await Promise.all(many.map((d) => send(rec.listener.url, { headers: d.headers, body: d.body })));
    expect(replies.every((r) => r.status === 204)).toBe(true);
    const seen = rec.events.slice(2).map((e) => e.webhookId);
    expect(new Set(seen).size).toBe(100);
    expect(seen).toHaveLength(100);
  });

  it('a consumer that throws does not break the listener, and its error is reported, not swallowed', async () => {
    const rec = await listen();
    const errors: Error[] = [];
    rec.listener.on('error', (err) => errors.push(err));
    rec.listener.on('event', () => {
      throw new Error('consumer bug');
    });
    const d1 = delivery(payload());
    const d2 = delivery(payload());
    expect((await send(rec.listener.url, { headers: d1.headers, body: d1.body })).status).toBe(204);
    expect((await send(rec.listener.url, { headers: d2.headers, body: d2.body })).status).toBe(204);
    expect(rec.events).toHaveLength(2);
    expect(errors.map((e) => e.message)).toEqual(['consumer bug', 'consumer bug']);
  });

  it('events carry the payload typed as a delivery when it has that shape', async () => {
    const rec = await listen({ secret: undefined });
    await send(rec.listener.url, { headers: { 'content-type': 'application/json' }, body: payload({ error: { code: 'E', message: 'm' } }) });
    await send(rec.listener.url, { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hello: 'world' }) });
    expect(rec.events[0]!.delivery).toMatchObject({ postId: 'post_1', platform: 'twitter-x', status: 'published', error: { code: 'E', message: 'm' } });
    expect(rec.events[1]!.delivery).toBeUndefined();
    expect(rec.events[1]!.payload).toEqual({ hello: 'world' });
  });
});
