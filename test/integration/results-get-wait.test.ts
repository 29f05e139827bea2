// `results get` and `results wait` end to end against the sandbox, on its manual clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { advancingClock, allResults, api, cliEnv, keyOf, parseNdjson, sandboxFor, schedulePost, START, type Sandbox } from './results-support.js';
import { ROOMY_LIMITS } from '../helpers/sandbox.js';
import { createManualClock } from '../../src/sandbox/clock.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { ManualClock } from '../../src/sandbox/clock.js';
import type { Clock } from '../../src/cli/context.js';
import type { PostResult } from '../../src/wire/schemas.js';

type Sb = Sandbox & { clock: ManualClock };
const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

describe('results get', () => {
  let sb: Sb;
  let oracle: PostResult[];
  beforeAll(async () => {
    sb = await sandboxFor({ fixtures: 300, failureRate: 0.3, seed: 5 });
    oracle = await allResults(sb, keyOf(sb, 'demo'));
  });
  afterAll(async () => {
    await sb?.close();
  });

  it("shows the result's time in the user's zone (TZ) beside UTC", async () => {
    const row = oracle[0]!;
    const r = await runCli(['results', 'get', row.id], { env: { ...cliEnv(sb), TZ: 'Europe/Paris' }, tty: true, clock: advancingClock(sb.clock) });
    expect(r.code).toBe(0);
    const local = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(Date.parse(row.created_at!)).replace(',', '');
    expect(plain(r.stdout)).toMatch(new RegExp(`created\\s+${row.created_at!.replace(/\./g, '\\.')} .*\\n\\s+${local} \\S+ \\(Europe/Paris\\)`));
  });

  it('a failure in full: code, message, provider context pretty-printed, the post and a hint', async () => {
    const row = oracle.find((r) => !r.success && r.error?.context && Object.keys(r.error.context).length > 0)!;
    expect(row).toBeDefined();
    const got = await runCli(['results', 'get', row.id], { env: cliEnv(sb), tty: true, clock: advancingClock(sb.clock) });
    const r = { ...got, stdout: plain(got.stdout), stderr: plain(got.stderr) };
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/created\s+\S+ \(\d+ (minutes?|hours?|days?) ago\)/);
    expect(r.stdout).toContain(`✗ failed  ${row.id}`);
    expect(r.stdout).toMatch(new RegExp(`post\\s+${row.post_id}`));
    expect(r.stdout).toMatch(new RegExp(`error code\\s+${row.error!.code}`));
    expect(r.stdout).toContain(row.error!.message);
    const [firstKey] = Object.keys(row.error!.context!);
    expect(r.stdout).toContain(`"${firstKey}": `);
    expect(r.stderr).toContain(`socialpub results list --post ${row.post_id}`);
  });

  it('a success shows its URL; --json prints the object unchanged', async () => {
    const row = oracle.find((r) => r.success && r.platform_data?.url)!;
    const human = await runCli(['results', 'get', row.id], { env: cliEnv(sb) });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(row.platform_data!.url!);
    const json = await runCli(['results', 'get', row.id, '--json'], { env: cliEnv(sb) });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(row);
  });

  it("another workspace's result id: exit 4, scoped to the profile's workspace", async () => {
    const id = oracle[0]!.id;
    const r = await runCli(['results', 'get', id], { env: cliEnv(sb, 'other') });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`no result ${id} in the workspace of the key in SOCIALPUB_API_KEY`);
    expect(r.stderr).not.toMatch(/does not exist/);
    expect(r.stderr).toMatch(/request id: \S+/);
  });
});

describe('results wait', () => {
  let ok: Sb;
  let failing: Sb;
  beforeAll(async () => {
    [ok, failing] = await Promise.all([sandboxFor({ failureRate: 0, seed: 1 }), sandboxFor({ failureRate: 1, seed: 2 })]);
  });
  afterAll(async () => {
    await Promise.all([ok?.close(), failing?.close()]);
  });

  it('all targets succeed: exit 0 and the results, without sleeping for real', async () => {
    const post = await schedulePost(ok, keyOf(ok, 'demo'), ['twitter-x', 'linkedin', 'bluesky'], 5 * 60_000);
    const slept: number[] = [];
    const r = await runCli(['results', 'wait', '--post', post.id, '--json'], { env: cliEnv(ok), clock: advancingClock(ok.clock, slept) });
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as PostResult[];
    expect(rows.map((x) => x.platform).sort()).toEqual(['bluesky', 'linkedin', 'twitter-x']);
    expect(rows.every((x) => x.success && x.post_id === post.id)).toBe(true);
    expect(slept.length).toBeGreaterThan(1);
    expect(slept.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(5 * 60_000);
    expect(Math.max(...slept)).toBeLessThanOrEqual(15_000); // backoff is capped
    // Every wait went through the injected clock: its sleeps add up to the five minutes the post
    // was due in (a real one would run past the test's timeout; no bound on this machine's speed).
  });

  it('a target fails: exit 7 and the failures on stderr', async () => {
    const post = await schedulePost(failing, keyOf(failing, 'demo'), ['twitter-x', 'threads'], 2 * 60_000);
    const r = await runCli(['results', 'wait', '--post', post.id], { env: cliEnv(failing), clock: advancingClock(failing.clock) });
    expect(r.code).toBe(7);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.every((l) => l.startsWith('failure\t'))).toBe(true);
    expect(r.stderr).toMatch(/✗ twitter-x .*: [A-Z_]+: .+ · details: socialpub results get res_\S+$/m);
    expect(r.stderr).toMatch(/✗ threads /);
    expect(r.stderr.match(/socialpub results retry /g)).toHaveLength(1);
    expect(r.stderr).toContain(`send its failed targets again as a new post: socialpub results retry ${post.id}\n`);
  });

  it("on a terminal the spinner ends with the program's own marks: ✗ for a failure, ✓ for success (not ora's ✖ and ✔)", async () => {
    const bad = await schedulePost(failing, keyOf(failing, 'demo'), ['twitter-x', 'threads'], 2 * 60_000);
    const r = await runCli(['results', 'wait', '--post', bad.id], { env: { ...cliEnv(failing), NO_COLOR: '1' }, tty: true, columns: 100, clock: advancingClock(failing.clock) });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('✗ 2 of 2 platforms reported, 2 failed\n');
    const good = await schedulePost(ok, keyOf(ok, 'demo'), ['bluesky'], 2 * 60_000);
    const fine = await runCli(['results', 'wait', '--post', good.id], { env: { ...cliEnv(ok), NO_COLOR: '1' }, tty: true, columns: 100, clock: advancingClock(ok.clock) });
    expect(fine.code).toBe(0);
    expect(fine.stderr).toContain('✓ 1 of 1 platform reported, all succeeded\n');
    // NO_COLOR holds for the mark too (ora coloured its own whatever the setting).
    for (const out of [r.stderr, fine.stderr]) expect(out).not.toMatch(/[✖✔]|\u001b\[3\dm/);
  });

  it('under GITHUB_ACTIONS=true a wait with failed targets also leaves one ::error:: annotation, one line, naming each failure', async () => {
    const post = await schedulePost(failing, keyOf(failing, 'demo'), ['bluesky', 'linkedin'], 2 * 60_000);
    const args = ['results', 'wait', '--post', post.id];
    const r = await runCli(args, { env: { ...cliEnv(failing), GITHUB_ACTIONS: 'true' }, clock: advancingClock(failing.clock) });
    expect(r.code).toBe(7);
    const annotations = r.stderr.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations).toHaveLength(1);
    expect(annotations[0]).toMatch(new RegExp(`^::error title=socialpub results wait%3A targets failed::2 targets failed to publish%0A(bluesky|linkedin) \\(${post.id}\\): [A-Z_]+: [^%]+%0A(bluesky|linkedin) \\(${post.id}\\): [A-Z_]+: [^%]+%0Asend its failed targets again as a new post: socialpub results retry ${post.id}$`));
    // Outside Actions nothing of the kind.
    const plain = await runCli(args, { env: cliEnv(failing), clock: advancingClock(failing.clock) });
    expect(plain.code).toBe(7);
    expect(plain.stderr).not.toContain('::error');
  });

  it('gives up (exit 8, not the 1 of a crash) naming what is still missing', async () => {
    const post = await schedulePost(ok, keyOf(ok, 'demo'), ['linkedin', 'facebook-page'], 5 * 60_000);
    // The CLI's time moves on while the sandbox's stands still: the post is due within the wait but never publishes.
    const clock = detachedClock(ok.clock.now());
    const t0 = clock.now();
    const r = await runCli(['results', 'wait', '--post', post.id, '--timeout', '10m'], { env: cliEnv(ok), clock });
    expect(r.code).toBe(8);
    expect(r.stderr).toContain(`timed out after 10 min waiting for post ${post.id}: 0 of 2 platforms reported; still missing: linkedin, facebook-page`);
    expect(clock.now() - t0).toBeGreaterThanOrEqual(10 * 60_000);
    expect(clock.now() - t0).toBeLessThan(11 * 60_000);
  });

  it('a wait that times out leaves no complete-looking document: no [] with nothing, an unclosed array with what came', async () => {
    const post = await schedulePost(ok, keyOf(ok, 'demo'), ['linkedin', 'threads'], 60_000);
    // Due within the wait, but the sandbox's clock stands still: nothing reports, the wait runs out.
    const none = await runCli(['results', 'wait', '--post', post.id, '--timeout', '2m', '--json'], { env: cliEnv(ok), clock: detachedClock(ok.clock.now()) });
    expect(none.code).toBe(8);
    expect(none.stderr).toContain('timed out after 2 min');
    expect(none.stdout).toBe('');
    // Both targets report, but three results are expected: the two are shown, the array left open.
    await ok.clock.advance(2 * 60_000);
    await ok.settle();
    const some = await runCli(['results', 'wait', '--post', post.id, '--expect', '3', '--timeout', '30s', '--json'], { env: cliEnv(ok), clock: detachedClock(ok.clock.now()) });
    expect(some.code).toBe(8);
    expect(some.stderr).toContain('timed out after 30s');
    expect(() => JSON.parse(some.stdout)).toThrow();
    expect(some.stdout.trimEnd().endsWith(']')).toBe(false);
    const rows = JSON.parse(some.stdout + '\n]') as PostResult[];
    expect(rows.map((x) => x.platform).sort()).toEqual(['linkedin', 'threads']);
    const done = await runCli(['results', 'wait', '--post', post.id, '--timeout', '30s', '--json'], { env: cliEnv(ok), clock: detachedClock(ok.clock.now()) });
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toHaveLength(2);
  });

  it('a wait that timed out leaves no complete-looking document on stdout (no `[]` with --json)', async () => {
    const post = await schedulePost(ok, keyOf(ok, 'demo'), ['linkedin'], 5 * 60_000);
    const r = await runCli(['results', 'wait', '--post', post.id, '--timeout', '10m', '--json'], { env: cliEnv(ok), clock: detachedClock(ok.clock.now()) });
    expect(r.code).toBe(8);
    expect(r.stderr).toContain(`timed out after 10 min waiting for post ${post.id}`);
    // Nothing was reported: nothing at all (rows reported would stream, the array left open).
    expect(r.stdout).toBe('');
  });

  it('a post due after the timeout fails at once (exit 2, as a draft: waiting cannot help), naming when it is due and the --timeout that would do', async () => {
    const post = await schedulePost(ok, keyOf(ok, 'demo'), ['linkedin', 'facebook-page'], 2 * 3600_000);
    const slept: number[] = [];
    const r = await runCli(['results', 'wait', '--post', post.id, '--timeout', '10m'], { env: { ...cliEnv(ok), TZ: 'UTC' }, clock: advancingClock(ok.clock, slept) });
    expect(r.code).toBe(2);
    expect(slept).toEqual([]);
    expect(r.stderr).toMatch(new RegExp(`post ${post.id} is due at \\d\\d:\\d\\d .*in 2 hours, after this wait ends \\(--timeout 10 min\\)`));
    expect(r.stderr).toContain('wait past it with --timeout 125m');
    expect(r.stdout).toBe('');
    // Under --json the error names this reason, not a wait that ran out.
    const j = await runCli(['results', 'wait', '--post', post.id, '--timeout', '10m', '--json'], { env: cliEnv(ok), clock: advancingClock(ok.clock, slept) });
    expect(j.code).toBe(2);
    expect(slept).toEqual([]);
    expect(JSON.parse(j.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { code: 'POST_DUE_AFTER_WAIT', exitCode: 2 } });
  });

  it('the global --timeout before the command stays per request: it does not shorten the wait', async () => {
    const post = await schedulePost(ok, keyOf(ok, 'demo'), ['threads'], 5 * 60_000);
    const r = await runCli(['--timeout', '2s', 'results', 'wait', '--post', post.id, '-o', 'ndjson'], { env: cliEnv(ok), clock: advancingClock(ok.clock) });
    expect(r.code).toBe(0);
    expect(parseNdjson(r.stdout).map((x) => x.platform)).toEqual(['threads']);
  });

  it('a draft fails at once (exit 2) with the command that schedules it', async () => {
    const draft = await api<{ id: string }>(ok, keyOf(ok, 'demo'), 'POST', '/v1/posts', { payloads: { bluesky: { text: 'not yet' } } });
    const slept: number[] = [];
    const r = await runCli(['results', 'wait', '--post', draft.body.id], { env: cliEnv(ok), clock: advancingClock(ok.clock, slept) });
    expect(r.code).toBe(2);
    expect(slept).toEqual([]);
    expect(r.stderr).toContain(`post ${draft.body.id} is a draft: it gets results only once it is scheduled`);
    expect(r.stderr).toContain(`schedule it first: socialpub posts schedule ${draft.body.id} --at TIME`);
  });

  it('--post A --post B waits for both: exit 0 with every result, exit 7 when a target of either failed', async () => {
    const a = await schedulePost(ok, keyOf(ok, 'demo'), ['twitter-x', 'linkedin'], 2 * 60_000);
    const b = await schedulePost(ok, keyOf(ok, 'demo'), ['bluesky'], 6 * 60_000);
    const both = await runCli(['results', 'wait', '--post', a.id, '--post', b.id, '--json'], { env: cliEnv(ok), clock: advancingClock(ok.clock) });
    expect(both.code).toBe(0);
    const rows = JSON.parse(both.stdout) as PostResult[];
    expect(rows.map((x) => `${x.post_id} ${x.platform}`).sort()).toEqual([`${a.id} linkedin`, `${a.id} twitter-x`, `${b.id} bluesky`].sort());

    const c = await schedulePost(failing, keyOf(failing, 'demo'), ['threads'], 60_000);
    const d = await schedulePost(failing, keyOf(failing, 'demo'), ['bluesky', 'linkedin'], 3 * 60_000);
    const failed = await runCli(['results', 'wait', '--post', c.id, '--post', d.id], { env: cliEnv(failing), clock: advancingClock(failing.clock) });
    expect(failed.code).toBe(7);
    expect(failed.stdout.trimEnd().split('\n')).toHaveLength(3);
    expect(failed.stderr).toMatch(/✗ threads /);
    expect(failed.stderr).toMatch(/✗ linkedin /);
    // One retry line per post with a failure.
    expect(failed.stderr).toContain(`socialpub results retry ${c.id}\n`);
    const postsWithFailures = new Set(failed.stdout.trimEnd().split('\n').filter((l) => l.startsWith('failure\t')).map((l) => l.split('\t')[2]));
    expect(postsWithFailures.size).toBeGreaterThan(0);
    expect(failed.stderr.match(/socialpub results retry /g)).toHaveLength(postsWithFailures.size);
  });

  it('over several posts, each row of the table names its post, at 60 and 120 columns; one post needs no such column', async () => {
    const a = await schedulePost(ok, keyOf(ok, 'demo'), ['twitter-x', 'linkedin'], 2 * 60_000);
    const b = await schedulePost(ok, keyOf(ok, 'demo'), ['bluesky'], 4 * 60_000);
    for (const columns of [60, 120]) {
      const r = await runCli(['results', 'wait', '--post', a.id, '--post', b.id], { env: { ...cliEnv(ok), NO_COLOR: '1' }, tty: true, columns, clock: advancingClock(ok.clock) });
      expect(r.code).toBe(0);
      const [header, ...rows] = r.stdout.trimEnd().split('\n');
      expect(header).toMatch(/\bPOST\b/);
      expect(rows.map((l) => (l.includes(a.id) ? 'a' : l.includes(b.id) ? 'b' : '?')).sort()).toEqual(['a', 'a', 'b']);
      // The outcome stays too (a live link here), before the result's id.
      expect(header).toMatch(/URL \/ ERROR$/);
      for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(columns);
    }
    const one = await runCli(['results', 'wait', '--post', a.id], { env: { ...cliEnv(ok), NO_COLOR: '1' }, tty: true, columns: 60, clock: advancingClock(ok.clock) });
    expect(one.stdout.split('\n')[0]).not.toMatch(/\bPOST\b/);
  });

  it('--expect overrides the targets; an unknown post is exit 4', async () => {
    const post = await schedulePost(ok, keyOf(ok, 'demo'), ['twitter-x', 'threads'], 60_000);
    const r = await runCli(['results', 'wait', '--post', post.id, '--expect', '1', '-o', 'ndjson'], { env: cliEnv(ok), clock: advancingClock(ok.clock) });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').length).toBeGreaterThanOrEqual(1);
    const missing = await runCli(['results', 'wait', '--post', 'post_nope'], { env: cliEnv(ok), clock: advancingClock(ok.clock) });
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('no post post_nope in the workspace of the key in SOCIALPUB_API_KEY');
  });

  it('--listen-port: a webhook for the post wakes the wait at once', async () => {
    const port = await freePort();
    ok.setWebhookUrl(`http://127.0.0.1:${port}/webhooks`);
    const post = await schedulePost(ok, keyOf(ok, 'demo'), ['twitter-x', 'linkedin'], 30 * 60_000);
    // A clock whose sleep never ends by itself: only a webhook (or Ctrl-C) can end it.
    let sleeping!: () => void;
    const asleep = new Promise<void>((resolve) => (sleeping = resolve));
    const clock: Clock = {
      now: () => ok.clock.now(),
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => {
          sleeping();
          signal?.addEventListener('abort', () => reject(Object.assign(new Error('woken'), { name: 'AbortError' })), { once: true });
        }),
    };
    const run = runCli(['results', 'wait', '--post', post.id, '--timeout', '1h', '--listen-port', String(port), '--json'], {
      env: { ...cliEnv(ok), SOCIALPUB_WEBHOOK_SECRET: ok.webhookSecret },
      clock,
    });
    await asleep;
    await ok.clock.advance(30 * 60_000); // publishes, and delivers the webhooks
    const r = await run;
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as PostResult[]).map((x) => x.platform).sort()).toEqual(['linkedin', 'twitter-x']);
    expect(r.stderr).toContain(`listening for webhooks on http://127.0.0.1:${port}/webhooks`);
  });
});

describe('results wait within the read rate limit', () => {
  let sb: Sb;
  afterAll(async () => {
    await sb?.close();
  });

  it('stretches its polls to the RateLimit headers instead of running into 429', async () => {
    const clock = createManualClock(START);
    sb = Object.assign(await startSandbox({ port: 0, seed: 3, clock, failureRate: 0, readLimit: 4, writeLimit: 100 }), { clock });
    const post = await schedulePost(sb, keyOf(sb, 'demo'), ['twitter-x', 'linkedin'], 5 * 60_000);
    const slept: number[] = [];
    const r = await runCli(['results', 'wait', '--post', post.id, '--timeout', '2h', '-o', 'ndjson'], { env: cliEnv(sb), clock: advancingClock(sb.clock, slept) });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
    const reads = sb.requests.filter((q) => q.method === 'GET');
    expect(reads.length).toBeLessThanOrEqual(4);
    expect(reads.every((q) => q.status === 200)).toBe(true);
    expect(Math.max(...slept)).toBeGreaterThan(5 * 60_000); // waited for budget, not on a short backoff
  });

  it('network trouble: exit 6 after the client retries', async () => {
    const port = await freePort();
    const clock = createManualClock(START);
    const r = await runCli(['results', 'wait', '--post', 'post_x', '--max-retries', '1'], {
      env: { SOCIALPUB_BASE_URL: `http://127.0.0.1:${port}`, SOCIALPUB_API_KEY: 'sk_test_nothing_listens' },
      clock: advancingClock(clock),
    });
    expect(r.code).toBe(6);
    // The wait rode the outage out to its own deadline (10 min by default) before giving up.
    expect(r.stderr).toMatch(/^service unreachable: .+; retrying until \d\d:\d\d \((10|9) min from now\)$/m);
    expect(clock.now() - START).toBe(10 * 60_000);
    expect(r.stderr).toMatch(/^ {2}hint: the service was still failing when the wait ended \(--timeout 10 min\); the posts are unaffected: run the wait again, or give a longer --timeout/m);
  });
});

describe('results wait through an outage', () => {
  let dir: string;
  let sb: Sb | undefined;
  afterAll(async () => {
    await sb?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the sandbox stopped and restarted on the same port under a running wait: the wait succeeds', async () => {
    dir = mkdtempSync(join(tmpdir(), 'socialpub-wait-outage-'));
    const dataFile = join(dir, 'sandbox.json');
    const clock = createManualClock(START);
    const options = { seed: 4, clock, failureRate: 0, dataFile, ...ROOMY_LIMITS };
    sb = Object.assign(await startSandbox({ port: 0, ...options }), { clock });
    const port = Number(new URL(sb.url).port);
    const key = keyOf(sb, 'demo');
    const post = await schedulePost(sb, key, ['twitter-x', 'linkedin'], 3 * 60_000);
    let sleeps = 0;
    let down = false;
    const cliClock: Clock = {
      now: () => clock.now(),
      async sleep(ms) {
        sleeps++;
        if (sleeps === 1) {
          // After the first poll: the service goes away for a while.
          await sb!.close();
          down = true;
        } else if (down && sleeps === 12) {
          sb = Object.assign(await startSandbox({ port, ...options }), { clock });
          down = false;
        }
        await clock.advance(ms);
      },
    };
    const r = await runCli(['results', 'wait', '--post', post.id, '--timeout', '30m', '-o', 'ndjson'], { env: { SOCIALPUB_BASE_URL: `http://127.0.0.1:${port}`, SOCIALPUB_API_KEY: key }, clock: cliClock });
    expect(sleeps).toBeGreaterThanOrEqual(12);
    expect(r.code).toBe(0);
    expect(parseNdjson(r.stdout).map((x) => x.platform).sort()).toEqual(['linkedin', 'twitter-x']);
    const lines = r.stderr.split('\n');
    expect(lines.filter((l) => l.startsWith('service unreachable: '))).toHaveLength(1);
    expect(lines.filter((l) => l === 'service reachable again; still waiting')).toHaveLength(1);
    expect(r.stderr).toMatch(/service unreachable: .+; retrying until \d\d:\d\d/);
  });
});

describe('results wait keeps its own deadline through an outage longer than its --timeout', () => {
  let server: Server | undefined;
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  // Looking the post up (no --expect) and polling its results (--expect skips the look-up) ride
  // out the outage the same way; the client's own retries (3 by default) run inside each read.
  it.each([
    ['looking the post up', [] as string[]],
    ['polling', ['--expect', '2']],
  ])('a service answering 503 to everything, while %s: exit 1 with the 503, nothing slept or sent past the deadline', async (_phase, extra) => {
    const slept: number[] = [];
    const clock = detachedClock(START, slept);
    const seenAt: number[] = [];
    server = createHttpServer((req, res) => {
      seenAt.push(clock.now());
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'down for maintenance' } }));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const r = await runCli(['results', 'wait', '--post', 'post_x', '--timeout', '30s', ...extra], { env: { SOCIALPUB_BASE_URL: url, SOCIALPUB_API_KEY: 'sk_test_outage_0000000000' }, clock });
    server.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;

    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    // It answered: failing, not unreachable.
    expect(r.stderr).toMatch(/^service failing: it answered 503.*: down for maintenance; retrying until \d\d:\d\d \(\d+s from now\)$/m);
    expect(r.stderr).not.toContain('unreachable');
    expect(r.stderr).toMatch(/^error: the service failed \(503/m);
    expect(r.stderr).toMatch(/^ {2}hint: the service was still failing when the wait ended \(--timeout 30s\)/m);
    const deadline = START + 30_000;
    // The wait rode the outage out to its deadline and not a moment past it.
    expect(clock.now()).toBe(deadline);
    expect(slept.reduce((a, b) => a + b, 0)).toBe(30_000);
    expect(seenAt.length).toBeGreaterThan(4);
    expect(Math.max(...seenAt)).toBeLessThan(deadline);
  });
});

/** A CLI clock of its own: sleeping moves only it, not the sandbox (and is recorded in `slept`). */
function detachedClock(start: number, slept: number[] = []): Clock {
  let t = start;
  return {
    now: () => t,
    sleep: async (ms) => {
      slept.push(ms);
      t += ms;
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

describe('results wait on a service whose answers it cannot read', () => {
  it('says the service answers in a shape it cannot read, not that it cannot be reached', async () => {
    const clock = detachedClock(START);
    // A results page whose row has a number for its error code: the service answers, garbled.
    const server = createHttpServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [{ id: 'res_1', post_id: 'post_x', success: false, error: { code: 42, message: 'x' } }], meta: { offset: 0, limit: 100, total: 1 } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const r = await runCli(['results', 'wait', '--post', 'post_x', '--expect', '1', '--timeout', '10s'], { env: { SOCIALPUB_BASE_URL: url, SOCIALPUB_API_KEY: 'sk_test_garbled_000000000' }, clock });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/^service answers in a shape socialpub cannot read: unexpected response from GET \/api\/v1\/post-results.*; retrying until \d\d:\d\d/m);
      expect(r.stderr).not.toContain('service unreachable');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
