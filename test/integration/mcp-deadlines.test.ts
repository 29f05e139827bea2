// The MCP server in process, on raw JSON-RPC over in-memory pipes, with the sandbox and the
// server on one manual clock: every call answers within 50 s of that clock, wait_for_results sends
// progress at least every 10 s and answers at once when waiting cannot help, and a hung service
// ends a call with a clear tool error at the call's deadline.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { createTransport, type Fetcher } from '../../src/client/transport.js';
import { CALL_DEADLINE_MS, startMcpServer } from '../../src/mcp/server.js';
import { CALL_WAIT_MS, PROGRESS_EVERY_MS } from '../../src/mcp/tools/wait-for-results.js';
import type { ManualClock } from '../../src/sandbox/clock.js';
import { api, keyOf, sandboxFor, schedulePost } from './results-support.js';
import { ROOMY_LIMITS, testSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { SCAN_BUDGET_MS } from '../../src/mcp/result-pages.js';
import { proxyWithout } from '../helpers/route-proxy.js';
import { png } from '../helpers/media-fixtures.js';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Message {
  id?: number;
  method?: string;
  params?: { progress: number; total?: number; message?: string };
  result?: { isError?: boolean; structuredContent: Record<string, unknown> };
}

/**
 * A server on in-memory pipes; every message it sends is kept with the clock's time. Its client
 * talks real HTTP through the default transport; `sentAt`, when given, gets the clock's time as
 * each request leaves (a server's own stamp can come one clock step later, while it is in flight).
 */
function session(clock: ManualClock, baseUrl: string, apiKey: string, sentAt?: number[], mediaDirs: string[] = []) {
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const received: Array<{ at: number; message: Message }> = [];
  let buffer = '';
  fromServer.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      received.push({ at: clock.now(), message: JSON.parse(buffer.slice(0, nl)) as Message });
      buffer = buffer.slice(nl + 1);
    }
  });
  const stopped = new AbortController();
  const stamped = sentAt && stamping(clock, sentAt);
  const running = startMcpServer({
    client: async (signal) => createClient({ baseUrl, apiKey, maxRetries: 3, signal: signal ?? stopped.signal, now: clock.now, sleep: clock.sleep, fetcher: stamped?.fetcher }),
    profileName: 'default',
    secrets: [apiKey],
    mediaDirs,
    now: () => clock.now(),
    sleep: (ms, signal) => clock.sleep(ms, signal),
    signal: stopped.signal,
    stdin: toServer,
    stdout: fromServer,
    log: () => undefined,
    readOnly: false,
    version: '0.0.0-test',
  });
  let nextId = 1;
  const send = (m: unknown) => toServer.write(`${JSON.stringify(m)}\n`);
  send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    received,
    /** Sends a tools/call with a progress token; returns its id. */
    call(name: string, args: Record<string, unknown>): number {
      const id = nextId++;
      send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: { progressToken: `p${id}` } } });
      return id;
    },
    answer: (id: number) => received.find((r) => r.message.id === id),
    progress: (id: number) => received.filter((r) => r.message.method === 'notifications/progress' && (r.message.params as { progressToken?: string } | undefined)?.progressToken === `p${id}`),
    async close() {
      toServer.end();
      stopped.abort();
      await running;
      stamped?.close();
    },
  };
}

/** The default transport, with the clock's time noted as each request is sent. */
function stamping(clock: ManualClock, sentAt: number[]): { fetcher: Fetcher; close(): void } {
  const transport = createTransport(undefined);
  return {
    fetcher: async (url, request) => {
      const fetch = await transport.fetcher();
      sentAt.push(clock.now());
      return fetch(url, request);
    },
    close: () => transport.close(),
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 2));

/** Real time for I/O, then clock time in steps, until the call is answered (or the step budget ends). */
async function until(answered: () => unknown, clock: ManualClock, stepMs: number, maxSteps: number): Promise<void> {
  for (let i = 0; i < maxSteps && !answered(); i++) {
    for (let j = 0; j < 5 && !answered(); j++) await tick();
    if (!answered()) await clock.advance(stepMs);
  }
}

describe('MCP calls answer in time', () => {
  let sb: TestSandbox;
  let s: ReturnType<typeof session>;
  beforeAll(async () => {
    sb = await sandboxFor({ failureRate: 0, seed: 9 });
    s = session(sb.clock, sb.url, keyOf(sb, 'demo'));
  });
  afterAll(async () => {
    await s?.close();
    await sb?.close();
  });

  it(`wait_for_results answers within ${CALL_WAIT_MS / 1000} s with what it has, progress at least every ${PROGRESS_EVERY_MS / 1000} s`, async () => {
    const post = await schedulePost(sb, keyOf(sb, 'demo'), ['bluesky', 'threads'], 5 * 60_000);
    const t0 = sb.clock.now();
    const id = s.call('wait_for_results', { post_id: post.id, timeout_seconds: 600 });
    await until(() => s.answer(id), sb.clock, 500, 400);
    const answer = s.answer(id)!;
    expect(answer).toBeDefined();
    expect(answer.at - t0).toBeLessThan(50_000);
    expect(answer.message.result!.isError).toBeFalsy();
    expect(answer.message.result!.structuredContent).toMatchObject({ post_id: post.id, done: false, timed_out: false, still_waiting: true, reported: 0, expected: 2 });
    expect(answer.message.result!.structuredContent.notes).toContainEqual(expect.stringContaining('call again to keep waiting'));
    const times = [t0, ...s.progress(id).map((p) => p.at), answer.at];
    expect(times.length).toBeGreaterThan(5);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(PROGRESS_EVERY_MS + 500); // one clock step of slack
    const values = s.progress(id).map((p) => p.message.params!.progress);
    expect(values.every((v, i) => i === 0 || v > values[i - 1]!)).toBe(true);
    expect(values.every((v) => v < 1)).toBe(true); // nothing reported yet
    // One voice: the wait's own messages, not the server's "still working" in between.
    expect(s.progress(id).map((p) => p.message.params!.message)).toEqual(Array(values.length).fill('0 of 2 platforms reported'));
  });

  it('a draft is answered at once, without waiting', async () => {
    const draft = await api<{ id: string }>(sb, keyOf(sb, 'demo'), 'POST', '/v1/posts', { payloads: { bluesky: { text: 'later' } } });
    const t0 = sb.clock.now();
    const id = s.call('wait_for_results', { post_id: draft.body.id, timeout_seconds: 600 });
    await until(() => s.answer(id), sb.clock, 1_000, 0);
    for (let i = 0; i < 200 && !s.answer(id); i++) await tick();
    expect(sb.clock.now()).toBe(t0);
    expect(s.answer(id)!.message.result!.structuredContent).toMatchObject({ done: false, still_waiting: false, expected: 1, missing: ['bluesky'], reason: expect.stringContaining('is a draft') });
  });

  it('a post due after the wait is answered at once, naming its time', async () => {
    const post = await schedulePost(sb, keyOf(sb, 'demo'), ['linkedin'], 2 * 3600_000);
    const t0 = sb.clock.now();
    const id = s.call('wait_for_results', { post_id: post.id, timeout_seconds: 600 });
    for (let i = 0; i < 200 && !s.answer(id); i++) await tick();
    expect(sb.clock.now()).toBe(t0);
    const got = s.answer(id)!.message.result!.structuredContent;
    expect(got).toMatchObject({ done: false, timed_out: false, still_waiting: false, reported: 0, expected: 1 });
    expect(got.reason).toContain(`is scheduled for ${new Date(t0 + 2 * 3600_000).toISOString()}, after this wait would end`);
  });

  it('a post published within the wait: done, the last progress is exactly the total', async () => {
    const post = await schedulePost(sb, keyOf(sb, 'demo'), ['bluesky'], 20_000);
    const id = s.call('wait_for_results', { post_id: post.id, timeout_seconds: 60 });
    await until(() => s.answer(id), sb.clock, 500, 200);
    expect(s.answer(id)!.message.result!.structuredContent).toMatchObject({ done: true, still_waiting: false, reported: 1, expected: 1 });
    expect(s.progress(id).at(-1)!.message.params).toMatchObject({ progress: 1, total: 1, message: '1 of 1 platform reported' });
  });
});

describe('MCP call deadline', () => {
  let hung: Server;
  let sb: TestSandbox;
  let s: ReturnType<typeof session>;
  beforeAll(async () => {
    sb = await sandboxFor({ seed: 10 });
    // Takes every request and never answers, as a hung service does.
    hung = createServer(() => undefined);
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    s = session(sb.clock, `http://127.0.0.1:${(hung.address() as AddressInfo).port}`, keyOf(sb, 'demo'));
  });
  afterAll(async () => {
    await s?.close();
    hung?.closeAllConnections();
    await new Promise((resolve) => hung?.close(resolve));
    await sb?.close();
  });

  it(`list_posts against a hung service ends at ${CALL_DEADLINE_MS / 1000} s with a tool error that says so`, async () => {
    const t0 = sb.clock.now();
    const id = s.call('list_posts', {});
    await until(() => s.answer(id), sb.clock, 1_000, 100);
    const answer = s.answer(id)!;
    expect(answer).toBeDefined();
    expect(answer.at - t0).toBeGreaterThanOrEqual(CALL_DEADLINE_MS);
    expect(answer.at - t0).toBeLessThan(50_000);
    expect(answer.message.result!.isError).toBe(true);
    expect(answer.message.result!.structuredContent).toMatchObject({ code: 'network', message: `list_posts did not finish within ${CALL_DEADLINE_MS / 1000} s: the service is slow or not answering` });
  });

  it(`a call that is not wait_for_results still sends progress at least every ${PROGRESS_EVERY_MS / 1000} s while the service hangs`, async () => {
    const t0 = sb.clock.now();
    const id = s.call('get_post', { post_id: 'post_hung' });
    await until(() => s.answer(id), sb.clock, 1_000, 100);
    const answer = s.answer(id)!;
    expect(answer.message.result!.isError).toBe(true);
    const beats = s.progress(id);
    expect(beats.length).toBeGreaterThanOrEqual(4);
    const times = [t0, ...beats.map((p) => p.at), answer.at];
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(PROGRESS_EVERY_MS + 1_000); // one clock step of slack
    const values = beats.map((p) => p.message.params!.progress);
    expect(values.every((v, i) => i === 0 || v > values[i - 1]!)).toBe(true);
    expect(beats[0]!.message.params!.message).toMatch(/^still working \(\d+ s\)$/);
  });
});

describe('wait_for_results through an outage longer than the call', () => {
  let failing: Server;
  let sb: TestSandbox;
  let s: ReturnType<typeof session>;
  // The clock's time as each request left the client.
  const seenAt: number[] = [];
  beforeAll(async () => {
    sb = await sandboxFor({ seed: 11 });
    // Answers every request with 503, as a service down for maintenance does.
    failing = createServer((req, res) => {
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'down for maintenance' } }));
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    s = session(sb.clock, `http://127.0.0.1:${(failing.address() as AddressInfo).port}`, keyOf(sb, 'demo'), seenAt);
  });
  afterAll(async () => {
    await s?.close();
    failing?.closeAllConnections();
    await new Promise((resolve) => failing?.close(resolve));
    await sb?.close();
  });

  it(`answers by the end of its ${CALL_WAIT_MS / 1000} s: still waiting, the 503 told, no request sent at or after it (the client's retries included)`, async () => {
    seenAt.length = 0;
    const t0 = sb.clock.now();
    const id = s.call('wait_for_results', { post_id: 'post_down', expect: 1, timeout_seconds: 600 });
    await until(() => s.answer(id), sb.clock, 500, 200);
    const answer = s.answer(id)!;
    expect(answer).toBeDefined();
    expect(answer.at - t0).toBeLessThanOrEqual(CALL_WAIT_MS);
    // The wait has 560 s left: like any wait longer than one call, "call again", with the reason.
    expect(answer.message.result!.isError).toBeFalsy();
    const got = answer.message.result!.structuredContent;
    expect(got).toMatchObject({ done: false, timed_out: false, still_waiting: true, reported: 0, expected: 1 });
    expect((got.notes as string[]).join('\n')).toMatch(/not answering \(.*503/);
    expect(seenAt.length).toBeGreaterThan(4);
    expect(Math.max(...seenAt) - t0).toBeLessThan(CALL_WAIT_MS);
  });

  it('a post it cannot look up through the whole call: still waiting, nothing claimed about its targets', async () => {
    seenAt.length = 0;
    const t0 = sb.clock.now();
    const id = s.call('wait_for_results', { post_id: 'post_down', timeout_seconds: 600 });
    await until(() => s.answer(id), sb.clock, 500, 200);
    const answer = s.answer(id)!;
    expect(answer.at - t0).toBeLessThanOrEqual(CALL_WAIT_MS);
    expect(answer.message.result!.isError).toBeFalsy();
    const got = answer.message.result!.structuredContent;
    expect(got).toMatchObject({ done: false, still_waiting: true, reported: 0, expected: null, missing: [] });
    expect((got.notes as string[]).join('\n')).toMatch(/did not answer for a while \(.*503.*\n.*could not be looked up yet/s);
    expect(Math.max(...seenAt) - t0).toBeLessThan(CALL_WAIT_MS);
  });

  it('ends with the 503 as a tool error when the outage lasts to the end of the wait itself', async () => {
    seenAt.length = 0;
    const t0 = sb.clock.now();
    const id = s.call('wait_for_results', { post_id: 'post_down', expect: 1, timeout_seconds: 30 });
    await until(() => s.answer(id), sb.clock, 500, 200);
    const answer = s.answer(id)!;
    expect(answer.at - t0).toBeLessThanOrEqual(30_000);
    expect(answer.message.result!.isError).toBe(true);
    expect(answer.message.result!.structuredContent.message).toMatch(/the service failed \(503/);
    expect(Math.max(...seenAt) - t0).toBeLessThan(30_000);
  });
});

describe('wait_for_results looks the post up through a short outage', () => {
  let sb: TestSandbox;
  let proxy: Awaited<ReturnType<typeof proxyWithout>>;
  let s: ReturnType<typeof session>;
  let downUntil = 0;
  beforeAll(async () => {
    sb = await sandboxFor({ failureRate: 0, seed: 12 });
    // Down (503) until downUntil on the sandbox's clock, the sandbox itself after.
    proxy = await proxyWithout(sb.url, () => sb.clock.now() < downUntil, { status: 503, type: 'application/json', body: JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'down for maintenance' } }) });
    s = session(sb.clock, proxy.url, keyOf(sb, 'demo'));
  });
  afterAll(async () => {
    await s?.close();
    await proxy?.close();
    await sb?.close();
  });

  it('rides it out and waits on, the outage told in the notes', async () => {
    const post = await schedulePost(sb, keyOf(sb, 'demo'), ['bluesky'], 5_000);
    downUntil = sb.clock.now() + 8_000;
    const id = s.call('wait_for_results', { post_id: post.id, timeout_seconds: 60 });
    await until(() => s.answer(id), sb.clock, 500, 200);
    const answer = s.answer(id)!;
    expect(answer.message.result!.isError).toBeFalsy();
    const got = answer.message.result!.structuredContent;
    expect(got).toMatchObject({ done: true, reported: 1, expected: 1 });
    expect((got.notes as string[]).join('\n')).toMatch(/did not answer for a while \(.*503/);
  });
});


describe('a long scan on a slow service', () => {
  let sb: TestSandbox;
  let s: ReturnType<typeof session>;
  beforeAll(async () => {
    // Every answer 3 s late, and no failure among 3,000 results: failed_only has to read them all.
    sb = await testSandbox({ seed: 13, fixtures: 3_000, failureRate: 0, latencyMs: 3_000, ...ROOMY_LIMITS });
    s = session(sb.clock, sb.url, keyOf(sb, 'demo'));
  });
  afterAll(async () => {
    await s?.close();
    await sb?.close();
  });

  it(`list_results failed_only stops starting pages after ${SCAN_BUDGET_MS / 1000} s and answers with a cursor, not a deadline error`, async () => {
    const t0 = sb.clock.now();
    const id = s.call('list_results', { failed_only: true, limit: 50 });
    await until(() => s.answer(id), sb.clock, 500, 200);
    const answer = s.answer(id)!;
    expect(answer).toBeDefined();
    expect(answer.at - t0).toBeLessThan(SCAN_BUDGET_MS + 5_000);
    expect(answer.message.result!.isError).toBeFalsy();
    const got = answer.message.result!.structuredContent;
    expect(got).toMatchObject({ results: [], count: 0, next_cursor: expect.any(String), note: expect.stringMatching(/^scanned \d+ rows without filling the page; call again with next_cursor/) });
  });

  it('results_stats answers in time with the count it has, marked incomplete', async () => {
    const t0 = sb.clock.now();
    const id = s.call('results_stats', {});
    await until(() => s.answer(id), sb.clock, 500, 200);
    const answer = s.answer(id)!;
    expect(answer.at - t0).toBeLessThan(SCAN_BUDGET_MS + 5_000);
    expect(answer.message.result!.isError).toBeFalsy();
    const got = answer.message.result!.structuredContent;
    expect(got.complete).toBe(false);
    expect(got.total).toBeGreaterThan(0);
    expect(got.total).toBeLessThan(3_000);
  });
});

describe('an upload that does not fit in one call', () => {
  let slow: Server;
  let sb: TestSandbox;
  let s: ReturnType<typeof session>;
  let dir: string;
  beforeAll(async () => {
    sb = await sandboxFor({ seed: 14 });
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'socialpub-mcp-upload-')));
    writeFileSync(join(dir, 'photo.png'), png(1200, 628));
    // Takes the media record, then never finishes taking the bytes: a link too slow for the file.
    slow = createServer((req, res) => {
      req.resume();
      if (req.method === 'POST' && req.url === '/v1/media') {
        const port = (slow.address() as AddressInfo).port;
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'med_1', uploadUrl: `http://127.0.0.1:${port}/upload/med_1`, url: 'https://cdn.example/med_1.png' }));
      }
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    s = session(sb.clock, `http://127.0.0.1:${(slow.address() as AddressInfo).port}`, keyOf(sb, 'demo'), undefined, [dir]);
  });
  afterAll(async () => {
    await s?.close();
    slow?.closeAllConnections();
    await new Promise((resolve) => slow?.close(resolve));
    await sb?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says to give a URL or use the command line, before "call again" (which would upload again)', async () => {
    const id = s.call('create_draft', { platforms: ['linkedin'], text: 'with a photo', media: [join(dir, 'photo.png')] });
    await until(() => s.answer(id), sb.clock, 1_000, 100);
    const answer = s.answer(id)!;
    expect(answer.message.result!.isError).toBe(true);
    const hints = answer.message.result!.structuredContent.hints as string[];
    expect(hints[0]).toMatch(/^local media is uploaded within the call: a large file may not fit in one, .* give it as an https:\/\/ URL, or ask the user to post it with the command line/);
    expect(hints[1]).toBe('call again in a while: the same call never posts twice');
  });
});
