// `socialpub mcp` end to end: the SDK's own client over a real stdio pipe to the built binary,
// which talks real HTTP to a sandbox started here (on a manual clock that starts at the real
// time, so the binary's "is this time in the future" agrees with the sandbox's).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createManualClock, startSandbox, type ManualClock, type Sandbox } from '../../src/sandbox/index.js';
import { createClient } from '../../src/client/index.js';
import { spawn } from 'node:child_process';
import { BIN, ROOT, ensureBuilt } from './ensure-built.js';
import { startSession, type McpSession } from './mcp-session.js';

const TOOL_NAMES = ['check_post', 'preview_post', 'create_draft', 'schedule_post', 'list_posts', 'get_post', 'update_post', 'unschedule_post', 'delete_post', 'list_results', 'get_result', 'wait_for_results', 'retry_failed', 'results_stats', 'list_accounts'];
const READ_ONLY = ['check_post', 'preview_post', 'list_posts', 'get_post', 'list_results', 'get_result', 'wait_for_results', 'results_stats', 'list_accounts'];
const DAY = 86_400_000;

interface Env {
  sb: Sandbox & { clock: ManualClock };
  tmp: string;
  key: string;
  env: Record<string, string>;
}

async function setUp(options: Parameters<typeof startSandbox>[0] = {}): Promise<Env> {
  const clock = createManualClock(Date.now());
  const sb = Object.assign(await startSandbox({ port: 0, seed: 15, clock, ...options }), { clock });
  const tmp = mkdtempSync(join(tmpdir(), 'socialpub-mcp-'));
  const key = sb.key('demo');
  return { sb, tmp, key, env: { HOME: tmp, SOCIALPUB_CONFIG_DIR: join(tmp, 'config'), SOCIALPUB_API_KEY: key, SOCIALPUB_BASE_URL: sb.url, TZ: 'UTC' } };
}

async function oracle<T>(e: Env, path: string, key = e.key): Promise<T> {
  const res = await fetch(new URL(path, e.sb.url), { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

const postTotal = async (e: Env) => (await oracle<{ meta: { total: number } }>(e, '/v1/posts?limit=1')).meta.total;
const writesTo = (e: Env, from: number) => e.sb.requests.slice(from).filter((r) => r.method !== 'GET');

/** "YYYY-MM-DD" of a day some days after `ms`. */
const dayAfter = (ms: number, days: number) => new Date(ms + days * DAY).toISOString().slice(0, 10);

function expectNoSecret(session: McpSession, secrets: string[]) {
  const everything = [...session.transcript, session.stderr()].join('\n');
  expect(session.transcript.length).toBeGreaterThan(4);
  for (const s of secrets) expect(everything).not.toContain(s);
}

describe('socialpub mcp: tools over the sandbox', () => {
  let e: Env;
  let s: McpSession;
  beforeAll(async () => {
    await ensureBuilt();
    e = await setUp({ fixtures: 40, failureRate: 0.3, writeLimit: 1000 });
    s = await startSession(['mcp', '--media-dir', e.tmp], e.env);
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await e?.sb.close();
    if (e) rmSync(e.tmp, { recursive: true, force: true });
  });

  it('answers initialize with its name, version and the tools capability', () => {
    expect(s.client.getServerVersion()).toEqual({ name: 'socialpub', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(s.client.getServerCapabilities()).toMatchObject({ tools: expect.any(Object) });
    expect(s.client.getInstructions()).toMatch(/never posts twice/);
    // Every write tool is named where the instructions say which calls are safe to repeat.
    for (const name of TOOL_NAMES.filter((n) => !READ_ONLY.includes(n))) expect(s.client.getInstructions()).toContain(name);
    expect(s.stderr()).toMatch(new RegExp(`serving ${TOOL_NAMES.length} tools for profile default`));
  });

  it('lists every tool with a described JSON Schema and the right hints', async () => {
    const { tools } = await s.client.listTools();
    const said = s.client.getInstructions()!;
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.description!.length).toBeGreaterThan(40);
      // An argument every tool means the same way is described once, in the instructions.
      for (const [name, p] of Object.entries(t.inputSchema.properties ?? {})) {
        const described = typeof (p as { description?: string }).description === 'string' || said.includes(`${name}: `) || new RegExp(`\\b${name}\\b`).test(t.description!);
        expect(described, `${t.name}.${name}`).toBe(true);
      }
      // Hints left out take the MCP spec's defaults.
      const hints = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true, ...t.annotations };
      expect(hints).toMatchObject({ readOnlyHint: READ_ONLY.includes(t.name), destructiveHint: ['schedule_post', 'update_post', 'unschedule_post', 'delete_post'].includes(t.name), idempotentHint: true });
      expect(t.outputSchema, t.name).toMatchObject({ type: 'object' });
      if (!READ_ONLY.includes(t.name)) expect(Object.keys(t.inputSchema.properties!)).toEqual(expect.arrayContaining(['dry_run', 'idempotency_key']));
    }
  });

  it('create_draft makes one draft, and the same call again replays it', async () => {
    const before = await postTotal(e);
    const args = { platforms: ['bluesky', 'linkedin'], text: 'Hello from an assistant', title: 'mcp hello' };
    const first = await s.call('create_draft', args);
    expect(first.isError).toBeFalsy();
    const post = first.structuredContent.post as { id: string; status: string; platforms: string[] };
    expect(post).toMatchObject({ status: 'draft', platforms: ['bluesky', 'linkedin'] });
    expect(first.structuredContent.replayed).toBe(false);
    const again = await s.call('create_draft', args);
    expect((again.structuredContent.post as { id: string }).id).toBe(post.id);
    expect(again.structuredContent.replayed).toBe(true);
    expect(again.structuredContent.idempotency_key).toBe(first.structuredContent.idempotency_key);
    expect(await postTotal(e)).toBe(before + 1);
  });

  it('a given idempotency_key reused for another post is refused by the service, naming the key', async () => {
    const before = await postTotal(e);
    const first = await s.call('create_draft', { platforms: ['bluesky'], text: 'first', idempotency_key: 'mcp-test-key-1' });
    expect(first.structuredContent.idempotency_key).toBe('mcp-test-key-1');
    const other = await s.call('create_draft', { platforms: ['bluesky'], text: 'something else', idempotency_key: 'mcp-test-key-1' });
    expect(other.isError).toBe(true);
    expect(other.structuredContent).toMatchObject({ code: 'invalid_input', field: 'idempotency_key' });
    expect(await postTotal(e)).toBe(before + 1);
  });

  it('create_draft uploads a local image first and the post references it', async () => {
    const photo = join(e.tmp, 'launch.jpg');
    writeFileSync(photo, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]), Buffer.alloc(2048)]));
    const from = e.sb.requests.length;
    const res = await s.call('create_draft', { platforms: ['instagram'], text: 'launch day', media: [photo] });
    expect(res.isError).toBeFalsy();
    const writes = writesTo(e, from);
    expect(writes.map((r) => r.method)).toEqual(['POST', 'PUT', 'POST']);
    expect([writes[0]!.path, writes[2]!.path]).toEqual(['/v1/media', '/v1/posts']);
    const id = (res.structuredContent.post as { id: string }).id;
    const stored = (await oracle<{ data: Array<{ id: string; payloads: Record<string, { media?: Array<{ url: string; type?: string }> }> }> }>(e, '/v1/posts?limit=5')).data.find((p) => p.id === id)!;
    expect(stored.payloads.instagram!.media).toEqual([expect.objectContaining({ type: 'image', url: expect.stringMatching(/^http/) })]);
  });

  it('dry_run sends nothing and shows the request the real call sends, with the same key', async () => {
    const from = e.sb.requests.length;
    const args = { platforms: ['threads'], text: 'dry run first' };
    const dry = await s.call('create_draft', { ...args, dry_run: true });
    expect(dry.isError).toBeFalsy();
    expect(e.sb.requests.length).toBe(from);
    const requests = dry.structuredContent.requests as Array<{ method: string; path: string; headers: Record<string, string>; body: unknown }>;
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/v1/posts', body: { payloads: { threads: { text: 'dry run first' } } } });
    const real = await s.call('create_draft', args);
    expect(real.structuredContent.idempotency_key).toBe(requests[0]!.headers['Idempotency-Key']);
    expect(writesTo(e, from)).toHaveLength(1);
  });

  it('refuses invalid input with a tool error naming the field, and sends nothing', async () => {
    const from = e.sb.requests.length;
    const long = await s.call('create_draft', { platforms: ['bluesky'], text: 'x'.repeat(301) });
    expect(long.isError).toBe(true);
    expect(long.structuredContent).toMatchObject({ code: 'invalid_input', field: 'text' });
    expect(long.structuredContent.message).toMatch(/301 characters is 1 over bluesky's limit of 300/);

    const typo = await s.call('create_draft', { platforms: ['blusky'], text: 'hi' });
    expect(typo.structuredContent).toMatchObject({ code: 'invalid_input', field: 'platforms[0]' });
    // The text an older client reads: the code, then the same body as JSON under the data notice.
    const [first, body] = (typo.content as Array<{ text: string }>)[0]!.text.split('\n');
    expect(first).toMatch(/^Tool error \(invalid_input\)\. Data from the service follows as JSON/);
    expect(JSON.stringify(JSON.parse(body!))).toMatch(/did you mean \\"bluesky\\"/);

    const unknown = await s.call('create_draft', { platforms: ['bluesky'], txt: 'hi' });
    expect(unknown.structuredContent).toMatchObject({ code: 'invalid_input', field: 'txt' });

    const relative = await s.call('schedule_post', { platforms: ['bluesky'], text: 'later', at: '+2h' });
    expect(relative.structuredContent).toMatchObject({ code: 'invalid_input', field: 'at' });
    expect(relative.structuredContent.message).toMatch(/relative time/);

    const zoneless = await s.call('schedule_post', { platforms: ['bluesky'], text: 'later', at: `${dayAfter(Date.now(), 30)} 09:00` });
    expect(zoneless.structuredContent).toMatchObject({ code: 'invalid_input', field: 'time_zone' });

    const badZone = await s.call('schedule_post', { platforms: ['bluesky'], text: 'later', at: `${dayAfter(Date.now(), 30)} 09:00`, time_zone: 'Europe/Pariss' });
    expect(badZone.structuredContent).toMatchObject({ code: 'invalid_input', field: 'time_zone' });
    expect((badZone.content as Array<{ text: string }>)[0]!.text).toMatch(/Europe\/Paris/);

    expect(e.sb.requests.length).toBe(from);
  });

  it('schedule_post creates and schedules at a local time in a zone, or schedules a draft by id', async () => {
    const day = dayAfter(Date.now(), 40);
    const made = await s.call('schedule_post', { platforms: ['bluesky'], text: 'Tuesday announcement', at: `${day} 09:00`, time_zone: 'Europe/Paris' });
    expect(made.isError).toBeFalsy();
    const post = made.structuredContent.post as { status: string; scheduled_at: string };
    expect(post.status).toBe('scheduled');
    // 09:00 in Paris is 08:00 UTC in winter, 07:00 in summer.
    expect(post.scheduled_at).toMatch(new RegExp(`^${day}T0[78]:00:00`));

    const draft = await s.call('create_draft', { platforms: ['linkedin'], text: 'draft to schedule later' });
    const id = (draft.structuredContent.post as { id: string }).id;
    const at = new Date(Date.now() + 20 * DAY).toISOString().replace(/\.\d+Z$/, 'Z');
    const scheduled = await s.call('schedule_post', { post_id: id, at });
    expect(scheduled.structuredContent.post).toMatchObject({ id, status: 'scheduled' });
  });

  it('list_posts pages with a cursor and filters by status', async () => {
    const first = await s.call('list_posts', { limit: 2 });
    const posts = first.structuredContent.posts as Array<{ id: string }>;
    expect(posts).toHaveLength(2);
    expect(first.structuredContent.next_cursor).toEqual(expect.any(String));
    const second = await s.call('list_posts', { limit: 2, cursor: first.structuredContent.next_cursor });
    const ids = (second.structuredContent.posts as Array<{ id: string }>).map((p) => p.id);
    expect(ids).toHaveLength(2);
    expect(ids).not.toContain(posts[0]!.id);
    const drafts = await s.call('list_posts', { status: ['draft'], limit: 50 });
    const statuses = new Set((drafts.structuredContent.posts as Array<{ status: string }>).map((p) => p.status));
    expect([...statuses]).toEqual(['draft']);
    const wrong = await s.call('list_posts', { status: ['scheduled'], cursor: first.structuredContent.next_cursor });
    expect(wrong.structuredContent).toMatchObject({ code: 'invalid_input', field: 'cursor' });
  });

  it('list_results returns trimmed rows, at most limit, with a cursor, failed_only and since', async () => {
    const page = await s.call('list_results', { limit: 5 });
    const rows = page.structuredContent.results as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(5);
    expect(Object.keys(rows[0]!).sort()).toEqual(['account', 'created_at', 'error_code', 'error_message', 'id', 'platform', 'post_id', 'success', 'url'].sort());
    const next = await s.call('list_results', { limit: 5, cursor: page.structuredContent.next_cursor });
    const nextIds = (next.structuredContent.results as Array<{ id: string }>).map((r) => r.id);
    expect(nextIds.some((id) => rows.some((r) => r.id === id))).toBe(false);

    const all = await oracle<{ data: Array<{ id: string; success: boolean; created_at: string }> }>(e, '/api/v1/post-results?limit=100');
    const failed = await s.call('list_results', { failed_only: true, limit: 50 });
    const failedIds = (failed.structuredContent.results as Array<{ id: string; success: boolean }>).map((r) => r.id);
    expect(failedIds).toEqual(all.data.filter((r) => !r.success).map((r) => r.id).slice(0, 50));
    expect(failedIds.length).toBeGreaterThan(0);

    const since = new Date(e.sb.clock.now() - 7 * DAY).toISOString();
    const recent = await s.call('list_results', { since, limit: 50 });
    const recentIds = (recent.structuredContent.results as Array<{ id: string }>).map((r) => r.id);
    expect(recentIds).toEqual(all.data.filter((r) => Date.parse(r.created_at) >= Date.parse(since)).map((r) => r.id).slice(0, 50));
    expect(recentIds.length).toBeLessThan(all.data.length);

    const tooMany = await s.call('list_results', { limit: 51 });
    expect(tooMany.structuredContent).toMatchObject({ code: 'invalid_input', field: 'limit' });
  });

  it('get_result gives one row in full; a result of another workspace is not found', async () => {
    const page = await s.call('list_results', { limit: 1 });
    const id = (page.structuredContent.results as Array<{ id: string; post_id: string }>)[0]!;
    const got = await s.call('get_result', { result_id: id.id });
    expect(got.structuredContent.result).toMatchObject({ id: id.id, post_id: id.post_id });

    // A result in the "other" workspace, made through its own key.
    const other = createClient({ baseUrl: e.sb.url, apiKey: e.sb.key('other') });
    const post = (await other.posts.schedule({ payloads: { bluesky: { text: 'theirs' } }, scheduledAt: new Date(e.sb.clock.now() + 60_000).toISOString() })).data;
    await e.sb.clock.advance(5 * 60_000);
    await e.sb.settle();
    const theirs = (await other.results.list({ postId: [post.id] })).data.data;
    await other.close();
    expect(theirs.length).toBe(1);
    const missing = await s.call('get_result', { result_id: theirs[0]!.id });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toMatchObject({ code: 'not_found', field: 'result_id', message: `result_id: no result ${theirs[0]!.id} in the workspace of profile default` });
  });

  it('wait_for_results reports progress until the post has published, and times out without an error', async () => {
    // Due within the wait on both clocks (the server's real one and the sandbox's manual one).
    const made = await s.call('schedule_post', { platforms: ['bluesky'], text: 'publish soon', at: new Date(Math.max(Date.now(), e.sb.clock.now()) + 2 * 60_000).toISOString() });
    const id = (made.structuredContent.post as { id: string }).id;
    const progress: Array<{ progress: number; total?: number; message?: string }> = [];
    let advanced = false;
    const waited = await s.call('wait_for_results', { post_id: id, timeout_seconds: 600 }, (p) => {
      progress.push(p);
      // The first report (nothing yet): let the sandbox reach the scheduled time.
      if (!advanced) {
        advanced = true;
        void e.sb.clock.advance(20 * 60_000).then(() => e.sb.settle());
      }
    });
    expect(waited.isError).toBeFalsy();
    expect(waited.structuredContent).toMatchObject({ post_id: id, done: true, timed_out: false, reported: 1, expected: 1, missing: [] });
    // Nothing reported yet: below 1. The fraction is the share of the call's wait already spent on
    // the server's real clock (so progress grows between polls), which depends on how fast this
    // machine got there: only its whole part is certain.
    expect(progress[0]).toMatchObject({ total: 1, message: '0 of 1 platform reported' });
    expect(Math.floor(progress[0]!.progress)).toBe(0);
    // The SDK's client may settle the call before it hands over the last notification: the
    // transcript shows everything the server sent.
    const sent = s.transcript
      .filter((l) => l.startsWith('< ') && l.includes('notifications/progress'))
      .map((l) => (JSON.parse(l.slice(2)) as { params: { progress: number; total: number } }).params);
    expect(sent.at(-1)).toMatchObject({ progress: 1, total: 1 });
    // The protocol asks for a value that grows with every notification.
    for (let i = 1; i < sent.length; i++) expect(sent[i]!.progress).toBeGreaterThan(sent[i - 1]!.progress);

    const later = await s.call('schedule_post', { platforms: ['bluesky'], text: 'publish next month', at: new Date(Date.now() + 30 * DAY).toISOString() });
    const timedOut = await s.call('wait_for_results', { post_id: (later.structuredContent.post as { id: string }).id, timeout_seconds: 1 });
    expect(timedOut.isError).toBeFalsy();
    // Due a month after a one-second wait: answered at once with the reason, not after waiting.
    expect(timedOut.structuredContent).toMatchObject({ done: false, timed_out: false, still_waiting: false, reported: 0, expected: 1, missing: ['bluesky'], reason: expect.stringContaining('after this wait would end') });

    const nowhere = await s.call('wait_for_results', { post_id: 'post_doesnotexist', timeout_seconds: 1 });
    expect(nowhere.structuredContent).toMatchObject({ code: 'not_found' });
  });

  it('results_stats counts what the service holds, by platform', async () => {
    const all = await oracle<{ data: Array<{ success: boolean; platform: string }>; meta: { total: number } }>(e, '/api/v1/post-results?limit=100');
    expect(all.meta.total).toBeLessThanOrEqual(100);
    const stats = await s.call('results_stats', {});
    expect(stats.structuredContent).toMatchObject({
      by: 'platform',
      total: all.data.length,
      failed: all.data.filter((r) => !r.success).length,
      complete: true,
    });
    const groups = stats.structuredContent.groups as Array<{ key: string; total: number }>;
    expect(groups.reduce((n, g) => n + g.total, 0)).toBe(all.data.length);
    const bluesky = all.data.filter((r) => r.platform === 'bluesky').length;
    expect(groups.find((g) => g.key === 'bluesky')?.total ?? 0).toBe(bluesky);
  });

  it('refuses to post the key itself, without echoing it', async () => {
    const from = e.sb.requests.length;
    const at = s.transcript.length;
    const res = await s.call('create_draft', { platforms: ['bluesky'], text: `my key is ${e.key}` });
    expect(res.structuredContent).toMatchObject({ code: 'invalid_input', field: 'text' });
    expect(e.sb.requests.length).toBe(from);
    // The test itself sent the key; nothing the server sent back holds it.
    expect(s.transcript.slice(at).filter((l) => l.startsWith('< ')).join('\n')).not.toContain(e.key);
  });

  it('never lets the key appear in any message exchanged or logged', () => {
    expectNoSecret(
      { ...s, transcript: s.transcript.filter((l) => !l.includes('my key is')) },
      [e.key],
    );
  });
});

describe('socialpub mcp: limits, read-only and a missing key', () => {
  let e: Env;
  beforeAll(async () => {
    await ensureBuilt();
    e = await setUp({ writeLimit: 1 });
  }, 120_000);
  afterAll(async () => {
    await e?.sb.close();
    if (e) rmSync(e.tmp, { recursive: true, force: true });
  });

  it('a 429 beyond --max-wait comes back as a rate_limited tool error with when to retry', async () => {
    const s = await startSession(['mcp', '--max-wait', '0'], e.env);
    try {
      const first = await s.call('create_draft', { platforms: ['bluesky'], text: 'the one write allowed' });
      expect(first.isError).toBeFalsy();
      const second = await s.call('create_draft', { platforms: ['bluesky'], text: 'one too many' });
      expect(second.isError).toBe(true);
      expect(second.structuredContent).toMatchObject({ code: 'rate_limited', retryAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
      expect(Date.parse(second.structuredContent.retryAt as string)).toBeGreaterThan(e.sb.clock.now());
      expectNoSecret(s, [e.key]);
    } finally {
      await s.close();
    }
  });

  it('--read-only leaves the write tools out and refuses a call to one', async () => {
    const s = await startSession(['mcp', '--read-only'], e.env);
    try {
      const { tools } = await s.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(READ_ONLY);
      expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
      // The instructions name no tool this server left out.
      const said = s.client.getInstructions()!;
      for (const name of TOOL_NAMES.filter((n) => !READ_ONLY.includes(n))) expect(said).not.toContain(name);
      expect(said).toMatch(/read-only/);
      const from = e.sb.requests.length;
      // A tool this server does not offer is a protocol error (invalid params), not a tool result.
      const refused = await s.call('create_draft', { platforms: ['bluesky'], text: 'nope' }).catch((err: unknown) => err);
      expect(refused).toMatchObject({ code: -32602, message: expect.stringMatching(/--read-only/) });
      expect(e.sb.requests.length).toBe(from);
    } finally {
      await s.close();
    }
  });

  it('without a key the server still starts, and each call says how to add one (auth)', async () => {
    const { SOCIALPUB_API_KEY: _k, ...env } = e.env;
    const s = await startSession(['mcp'], env);
    try {
      const res = await s.call('list_posts', {});
      expect(res.isError).toBe(true);
      expect(res.structuredContent).toMatchObject({ code: 'auth', message: 'no API key for profile "default"' });
      expect((res.content as Array<{ text: string }>)[0]!.text).toMatch(/socialpub auth login/);
    } finally {
      await s.close();
    }
  });

  it('an unreachable service comes back as network', async () => {
    const s = await startSession(['mcp', '--max-retries', '0'], { ...e.env, SOCIALPUB_BASE_URL: 'http://127.0.0.1:1' });
    try {
      const res = await s.call('list_posts', {});
      expect(res.structuredContent).toMatchObject({ code: 'network' });
    } finally {
      await s.close();
    }
  });

  it('a refused key comes back as auth, and the key is masked everywhere', async () => {
    const bogus = 'sk_test_thisKeyIsNotKnownAnywhere1234';
    const s = await startSession(['mcp'], { ...e.env, SOCIALPUB_API_KEY: bogus });
    try {
      const res = await s.call('list_results', {});
      expect(res.structuredContent).toMatchObject({ code: 'auth' });
      expectNoSecret(s, [bogus]);
    } finally {
      await s.close();
    }
  });
});

describe('socialpub mcp: how it ends', () => {
  let e: Env;
  /** A post due within the wait that never goes out (the sandbox's clock stands still): a wait that lasts. */
  let pending: string;
  beforeAll(async () => {
    await ensureBuilt();
    e = await setUp();
    const res = await fetch(new URL('/v1/schedule', e.sb.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${e.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ payloads: { bluesky: { text: 'later' } }, scheduledAt: new Date(e.sb.clock.now() + 300_000).toISOString() }),
    });
    expect(res.status).toBe(201);
    pending = ((await res.json()) as { id: string }).id;
  }, 120_000);
  afterAll(async () => {
    await e?.sb.close();
    if (e) rmSync(e.tmp, { recursive: true, force: true });
  });

  /** The binary on raw pipes: initialize, start a long wait, then end it the given way. */
  function endBy(how: (child: ReturnType<typeof spawn>) => void): Promise<{ code: number | null; signal: string | null; stdout: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, 'mcp'], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...e.env }, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let ended = false;
      const send = (m: unknown) => child.stdin.write(JSON.stringify(m) + '\n');
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString();
        if (stdout.includes('"id":1') && !stdout.includes('"method":"notifications/progress"') && !ended) {
          ended = true;
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait_for_results', arguments: { post_id: pending, expect: 1, timeout_seconds: 600 }, _meta: { progressToken: 'p' } } });
        } else if (stdout.includes('notifications/progress')) how(child);
      });
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code, signal, stdout }));
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    });
  }

  it('ends with exit 0 when the client closes stdin, even during a wait', async () => {
    const run = await endBy((child) => child.stdin!.end());
    expect(run.stdout).toContain('"serverInfo"');
    expect(run).toMatchObject({ code: 0, signal: null });
  });

  it('ends with exit 130 on Ctrl-C (SIGINT), even during a wait', async () => {
    const run = await endBy((child) => child.kill('SIGINT'));
    expect(run.stdout).toContain('"serverInfo"');
    expect(run).toMatchObject({ code: 130, signal: null });
  });

  it('ends with exit 143 on SIGTERM (what the SDK client sends when stdin is not enough), even during a wait', async () => {
    const run = await endBy((child) => child.kill('SIGTERM'));
    expect(run.stdout).toContain('"serverInfo"');
    expect(run).toMatchObject({ code: 143, signal: null });
  });
});
