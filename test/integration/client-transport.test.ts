// The default transport (node:http with a keep-alive agent) against a real local server that
// misbehaves: resets, stalls, cut-off bodies; and connections are reused between requests. An
// https URL speaks TLS (https loads only then).
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { BadRequestError, NetworkError, ResponseShapeError, TimeoutError } from '../../src/client/errors.js';

let server: Server;
let base: string;
let connections = 0;
const uploads: Array<{ length: string | undefined; body: string }> = [];
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url?.startsWith('/reset')) return req.socket.destroy();
    if (req.url?.startsWith('/stall')) return; // never answers
    if (req.url?.startsWith('/upload')) {
      // Reads the whole body, then refuses the first attempt: the retry must send it all again.
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        uploads.push({ length: req.headers['content-length'], body: Buffer.concat(chunks).toString() });
        res.writeHead(uploads.length === 1 ? 503 : 200, { 'content-type': 'application/json' });
        res.end('{}');
      });
      return;
    }
    if (req.url?.startsWith('/huge')) {
      // Declares more than the client takes, then sends a little: the client must not wait for the rest.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(17 * 1024 * 1024), 'request-id': 'req_huge' });
      res.write('{"data":[');
      return;
    }
    if (req.url?.startsWith('/cut')) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"data":[');
      return setTimeout(() => req.socket.destroy(), 20);
    }
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_1', 'x-multi': ['a', 'b'] });
    res.end(JSON.stringify({ ok: true, path: req.url, body: req.method === 'POST' ? 'posted' : null }));
  });
  server.on('connection', (s) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

const client = (timeoutMs = 5000) => createClient({ baseUrl: base, apiKey: 'sk_test_transport', maxRetries: 0, timeoutMs, sleep: async () => {} });

describe('default transport', () => {
  it('answers, joins repeated headers, and reuses one kept-alive connection', async () => {
    const c = client();
    const before = connections;
    const a = await c.request<{ ok: boolean; path: string }>({ method: 'GET', path: '/one' });
    const b = await c.request<{ ok: boolean; body: string }>({ method: 'POST', path: '/two', body: { x: 1 } });
    expect(a.data).toMatchObject({ ok: true, path: '/one' });
    expect(b.data.body).toBe('posted');
    expect(a.requestId).toBe('req_1');
    expect(a.headers['x-multi']).toBe('a, b');
    expect(connections - before).toBe(1);
    await c.close();
  });

  it('refuses a body declared larger than 16 MiB without reading it, naming the request and its id', async () => {
    const c = client();
    const err = await c.request({ method: 'GET', path: '/huge?offset=0' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect((err as Error).message).toBe('refused the response to GET /huge (status 200): its body is larger than 16 MiB, far more than an answer of this API holds; the rest was not read (request id req_huge)');
    await c.close();
  });

  it('turns a reset connection into a NetworkError', async () => {
    const c = client();
    await expect(c.request({ method: 'GET', path: '/reset' })).rejects.toBeInstanceOf(NetworkError);
    await c.close();
  });

  it('turns a body cut off half-way into a NetworkError', async () => {
    const c = client();
    await expect(c.request({ method: 'GET', path: '/cut' })).rejects.toBeInstanceOf(NetworkError);
    await c.close();
  });

  it('gives up on a server that never answers after the per-attempt timeout', async () => {
    const c = client(150);
    const started = Date.now();
    await expect(c.request({ method: 'GET', path: '/stall' })).rejects.toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(3000);
    await c.close();
  });

  it('speaks TLS to an https URL', async () => {
    // A plain TCP server keeps the first bytes it receives and hangs up: a TLS ClientHello is a
    // handshake record (0x16) of TLS 1.x (0x03 …).
    let first: Buffer | undefined;
    const tcp = createTcpServer((socket) => socket.once('data', (chunk: Buffer) => ((first ??= chunk), socket.destroy())));
    await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
    try {
      const c = createClient({ baseUrl: `https://127.0.0.1:${(tcp.address() as AddressInfo).port}`, apiKey: 'sk_test_transport', maxRetries: 0, timeoutMs: 5000, sleep: async () => {} });
      await expect(c.request({ method: 'GET', path: '/tls' })).rejects.toBeInstanceOf(NetworkError);
      await c.close();
      expect(first?.[0]).toBe(0x16);
      expect(first?.[1]).toBe(0x03);
      // The request line (and the key) never went out in the clear.
      expect(first?.toString('latin1')).not.toContain('GET /');
    } finally {
      await new Promise((r) => tcp.close(r));
    }
  });
});

describe('default transport, streamed bodies', () => {
  it('streams a body from its source with its content-length, and opens it again for a retry', async () => {
    const c = createClient({ baseUrl: base, apiKey: 'sk_test_transport', maxRetries: 1, sleep: async () => {}, random: () => 0 });
    let opened = 0;
    const body = { size: 11, open: () => (opened++, Readable.from([Buffer.from('hello '), Buffer.from('world')])) };
    const res = await c.request({ method: 'PUT', path: '/upload', rawBody: body, contentType: 'video/mp4' });
    expect(res.status).toBe(200);
    expect(opened).toBe(2);
    expect(uploads).toEqual([{ length: '11', body: 'hello world' }, { length: '11', body: 'hello world' }]);
    await c.close();
  });

  it('a slow upload that keeps moving is not cut by the timeout: it counts silence, not the whole upload', async () => {
    // 12 chunks 100 ms apart: 1.2 s in all, more than twice the 500 ms timeout, never 500 ms without a byte.
    const c = createClient({ baseUrl: base, apiKey: 'sk_test_transport', maxRetries: 0, timeoutMs: 500, sleep: async () => {} });
    const chunks = Array.from({ length: 12 }, (_, i) => String(i % 10));
    const slow = async function* () {
      for (const chunk of chunks) {
        await new Promise((r) => setTimeout(r, 100));
        yield Buffer.from(chunk);
      }
    };
    uploads.length = 1; // the next upload is answered 200 at once
    const res = await c.request({ method: 'PUT', path: '/upload', rawBody: { size: 12, open: () => Readable.from(slow()) } });
    expect(res.status).toBe(200);
    expect(uploads[1]).toEqual({ length: '12', body: chunks.join('') });
    await c.close();
  });

  it('a streamed body whose source fails ends at once as bad input, not as a network error to retry', async () => {
    const c = createClient({ baseUrl: base, apiKey: 'sk_test_transport', maxRetries: 3, sleep: async () => {} });
    let opened = 0;
    const body = {
      size: 100,
      open: () => {
        opened++;
        return new Readable({ read() { this.destroy(Object.assign(new Error('ENOENT: no such file or directory, open \'/gone.mp4\''), { code: 'ENOENT' })); } });
      },
    };
    const err = await c.request({ method: 'PUT', path: '/upload-gone', rawBody: body }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as Error).message).toBe("could not read what was being sent: ENOENT: no such file or directory, open '/gone.mp4'");
    expect(opened).toBe(1);
    await c.close();
  });
});
