// Property-based fuzz of the listener over real sockets: random methods, paths, headers and
// bodies (and plain random bytes). Nothing may crash it or earn a 500, nothing unsigned may be
// emitted when a secret is set, and afterwards it still accepts a valid event.
import http from 'node:http';
import net from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListener, type Listener } from '../../src/listen/index.js';
import { generateWebhookSecret, sign } from '../../src/wire/webhook-signing.js';

const SECRET = generateWebhookSecret(Buffer.alloc(24, 9));
const ALLOWED = new Set([204, 400, 401, 403, 404, 405, 408, 413, 417, 431]);

/** Writes bytes, optionally half-closes, and returns the status of the answer (or undefined). */
function exchange(port: number, bytes: Buffer, endAfter: boolean): Promise<number | undefined> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    let text = '';
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(guard);
      s.destroy();
      resolve(finalStatus(text)?.status);
    };
    // The listener's own timeouts (100 ms here) answer well before this.
    const guard = setTimeout(finish, 3000);
    s.on('connect', () => {
      s.write(bytes);
      if (endAfter) s.end();
    });
    s.on('data', (c) => {
      text += c.toString('latin1');
      // A complete final answer ends the exchange (keep-alive would otherwise hold it open).
      if (finalStatus(text)?.complete) finish();
    });
    s.on('error', () => {});
    s.on('close', finish);
  });
}

/** The first non-1xx answer in the bytes received, and whether its body is all there. */
function finalStatus(text: string): { status: number; complete: boolean } | undefined {
  let at = 0;
  for (;;) {
    const m = /HTTP\/1\.[01] (\d{3})[^\r\n]*\r\n/y;
    m.lastIndex = at;
    const hit = m.exec(text);
    if (!hit) return undefined;
    const end = text.indexOf('\r\n\r\n', at);
    const status = Number(hit[1]);
    if (end < 0) return status >= 200 ? { status, complete: false } : undefined;
    if (status < 200) {
      at = end + 4;
      continue;
    }
    const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(at, end + 2));
    const bodyLength = status === 204 || status === 304 ? 0 : length ? Number(length[1]) : Infinity;
    return { status, complete: text.length >= end + 4 + bodyLength };
  }
}

const headerName = fc.oneof(
  fc.constantFrom('host', 'content-length', 'transfer-encoding', 'content-type', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'connection', 'expect'),
  fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,20}$/),
  fc.string({ maxLength: 10 }),
);
const headerValue = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.constantFrom('chunked', '0', '-1', '99999999999', '1048577', 'v1,AAAA', 'v1,', 'v2,x v1,y', '100-continue', 'close', 'application/json'),
  fc.integer().map(String),
);
const method = fc.oneof(
  fc.constantFrom('POST', 'GET', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH', 'CONNECT', 'TRACE', 'post'),
  fc.stringMatching(/^[A-Z]{1,10}$/),
  fc.string({ maxLength: 8 }),
);
const path = fc.oneof(fc.constantFrom('/webhooks', '/webhooks?x=1', '/', '*', '/webhooks/..', 'http://evil/webhooks'), fc.string({ maxLength: 30 }));
const body = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 300 }),
  fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.from(b).toString('latin1')),
);

const httpish = fc.record({
  method,
  path,
  withHost: fc.boolean(),
  headers: fc.array(fc.tuple(headerName, headerValue), { maxLength: 8 }),
  body,
  endAfter: fc.boolean(),
});

interface HttpIsh {
  method: string;
  path: string;
  withHost: boolean;
  headers: [string, string][];
  body: string;
}

function assemble(port: number, r: HttpIsh): Buffer {
  const lines = [`${r.method} ${r.path} HTTP/1.1`];
  if (r.withHost) lines.push(`host: 127.0.0.1:${port}`);
  for (const [k, v] of r.headers) lines.push(`${k}: ${v}`);
  return Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1'), Buffer.from(r.body, 'latin1')]);
}

function postValid(listener: Listener, id: string): Promise<number> {
  const payload = JSON.stringify({ type: 'post.result', postId: 'post_after_fuzz', platform: 'threads', status: 'published' });
  const ts = Math.floor(Date.now() / 1000);
  return new Promise((resolve, reject) => {
    const req = http.request(listener.url, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': sign(SECRET, id, ts, payload) },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

describe('listener fuzz', () => {
  let signed: Listener;
  let open: Listener;
  const signedEvents: unknown[] = [];
  let openEvents = 0;

  beforeAll(async () => {
    const opts = { port: 0, headersTimeoutMs: 100, bodyTimeoutMs: 100, maxBodyBytes: 1024 };
    signed = await startListener({ ...opts, secret: SECRET });
    open = await startListener(opts);
    signed.on('event', (e) => signedEvents.push(e));
    open.on('event', () => openEvents++);
  });
  afterAll(async () => {
    await signed.close();
    await open.close();
  });

  it('random HTTP-shaped requests: never a 500, never an unsigned event, still serving', async () => {
    const statuses: number[] = [];
    await fc.assert(
      fc.asyncProperty(httpish, async (r) => {
        const status = await exchange(signed.port, assemble(signed.port, r), r.endAfter);
        if (status !== undefined) {
          statuses.push(status);
          expect(ALLOWED.has(status), `status ${status}`).toBe(true);
          expect(status).not.toBe(204);
        }
      }),
      { numRuns: 150 },
    );
    expect(signedEvents).toHaveLength(0);
    expect(statuses.length).toBeGreaterThan(50);
    expect(await postValid(signed, 'msg_after_fuzz_1')).toBe(204);
    expect(signedEvents).toHaveLength(1);
  });

  it('random raw bytes: still serving', async () => {
    const statuses: number[] = [];
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 512 }), fc.boolean(), async (bytes, endAfter) => {
        const status = await exchange(signed.port, Buffer.from(bytes), endAfter);
        if (status !== undefined) {
          statuses.push(status);
          expect(ALLOWED.has(status), `status ${status}`).toBe(true);
        }
      }),
      { numRuns: 100 },
    );
    // Most random bytes are not HTTP: the server answers 400 to those it reads at all.
    expect(statuses.length).toBeGreaterThan(0);
    expect(await postValid(signed, 'msg_after_fuzz_2')).toBe(204);
  });

  it('well-formed POSTs with random JSON and signature headers, no secret: 204 exactly when an object was emitted', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({ body, id: fc.option(fc.string({ minLength: 1, maxLength: 20 }).filter((s) => /^[\x21-\x7e]+$/.test(s))), sig: fc.string({ maxLength: 40 }) }),
        async ({ body: b, id, sig }) => {
          const headers = [`host: 127.0.0.1:${open.port}`, `content-length: ${Buffer.byteLength(b, 'latin1')}`, `webhook-signature: ${sig.replace(/[\r\n]/g, '')}`];
          if (id !== null) headers.push(`webhook-id: ${id}-${accepted}-${Math.random()}`);
          const bytes = Buffer.concat([Buffer.from(`POST /webhooks HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.from(b, 'latin1')]);
          const status = await exchange(open.port, bytes, false);
          expect(status === undefined || ALLOWED.has(status), `status ${status}`).toBe(true);
          if (status === 204) accepted++;
        },
      ),
      { numRuns: 150 },
    );
    expect(openEvents).toBe(accepted);
    expect(open.stats().events).toBe(accepted);
    const before = openEvents;
    expect(await postValid(open, 'msg_after_fuzz_3')).toBe(204);
    expect(openEvents).toBe(before + 1);
  });
});
