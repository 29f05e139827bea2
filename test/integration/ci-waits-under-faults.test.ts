// What a CI job meets between it and the service, through a faulty proxy in front of the sandbox:
// a Retry-After inside the wait, answers cut short, a read limit with room or running out, and a
// wait that gives up (exit 8). Time is the sandbox's manual clock: nothing sleeps for real.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { faultyProxy, type FaultyProxy } from '../helpers/faulty-proxy.js';
import { testSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { advancingClock, api, keyOf, schedulePost } from './results-support.js';

let sb: TestSandbox | undefined;
let proxy: FaultyProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await sb?.close();
  proxy = sb = undefined;
});

const env = (url: string, s: TestSandbox) => ({ SOCIALPUB_BASE_URL: url, SOCIALPUB_API_KEY: keyOf(s, 'demo') });
const isResults = (url: string | undefined) => (url ?? '').startsWith('/api/v1/post-results');

describe('results wait rides out what a service does, within its own --timeout', () => {
  it('a 90 s Retry-After inside a 30 min wait is slept through (said on stderr), not exit 5', async () => {
    sb = await testSandbox({ failureRate: 0, readLimit: 100_000 });
    const post = await schedulePost(sb, keyOf(sb, 'demo'), ['bluesky'], 60_000);
    let limited = 0;
    proxy = await faultyProxy(sb.url, (req) => (isResults(req.url) && limited++ === 0 ? { status: 429, headers: { 'retry-after': '90' } } : 'pass'));
    const slept: number[] = [];
    const r = await runCli(['results', 'wait', '--post', post.id, '--timeout', '30m'], { env: env(proxy.url, sb), clock: advancingClock(sb.clock, slept) });
    expect(r.code, r.stderr).toBe(0);
    expect(slept).toContain(90_000);
    expect(r.stderr).toMatch(/rate limited: the service asked for a pause; polling again at \d\d:\d\d \(2 min from now\)/);
  });

  it('a Retry-After that outlasts the wait still ends it: exit 5, saying when', async () => {
    sb = await testSandbox({ failureRate: 0 });
    const post = await schedulePost(sb, keyOf(sb, 'demo'), ['bluesky'], 60_000);
    proxy = await faultyProxy(sb.url, (req) => (isResults(req.url) ? { status: 429, headers: { 'retry-after': '3600' } } : 'pass'));
    const r = await runCli(['results', 'wait', '--post', post.id, '--timeout', '30m'], { env: env(proxy.url, sb), clock: advancingClock(sb.clock) });
    expect(r.code, r.stderr).toBe(5);
  });

  it('answers cut short (a complete-looking 200 with half a body) are ridden out like an outage', async () => {
    sb = await testSandbox({ failureRate: 0, readLimit: 100_000 });
    const post = await schedulePost(sb, keyOf(sb, 'demo'), ['bluesky', 'linkedin'], 30_000);
    let reads = 0;
    // More cut answers in a row than the client's own retries (4 attempts): the wait itself must ride them.
    proxy = await faultyProxy(sb.url, (req) => (isResults(req.url) && reads++ < 6 ? 'cut' : 'pass'));
    const r = await runCli(['results', 'wait', '--post', post.id, '--json'], { env: env(proxy.url, sb), clock: advancingClock(sb.clock) });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as unknown[]).length).toBe(2);
    expect(proxy.log.filter((l) => l.fault === 'cut')).toHaveLength(6);
  });

  it('polls at the normal cadence while the read limit has room: a post due in 3 s is seen within seconds, not reset ÷ remaining later', async () => {
    // 100 reads an hour: the old rule spaced polls by 3600 s / 98 ≈ 37 s.
    sb = await testSandbox({ failureRate: 0, readLimit: 100 });
    const post = await schedulePost(sb, keyOf(sb, 'demo'), ['bluesky'], 3_000);
    const slept: number[] = [];
    const r = await runCli(['results', 'wait', '--post', post.id], { env: env(sb.url, sb), clock: advancingClock(sb.clock, slept) });
    expect(r.code, r.stderr).toBe(0);
    expect(slept.reduce((a, b) => a + b, 0)).toBeLessThan(10_000);
  });

  it('in the last tenth of the read limit it waits for the reset rather than spend it; --spend-budget spends it', async () => {
    sb = await testSandbox({ failureRate: 0, readLimit: 20 });
    const key = keyOf(sb, 'demo');
    const post = await schedulePost(sb, key, ['bluesky'], 5_000);
    // 20 reads an hour: 16 spent here, one to look the post up and one poll leave 2, the last tenth.
    for (let i = 0; i < 16; i++) await api(sb, key, 'GET', '/v1/posts?limit=1');
    const slept: number[] = [];
    const r = await runCli(['results', 'wait', '--post', post.id, '--timeout', '5m'], { env: env(sb.url, sb), clock: advancingClock(sb.clock, slept) });
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toContain(`timed out after 5 min waiting for post ${post.id}`);
    expect(r.stderr).toMatch(/hint: the read limit is down to its last tenth \(2 of 20 left, reset in [^)]+\): the wait left it to the rest of the workspace; --spend-budget lets it poll on/);
    const spend = await runCli(['--spend-budget', 'results', 'wait', '--post', post.id, '--timeout', '5m'], { env: env(sb.url, sb), clock: advancingClock(sb.clock) });
    expect(spend.code, spend.stderr).toBe(0);
  });
});

describe('writes ride out a cut answer with their idempotency key', () => {
  it('posts schedule whose 201 arrives cut short: retried with the same key, one post, exit 0', async () => {
    sb = await testSandbox({ failureRate: 0 });
    let first = true;
    proxy = await faultyProxy(sb.url, (req) => {
      if (req.method === 'POST' && first) {
        first = false;
        return 'cut';
      }
      return 'pass';
    });
    const r = await runCli(['posts', 'schedule', '--platform', 'bluesky', '--text', 'launch day', '--at', '+1h', '--idempotency-key', 'release-7'], { env: env(proxy.url, sb), clock: advancingClock(sb.clock) });
    expect(r.code, r.stderr).toBe(0);
    const posts = await api<{ meta: { total: number } }>(sb, keyOf(sb, 'demo'), 'GET', '/v1/posts');
    expect(posts.body.meta.total).toBe(1);
    expect(proxy.log.filter((l) => l.method === 'POST').map((l) => l.fault)).toEqual(['cut', 'pass']);
  });

  it('a ten-second burst of 503s on a write is ridden out (before: given up after 1.8 s)', async () => {
    sb = await testSandbox({ failureRate: 0 });
    const t0 = sb.clock.now();
    const s = sb;
    proxy = await faultyProxy(sb.url, (req) => (req.method === 'POST' && s.clock.now() < t0 + 10_000 ? { status: 503 } : 'pass'));
    const r = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'draft'], { env: env(proxy.url, sb), clock: advancingClock(sb.clock) });
    expect(r.code, r.stderr).toBe(0);
    expect(proxy.log.filter((l) => l.fault === 503).length).toBeGreaterThan(1);
  });
});
