// A destructive change confirmed within the call's own time, through the official SDK client: the
// client gives up on a call after 60 s whatever the server waits for, so the user's answer is
// awaited only as long as the call's deadline allows (leaving room for the change), and a call
// the client gave up on (timed out, cancelled, or the pipe closed) never acts on a later yes.
// The server and the sandbox share one manual clock; the client's own timeouts are real time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { CALL_DEADLINE_MS, CHANGE_RESERVE_MS } from '../../src/mcp/server.js';
import type { Post } from '../../src/wire/schemas.js';
import { faultyProxy } from '../helpers/faulty-proxy.js';
import { startSdkSession, type SdkSession } from '../helpers/mcp-sdk-client.js';
import { ROOMY_LIMITS, testSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let key: string;
const AT = '2027-01-15T09:00:00.000Z';

beforeAll(async () => {
  sb = await testSandbox({ ...ROOMY_LIMITS, fixtures: 0 });
  key = sb.key('demo');
});
afterAll(() => sb.close());

async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(new URL(path, sb.url), { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as T };
}
async function scheduled(text: string): Promise<Post> {
  const draft = (await api<Post>('POST', '/v1/posts', { payloads: { bluesky: { text } } })).body;
  const res = await api<Post>('POST', '/v1/schedule', { postId: draft.id, scheduledAt: AT });
  expect(res.status).toBeLessThan(300);
  return res.body;
}
const writesSince = (from: number) => sb.requests.slice(from).filter((r) => r.method !== 'GET');
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
/** Real time for I/O (a bounded number of ticks), then, if a step is given, clock time in steps, until `done`. */
async function until(done: () => unknown, stepMs = 0, maxSteps = 100): Promise<void> {
  for (let i = 0; i < maxSteps && !done(); i++) {
    for (let j = 0; j < 10 && !done(); j++) await tick();
    if (!done() && stepMs) await sb.clock.advance(stepMs);
  }
}

/** A session whose client declares elicitation and holds each question until the test answers it. */
async function askingSession(env: Record<string, string> = {}) {
  const s = await startSdkSession([], { env: { SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: key, ...env }, clock: sb.clock, elicit: ['decline'] });
  const answers: Array<(a: ElicitResult) => void> = [];
  s.client.setRequestHandler(ElicitRequestSchema, (request) => {
    s.asked.push(request.params.message);
    return new Promise<ElicitResult>((resolve) => answers.push(resolve));
  });
  const yes = () => answers.shift()?.({ action: 'accept', content: { confirm: true } });
  return { s, answers, yes };
}

describe('a client that declares elicitation', () => {
  let a: Awaited<ReturnType<typeof askingSession>>;
  beforeAll(async () => {
    a = await askingSession();
  });
  afterAll(async () => expect(await a.s.close()).toBe(0));

  it("waits for the user's answer only within the call's deadline, saying how long; a yes after that sends nothing", async () => {
    const post = await scheduled('asked, answered too late');
    const from = sb.requests.length;
    const start = sb.clock.now();
    let answer: Awaited<ReturnType<SdkSession['call']>> | undefined;
    void a.s.call('delete_post', { post_id: post.id }).then((r) => (answer = r));
    await until(() => a.s.asked.length);
    // The user does not answer: the call answers by its deadline, well inside the client's 60 s.
    await until(() => answer, 1_000, 70);
    expect(answer?.structuredContent).toMatchObject({ confirmed: false, changed: false, note: expect.stringMatching(/^the user did not answer in time: nothing was sent/) });
    expect(sb.clock.now() - start).toBeLessThanOrEqual(CALL_DEADLINE_MS - CHANGE_RESERVE_MS + 1_000);
    // The question said how long the user had.
    const waitS = (CALL_DEADLINE_MS - CHANGE_RESERVE_MS) / 1000;
    expect(a.s.asked).toEqual([`Delete post ${post.id} (scheduled for ${AT}, on bluesky) for good. Go ahead? (Answer within ${waitS} s; after that nothing is sent.)`]);
    // The yes comes afterwards: the question was withdrawn, and nothing acts on it.
    a.yes();
    for (let i = 0; i < 20; i++) await tick();
    expect(writesSince(from)).toEqual([]);
    expect((await api('GET', `/v1/posts/${post.id}`)).status).toBe(200);
    expect(a.s.stderr()).toContain(`delete_post: no answer to the confirmation: none within ${waitS} s`);
  });

  it('a yes within that time deletes, and the whole call still answers within the deadline', async () => {
    const post = await scheduled('asked, answered in time');
    const start = sb.clock.now();
    let answer: Awaited<ReturnType<SdkSession['call']>> | undefined;
    void a.s.call('delete_post', { post_id: post.id }).then((r) => (answer = r));
    await until(() => a.answers.length);
    await sb.clock.advance(CALL_DEADLINE_MS - CHANGE_RESERVE_MS - 2_000);
    a.yes();
    await until(() => answer);
    expect(answer?.structuredContent).toMatchObject({ deleted: true, post_id: post.id });
    expect(sb.clock.now() - start).toBeLessThan(CALL_DEADLINE_MS);
  });

  it('a call the client gave up on (its own timeout) never acts on a yes given later', async () => {
    const post = await scheduled('client gave up');
    const from = sb.requests.length;
    const gaveUp = await a.s.client.callTool({ name: 'delete_post', arguments: { post_id: post.id } }, undefined, { timeout: 300 }).catch((e: unknown) => e);
    expect(gaveUp).toMatchObject({ code: -32001 });
    await until(() => a.s.stderr().includes('delete_post: cancelled by the client'));
    a.yes();
    for (let i = 0; i < 20; i++) await tick();
    expect(writesSince(from)).toEqual([]);
    expect((await api('GET', `/v1/posts/${post.id}`)).status).toBe(200);
    // The server said so in one line, and goes on serving.
    expect(a.s.stderr()).toContain('delete_post: cancelled by the client: nothing more is done\n');
    expect(a.s.stderr()).not.toMatch(/McpError|MCP error -32001/);
    expect((await a.s.call('list_posts', {})).isError).toBeFalsy();
  });
});

describe('a call whose service was slow before the question', () => {
  it('does not ask with too little time left to answer: nothing is sent, and the call says why', async () => {
    const post = await scheduled('slow read first');
    // The read of the post says 503, come back in 30 s: 18 s of the call are left, 8 of them to answer.
    let reads = 0;
    const proxy = await faultyProxy(sb.url, (req) => (req.method === 'GET' && req.url === `/v1/posts/${post.id}` && reads++ === 0 ? { status: 503, headers: { 'retry-after': '30' } } : 'pass'));
    const a = await askingSession({ SOCIALPUB_BASE_URL: proxy.url });
    try {
      const from = sb.requests.length;
      let answer: Awaited<ReturnType<SdkSession['call']>> | undefined;
      void a.s.call('delete_post', { post_id: post.id }).then((r) => (answer = r));
      await until(() => answer, 1_000, 60);
      expect(answer?.structuredContent).toMatchObject({ confirmed: false, changed: false, note: expect.stringMatching(/^the service was slow, and too little of this call's time was left to ask the user: nothing was sent/) });
      expect(a.s.asked).toEqual([]);
      expect(writesSince(from)).toEqual([]);
    } finally {
      expect(await a.s.close()).toBe(0);
      await proxy.close();
    }
  });
});

describe('a client that closes the pipe while the user is asked', () => {
  it('ends the server without acting on the question', async () => {
    const a = await askingSession();
    const post = await scheduled('pipe closed');
    const from = sb.requests.length;
    void a.s.call('delete_post', { post_id: post.id }).catch(() => undefined);
    await until(() => a.answers.length);
    expect(await a.s.close()).toBe(0);
    a.yes();
    for (let i = 0; i < 20; i++) await tick();
    expect(writesSince(from)).toEqual([]);
    expect((await api('GET', `/v1/posts/${post.id}`)).status).toBe(200);
  });
});

describe('a client without elicitation', () => {
  it('gets the preview at once, and a confirmed call it cancels while the service is slow never deletes', async () => {
    const post = await scheduled('token path');
    // The service's first read of the post says 503, come back in 5 s (slept on the shared clock).
    let held = 0;
    const proxy = await faultyProxy(sb.url, (req) => (req.method === 'GET' && req.url === `/v1/posts/${post.id}` && held++ === 1 ? { status: 503, headers: { 'retry-after': '5' } } : 'pass'));
    const s = await startSdkSession([], { env: { SOCIALPUB_BASE_URL: proxy.url, SOCIALPUB_API_KEY: key }, clock: sb.clock });
    try {
      const start = sb.clock.now();
      const preview = await s.call('delete_post', { post_id: post.id });
      expect(preview.structuredContent).toMatchObject({ needs_confirmation: true, changed: false });
      expect(sb.clock.now()).toBe(start);
      const from = sb.requests.length;
      const cancel = new AbortController();
      const call = s.client.callTool({ name: 'delete_post', arguments: { post_id: post.id, confirm_token: preview.structuredContent.confirm_token } }, undefined, { signal: cancel.signal }).catch((e: unknown) => e);
      await until(() => proxy.log.some((l) => l.fault === 503));
      cancel.abort('the user stopped it');
      expect(await call).toBeInstanceOf(Error);
      await until(() => s.stderr().includes('delete_post: cancelled by the client'));
      await sb.clock.advance(10_000);
      for (let i = 0; i < 20; i++) await tick();
      expect(writesSince(from)).toEqual([]);
      expect((await api('GET', `/v1/posts/${post.id}`)).status).toBe(200);
      // The same token, in a call left to finish, deletes: the cancelled one spent nothing.
      const done = await s.call('delete_post', { post_id: post.id, confirm_token: preview.structuredContent.confirm_token });
      expect(done.structuredContent).toMatchObject({ deleted: true });
    } finally {
      expect(await s.close()).toBe(0);
      await proxy.close();
    }
  });
});
