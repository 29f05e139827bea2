// One request must not break the sandbox: JSON nested too deep is refused before anything is
// stored; malformed HTTP, oversized headers and stalled requests get the contract's error body
// and a Request-Id; two Authorization headers are refused; 300 slow connections (trickled
// headers, or bodies stalled with one workspace's key) do not keep a normal request from being
// served. Raw sockets, real HTTP, short configured timeouts.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRows, call, manualSandbox, text, type TestSandbox } from './sandbox-support.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-hardening-'));
let sb: TestSandbox;

beforeAll(async () => {
  sb = await manualSandbox({ dataFile: join(dir, 'state.json'), headersTimeoutMs: 300, bodyTimeoutMs: 300, requestTimeoutMs: 2_000, writeLimit: 1000, readLimit: 100_000 });
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

// Written as text: JSON.stringify itself overflows on 5,000 levels.
const nested = (depth: number) => `${'['.repeat(depth)}"bottom"${']'.repeat(depth)}`;
// The body's own three levels (body, payloads, the platform's payload) come on top.
const deepBody = (depth: number) => `{"payloads":{"twitter-x":{"text":"deep","settings":${nested(depth)}}}}`;

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

function parse(raw: string): RawAnswer {
  const split = raw.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = raw.slice(0, split).split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  let body: unknown;
  try {
    body = JSON.parse(raw.slice(split + 4));
  } catch {
    body = raw.slice(split + 4);
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body };
}

/** A connection to the sandbox, from `localAddress` when given (another loopback address is another client). */
function open(to: TestSandbox = sb, localAddress?: string): Promise<Socket> {
  const { hostname, port } = new URL(to.url);
  return new Promise((resolve, reject) => {
    const s = connect({ port: Number(port), host: hostname, ...(localAddress ? { localAddress } : {}) }, () => resolve(s));
    s.once('error', reject);
  });
}

/** Sends `chunks` (a string is sent at once) and reads until the server closes. */
async function raw(...chunks: string[]): Promise<RawAnswer> {
  const s = await open();
  let got = '';
  s.on('data', (c: Buffer) => (got += c.toString('latin1')));
  s.on('error', () => undefined);
  const closed = new Promise((resolve) => s.once('close', resolve));
  for (const c of chunks) s.write(c);
  await closed;
  return parse(got);
}

const expectContractError = (a: RawAnswer, status: number, code: string, message: RegExp) => {
  expect(a.status).toBe(status);
  expect(a.headers['request-id']).toMatch(/^req_[0-9A-Za-z]{12}$/);
  expect(a.headers['content-type']).toMatch(/^application\/json/);
  expect(a.body).toEqual({ error: { code, message: expect.stringMatching(message) }, requestId: a.headers['request-id'] });
};

describe('JSON nested too deep', () => {
  it('is refused with 400 before anything is stored, and the workspace keeps working', async () => {
    const key = sb.key('demo');
    const before = (await allRows(sb, key, '/v1/posts')).total;
    for (const depth of [62, 5_000]) {
      const r = await call(sb, 'POST', '/v1/posts', { key, raw: deepBody(depth), headers: { 'content-type': 'application/json', 'idempotency-key': `deep-${depth}` } });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        error: { code: 'BAD_REQUEST', message: expect.stringMatching(/nested deeper than 64 levels/), issues: [{ path: 'body', message: 'nested deeper than 64 levels' }] },
        requestId: r.headers.get('request-id'),
      });
    }
    // Exactly 64 levels in all is taken.
    const ok = await call(sb, 'POST', '/v1/posts', { key, raw: deepBody(61), headers: { 'content-type': 'application/json' } });
    expect(ok.status).toBe(201);
    expect(JSON.stringify(ok.body.payloads['twitter-x'].settings)).toBe(nested(61));
    // Brackets inside strings are text, not nesting.
    const brackets = await call(sb, 'POST', '/v1/posts', { key, body: { payloads: text(['bluesky'], '['.repeat(100) + '{"\\"'.repeat(40)) } });
    expect(brackets.status).toBe(201);
    // The lists still answer, and the refused key was never kept "in flight".
    expect((await allRows(sb, key, '/v1/posts')).total).toBe(before + 2);
    const retry = await call(sb, 'POST', '/v1/posts', { key, body: { payloads: text(['linkedin']) }, headers: { 'idempotency-key': 'deep-5000' } });
    expect(retry.status).toBe(201);
  });
});

describe('malformed HTTP', () => {
  it('gets the contract error body and a Request-Id, whatever Node refused', async () => {
    const cases: [string, string[], number, string, RegExp][] = [
      ['20 KB header', [`GET /v1/posts HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`], 431, 'REQUEST_HEADERS_TOO_LARGE', /larger than 16 KB/],
      ['60 KB URL', [`GET /v1/posts?q=${'a'.repeat(60_000)} HTTP/1.1\r\nHost: x\r\n\r\n`], 431, 'REQUEST_HEADERS_TOO_LARGE', /shorter URL/],
      ['garbage request line', ['\x16\x03\x01 hello there\r\n\r\n'], 400, 'BAD_REQUEST', /malformed request line/],
      ['unknown method', ['BREW /v1/posts HTTP/1.1\r\nHost: x\r\n\r\n'], 400, 'BAD_REQUEST', /unknown HTTP method/],
      ['Content-Length with Transfer-Encoding', ['POST /v1/posts HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'], 400, 'BAD_REQUEST', /either Content-Length or Transfer-Encoding: chunked/],
      ['header line without a colon', ['GET /v1/posts HTTP/1.1\r\nHost: x\r\nthis is not a header\r\n\r\n'], 400, 'BAD_REQUEST', /malformed HTTP request \(HPE_/],
      ['bad chunk size mid-body', [`POST /v1/posts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk_sandbox_x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`], 400, 'BAD_REQUEST', /malformed HTTP request \(HPE_INVALID_CHUNK_SIZE\)/],
      ['stalled headers', ['GET /v1/posts HTTP/1.1\r\nHost: x\r\nX-Slow: '], 408, 'REQUEST_TIMEOUT', /did not arrive in time/],
    ];
    const seen: string[] = [];
    for (const [name, chunks, status, code, message] of cases) {
      const a = await raw(...chunks);
      seen.push(`${name} → ${a.status} ${a.body?.error?.code} "${a.body?.error?.message}"`);
      expectContractError(a, status, code, message);
    }
    expect(seen).toHaveLength(cases.length);
    console.log(seen.join('\n'));
    const logged = sb.requests.filter((r) => r.malformed !== undefined);
    expect(logged.map((r) => r.status)).toEqual(cases.map((c) => c[2]));
    expect(logged.map((r) => r.malformed)).toContain('HPE_HEADER_OVERFLOW');
  });

  it('answers 408 to a body that stops arriving, declared or chunked, and stores nothing', async () => {
    const key = sb.key('demo');
    const before = (await allRows(sb, key, '/v1/posts')).total;
    const head = (extra: string) => `POST /v1/posts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n${extra}\r\n`;
    const declared = await raw(head('Content-Length: 100\r\n'), '{"payloads":');
    expectContractError(declared, 408, 'REQUEST_TIMEOUT', /no byte of the request body arrived for 300 ms/);
    const chunked = await raw(head('Transfer-Encoding: chunked\r\n'), 'c\r\n{"payloads":\r\n');
    expectContractError(chunked, 408, 'REQUEST_TIMEOUT', /no byte of the request body/);
    expect((await allRows(sb, key, '/v1/posts')).total).toBe(before);
  });

  it('refuses two Authorization headers with 400, even when the first key is valid', async () => {
    const key = sb.key('demo');
    const a = await raw(`GET /v1/posts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nAuthorization: Bearer ${sb.key('other')}\r\nConnection: close\r\n\r\n`);
    expectContractError(a, 400, 'BAD_REQUEST', /2 Authorization headers; send exactly one/);
    expect(a.headers['ratelimit-limit']).toMatch(/^\d+$/);
  });
});

describe('many slow connections', () => {
  it('still serve a normal request while 300 connections trickle their headers; the cap closes the oldest idle ones', async () => {
    // Default timeouts (the slow ones are not timed out meanwhile), at most 100 connections.
    const capped = await manualSandbox({ maxConnections: 100 });
    const slow: Socket[] = [];
    let closed = 0;
    for (let i = 0; i < 300; i++) {
      const s = await open(capped);
      s.on('error', () => undefined);
      s.once('close', () => closed++);
      s.write('GET /v1/posts HTTP/1.1\r\nHost: x\r\n');
      slow.push(s);
    }
    const trickle = setInterval(() => {
      for (const s of slow) if (!s.destroyed) s.write('X-A: b\r\n');
    }, 50);
    try {
      const r = await call(capped, 'GET', '/v1/posts?limit=1', { key: capped.key('demo') });
      expect(r.status).toBe(200);
      expect(r.body.meta.total).toBe(0);
      // At most 100 connections stay open (the normal request's among them).
      await new Promise((resolve) => setImmediate(resolve));
      expect(closed).toBeGreaterThanOrEqual(300 - 100);
    } finally {
      clearInterval(trickle);
      for (const s of slow) s.destroy();
      await capped.close();
    }
  });

  it('keep the connection of another address while 300 from one address stall their headers', async (ctx) => {
    const capped = await manualSandbox({ maxConnections: 100 });
    const slow: Socket[] = [];
    try {
      // Linux routes all of 127/8 to loopback; elsewhere only 127.0.0.1 may exist.
      const other = await open(capped, '127.0.0.2').catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'EADDRNOTAVAIL') return undefined;
        throw err;
      });
      if (!other) return ctx.skip();
      let got = '';
      other.on('data', (c: Buffer) => (got += c.toString('latin1')));
      other.on('error', () => undefined);
      const otherClosed = new Promise((resolve) => other.once('close', resolve));
      // The oldest connection without a request: the first to go if the cap counted everyone together.
      other.write('GET /v1/posts?limit=1 HTTP/1.1\r\nHost: x\r\n');
      let closed = 0;
      let allEvicted!: () => void;
      const evicted = new Promise<void>((resolve) => (allEvicted = resolve));
      for (let i = 0; i < 300; i++) {
        const s = await open(capped);
        s.on('error', () => undefined);
        s.once('close', () => ++closed === 200 && allEvicted());
        s.write('GET /v1/posts HTTP/1.1\r\nHost: x\r\n');
        slow.push(s);
      }
      // 301 connections at a cap of 100: at least 200 of the flood's are gone, then the other finishes.
      await evicted;
      other.write(`Authorization: Bearer ${capped.key('other')}\r\nConnection: close\r\n\r\n`);
      await otherClosed;
      const a = parse(got);
      expect(a.status).toBe(200);
      expect(a.body.meta.total).toBe(0);
    } finally {
      for (const s of slow) s.destroy();
      await capped.close();
    }
  });

  it("still serve another workspace while one holds every slot with 300 stalled bodies; those the cap keeps get 408", async () => {
    // A body idle for 3 s is answered 408: far longer than opening the 300 takes, waited once.
    const capped = await manualSandbox({ maxConnections: 100, bodyTimeoutMs: 3_000 });
    const head = `POST /v1/posts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${capped.key('demo')}\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n`;
    const sockets: Socket[] = [];
    const answers: Promise<string>[] = [];
    try {
      for (let i = 0; i < 300; i++) {
        const s = await open(capped);
        sockets.push(s);
        s.on('error', () => undefined);
        let got = '';
        s.on('data', (c: Buffer) => (got += c.toString('latin1')));
        const closed = new Promise<string>((resolve) => s.once('close', () => resolve(got)));
        answers.push(closed);
        // "100 Continue" is written as the request is handed to the sandbox: it holds this
        // request (or has cut the connection) before the next one comes.
        s.write(head);
        await Promise.race([closed, new Promise((resolve) => s.once('data', resolve))]);
        if (!s.destroyed) s.write('{"payloads":');
      }
      const r = await call(capped, 'GET', '/v1/posts?limit=1', { key: capped.key('other') });
      expect(r.status).toBe(200);
      const ends = await Promise.all(answers);
      const final = ends.map((e) => e.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, ''));
      // The cap made room by cutting the workspace's own oldest connections; every other one
      // (all but the slot of the other workspace's request) was answered 408 in the contract's shape.
      const answered = final.filter((e) => e !== '').map(parse);
      for (const a of answered) expectContractError(a, 408, 'REQUEST_TIMEOUT', /no byte of the request body arrived for 3000 ms/);
      expect(answered.length).toBeGreaterThanOrEqual(100 - 1);
      console.log(`300 stalled bodies at a cap of 100: ${answered.length} answered 408, ${300 - answered.length} cut to make room`);
    } finally {
      for (const s of sockets) s.destroy();
      await capped.close();
    }
  });
});
