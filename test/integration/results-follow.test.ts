// `results list --follow` and `--code`, in-process against the sandbox over HTTP. The CLI's clock
// is injected: each pause between polls is where the test makes new results appear (a post falls
// due on the sandbox's manual clock), and where it stops the command as Ctrl-C would.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { ROOMY_LIMITS, testSandbox } from '../helpers/sandbox.js';
import { createManualClock } from '../../src/sandbox/clock.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Clock } from '../../src/cli/context.js';
import { FOLLOW_CEILING_MS, FOLLOW_FLOOR_MS, followResults, pollInterval, RecentIds } from '../../src/results/follow.js';
import { allResults, cliEnv, keyOf, parseNdjson, sandboxFor, schedulePost, START, type Sandbox } from './results-support.js';
import type { ManualClock } from '../../src/sandbox/clock.js';

type Sb = Sandbox & { clock: ManualClock };

/** A clock whose n-th pause runs `steps[n]` (then moves sandbox time on); after the last, it stops the command. */
function scriptedClock(sb: Sb, controller: AbortController, steps: Array<() => Promise<void>>, pauses: number[]): Clock {
  return {
    now: () => sb.clock.now(),
    async sleep(ms, signal) {
      pauses.push(ms);
      const step = steps[pauses.length - 1];
      if (!step) controller.abort();
      if (signal?.aborted) throw Object.assign(new Error('interrupted'), { name: 'AbortError' });
      await step!();
      await sb.clock.advance(ms);
    },
  };
}

describe('results list --follow', () => {
  let sb: Sb;
  beforeAll(async () => (sb = await sandboxFor({ fixtures: 300, failureRate: 0.5, seed: 3 })));
  afterAll(async () => sb?.close());

  async function publishNow(platforms: string[]): Promise<string> {
    const { id } = await schedulePost(sb, keyOf(sb, 'demo'), platforms, 1_000);
    await sb.clock.advance(2_000);
    await sb.settle();
    return id;
  }

  it('prints each new result once, oldest first within a poll, and nothing that was there before; Ctrl-C is exit 130', async () => {
    const before = new Set((await allResults(sb, keyOf(sb, 'demo'))).map((r) => r.id));
    const posts: string[] = [];
    const controller = new AbortController();
    const pauses: number[] = [];
    const steps = [
      async () => void posts.push(await publishNow(['bluesky', 'linkedin'])),
      async () => {}, // a poll with nothing new: the same rows again, printed once
      async () => void posts.push(await publishNow(['threads'])),
    ];
    const r = await runCli(['results', 'list', '--follow', '-o', 'ndjson'], { env: cliEnv(sb), clock: scriptedClock(sb, controller, steps, pauses), signal: controller.signal });
    expect(r.code, r.stderr).toBe(130);
    const rows = parseNdjson(r.stdout);
    const oracle = (await allResults(sb, keyOf(sb, 'demo'))).filter((x) => !before.has(x.id));
    expect(oracle).toHaveLength(3);
    expect(rows.map((x) => x.id).sort()).toEqual(oracle.map((x) => x.id).sort());
    expect(new Set(rows.map((x) => x.post_id))).toEqual(new Set(posts));
    // Time order: the second post's result comes after the first post's.
    expect(rows[2]!.post_id).toBe(posts[1]);
    const times = rows.map((x) => Date.parse(x.created_at!));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(pauses.length).toBe(4);
    for (const p of pauses) expect(p).toBeGreaterThanOrEqual(FOLLOW_FLOOR_MS);
  });

  it('with filters and --jq per row: only matching rows, as jq prints them', async () => {
    const controller = new AbortController();
    const pauses: number[] = [];
    let post = '';
    const steps = [async () => void (post = await publishNow(['bluesky', 'linkedin', 'threads', 'pinterest']))];
    const r = await runCli(['results', 'list', '--follow', '--platform', 'bluesky,threads', '-o', 'ndjson', '--jq', '.platform + " " + .post_id'], {
      env: cliEnv(sb),
      clock: scriptedClock(sb, controller, steps, pauses),
      signal: controller.signal,
    });
    expect(r.code, r.stderr).toBe(130);
    expect(r.stdout.trim().split('\n').sort()).toEqual([`bluesky ${post}`, `threads ${post}`]);
  });

  it('one stream across polls: -o csv has one header row, -q prints ids only', async () => {
    const run = async (args: string[]) => {
      const controller = new AbortController();
      const posts: string[] = [];
      const steps = [async () => void posts.push(await publishNow(['bluesky'])), async () => void posts.push(await publishNow(['threads']))];
      const r = await runCli(['results', 'list', '--follow', '--limit', '1', ...args], { env: cliEnv(sb), clock: scriptedClock(sb, controller, steps, []), signal: controller.signal });
      expect(r.code, r.stderr).toBe(130);
      return { lines: r.stdout.trimEnd().split('\n'), posts };
    };
    const csv = await run(['-o', 'csv']);
    expect(csv.lines).toHaveLength(1 + 3);
    expect(csv.lines.filter((l) => l.startsWith('success,id,'))).toHaveLength(1);
    expect(csv.lines[0]).toMatch(/^success,id,post_id,/);
    expect(csv.lines.slice(2).map((l) => l.split(',')[2])).toEqual(csv.posts);
    const quiet = await run(['-q']);
    expect(quiet.lines).toHaveLength(3);
    for (const line of quiet.lines) expect(line).toMatch(/^res_\w+$/);
  });

  it('--limit N prints the N newest that were already there first', async () => {
    const controller = new AbortController();
    const r = await runCli(['results', 'list', '--follow', '--limit', '3', '-o', 'ndjson'], { env: cliEnv(sb), clock: scriptedClock(sb, controller, [], []), signal: controller.signal });
    expect(r.code).toBe(130);
    const newest = (await allResults(sb, keyOf(sb, 'demo'))).slice(0, 3).reverse();
    expect(parseNdjson(r.stdout).map((x) => x.id)).toEqual(newest.map((x) => x.id));
  });

  it('--limit N larger than a page reads as many pages as it takes, then follows', async () => {
    const controller = new AbortController();
    const r = await runCli(['results', 'list', '--follow', '--limit', '250', '-o', 'ndjson'], { env: cliEnv(sb), clock: scriptedClock(sb, controller, [], []), signal: controller.signal });
    expect(r.code, r.stderr).toBe(130);
    const newest = (await allResults(sb, keyOf(sb, 'demo'))).slice(0, 250).reverse();
    expect(newest).toHaveLength(250);
    expect(parseNdjson(r.stdout).map((x) => x.id)).toEqual(newest.map((x) => x.id));
  });

  it('--limit N with --failed: the N newest failures, however many pages they are spread over', async () => {
    const controller = new AbortController();
    const r = await runCli(['results', 'list', '--follow', '--failed', '--limit', '120', '-o', 'ndjson'], { env: cliEnv(sb), clock: scriptedClock(sb, controller, [], []), signal: controller.signal });
    expect(r.code, r.stderr).toBe(130);
    const newest = (await allResults(sb, keyOf(sb, 'demo'))).filter((x) => !x.success).slice(0, 120).reverse();
    expect(newest).toHaveLength(120);
    expect(parseNdjson(r.stdout).map((x) => x.id)).toEqual(newest.map((x) => x.id));
  });

  it('refuses --all and --until with --follow (exit 2, nothing sent)', async () => {
    const before = sb.requests.length;
    const r = await runCli(['results', 'list', '--follow', '--all'], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--follow');
    expect(sb.requests.length).toBe(before);
  });
});

describe('--follow with the read rate limit spent', () => {
  it('says when the next poll is, instead of falling silent for up to an hour', async () => {
    // 4 reads: the last (a tenth, rounded up) is left to the rest of the workspace.
    const sb = (await testSandbox({ seed: 7, fixtures: 0, failureRate: 0.2, writeLimit: 100_000, readLimit: 4 }));
    try {
      const controller = new AbortController();
      const pauses: number[] = [];
      // Two polls within the limit; the third pause waits for the window to reset, and stops the command.
      const r = await runCli(['results', 'list', '--follow'], { env: { ...cliEnv(sb), TZ: 'UTC' }, clock: scriptedClock(sb, controller, [async () => {}, async () => {}], pauses), signal: controller.signal });
      expect(r.code, r.stderr).toBe(130);
      expect(pauses.slice(0, 2)).toEqual([FOLLOW_CEILING_MS, FOLLOW_CEILING_MS]);
      expect(pauses[2]).toBeGreaterThan(FOLLOW_CEILING_MS);
      expect(r.stderr.match(/the read rate limit is used up/g)).toHaveLength(1);
      expect(r.stderr).toMatch(/the read rate limit is used up \(its last tenth is left to the rest of the workspace\): next poll at \d\d:\d\d \((\d+ min|1 h) from now\)/);
    } finally {
      await sb.close();
    }
  });
});

describe('--code', () => {
  let sb: Sb;
  beforeAll(async () => (sb = await sandboxFor({ fixtures: 600, failureRate: 0.5, seed: 9 })));
  afterAll(async () => sb?.close());

  it('results list and results stats keep only failures with these codes (repeatable, comma list)', async () => {
    const all = await allResults(sb, keyOf(sb, 'demo'));
    const codes = [...new Set(all.filter((r) => !r.success).map((r) => r.error!.code))].sort();
    expect(codes.length).toBeGreaterThan(2);
    const [a, b, c] = codes as [string, string, string];
    const want = all.filter((r) => !r.success && [a, b, c].includes(r.error!.code)).map((r) => r.id);
    const list = await runCli(['results', 'list', '--all', '-o', 'ndjson', '--code', `${a},${b}`, '--code', c], { env: cliEnv(sb), clock: sb.clock });
    expect(list.code, list.stderr).toBe(0);
    expect(parseNdjson(list.stdout).map((r) => r.id)).toEqual(want);
    const stats = await runCli(['results', 'stats', '--by', 'code', '--json', '--code', `${a},${b},${c}`], { env: cliEnv(sb), clock: sb.clock });
    expect(stats.code, stats.stderr).toBe(0);
    const s = JSON.parse(stats.stdout) as { total: number; groups: Array<{ key: string; total: number }> };
    expect(s.total).toBe(want.length);
    expect(s.groups.map((g) => g.key).sort()).toEqual([a, b, c]);
  });

  it('a code that matches nothing (typed from memory) is answered with the codes the scanned failures had, most frequent first (list and stats)', async () => {
    const all = await allResults(sb, keyOf(sb, 'demo'));
    const failures = all.filter((r) => !r.success);
    const counts = new Map<string, number>();
    for (const f of failures) counts.set(f.error!.code, (counts.get(f.error!.code) ?? 0) + 1);
    expect(counts.size).toBeGreaterThan(2);
    const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
    const r = await runCli(['results', 'list', '--all', '--code', 'MEDIA_REJECT'], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`no failure had --code MEDIA_REJECT; the codes of the ${failures.length} failures scanned: ${top[0]} (${top[1]}), `);
    for (const code of counts.keys()) expect(r.stderr).toContain(`${code} (${counts.get(code)})`);
    // results stats says the same.
    const stats = await runCli(['results', 'stats', '--code', 'MEDIA_REJECT'], { env: cliEnv(sb), clock: sb.clock });
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.stderr).toContain(`no failure had --code MEDIA_REJECT; the codes of the ${failures.length} failures scanned: ${top[0]} (${top[1]}), `);
    // A code that matches says nothing more.
    const hit = await runCli(['results', 'list', '--code', top[0]], { env: cliEnv(sb), clock: sb.clock });
    expect(hit.stderr).not.toContain('no failure had');
  });

  it('an empty --code is exit 2 before any request', async () => {
    const before = sb.requests.length;
    const r = await runCli(['results', 'list', '--code', ''], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--code');
    expect(sb.requests.length).toBe(before);
  });
});

describe('follow: poll interval and the window of seen ids', () => {
  it('spreads the remaining requests over the reset window, within floor and ceiling', () => {
    expect(pollInterval(undefined)).toBe(FOLLOW_FLOOR_MS);
    expect(pollInterval({ limit: 1000, remaining: 1000, resetSeconds: 60 })).toBe(FOLLOW_FLOOR_MS);
    // The last tenth of the limit is kept: 20 left of 100 is 10 to spread, 10 left is none (wait for the reset).
    expect(pollInterval({ limit: 100, remaining: 20, resetSeconds: 100 })).toBe(10_000);
    expect(pollInterval({ limit: 100, remaining: 10, resetSeconds: 100 })).toBe(100_000);
    expect(pollInterval({ limit: 100, remaining: 10, resetSeconds: 100 }, FOLLOW_FLOOR_MS, FOLLOW_CEILING_MS, true)).toBe(10_000);
    expect(pollInterval({ limit: 100, remaining: 11, resetSeconds: 3600 })).toBe(FOLLOW_CEILING_MS);
    expect(pollInterval({ limit: 100, remaining: 0, resetSeconds: 90 })).toBe(90_000);
  });

  it('a first poll over a list that repeats the same full page stops with an error instead of reading on', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => ({ id: `res_${i}`, post_id: 'post_1', success: true }));
    let reads = 0;
    const polls = followResults({
      pageSize: 10,
      initial: 50,
      page: async () => (reads++, { rows, rateLimit: undefined, total: 1_000 }),
      sleep: async () => {},
    });
    await expect(polls.next()).rejects.toMatchObject({ code: 'PAGING_NO_PROGRESS' });
    expect(reads).toBeLessThan(10);
  });

  it('remembers only the last ids it was given', () => {
    const seen = new RecentIds(3);
    for (const id of ['a', 'b', 'c', 'd']) seen.add(id);
    expect(seen.size).toBe(3);
    expect(seen.has('a')).toBe(false);
    expect(seen.has('d')).toBe(true);
  });
});

describe('results list --follow through an outage', () => {
  let dir: string;
  let sb: Sb | undefined;
  afterAll(async () => {
    await sb?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the sandbox stopped and restarted on the same port: it keeps following and prints what arrived once', async () => {
    dir = mkdtempSync(join(tmpdir(), 'socialpub-follow-outage-'));
    const clock = createManualClock(START);
    const options = { seed: 5, clock, failureRate: 0, dataFile: join(dir, 'sandbox.json'), ...ROOMY_LIMITS };
    sb = Object.assign(await startSandbox({ port: 0, ...options }), { clock });
    const port = Number(new URL(sb.url).port);
    const key = keyOf(sb, 'demo');
    const controller = new AbortController();
    let sleeps = 0;
    let post = '';
    const cliClock: Clock = {
      now: () => clock.now(),
      async sleep(ms, signal) {
        sleeps++;
        if (sleeps === 1) {
          // After the first poll: a post goes out, then the service goes away for a while.
          post = (await schedulePost(sb!, key, ['bluesky', 'threads'], 1_000)).id;
          await clock.advance(2_000);
          await sb!.settle();
          await sb!.close();
        } else if (sleeps === 6) {
          sb = Object.assign(await startSandbox({ port, ...options }), { clock });
        } else if (sleeps === 8) controller.abort();
        if (signal?.aborted) throw Object.assign(new Error('interrupted'), { name: 'AbortError' });
        await clock.advance(ms);
      },
    };
    const r = await runCli(['results', 'list', '--follow', '-o', 'ndjson', '--max-retries', '0'], { env: { SOCIALPUB_BASE_URL: `http://127.0.0.1:${port}`, SOCIALPUB_API_KEY: key }, clock: cliClock, signal: controller.signal });
    expect(r.code, r.stderr).toBe(130);
    const rows = parseNdjson(r.stdout);
    expect(rows.map((x) => x.platform).sort()).toEqual(['bluesky', 'threads']);
    expect(new Set(rows.map((x) => x.post_id))).toEqual(new Set([post]));
    const lines = r.stderr.split('\n');
    expect(lines.filter((l) => /^service unreachable: .+; following again when it answers$/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => l === 'service reachable again; following')).toHaveLength(1);
  });

  it('a service that cannot be reached at the start is exit 6, not a silent wait', async () => {
    const clock = createManualClock(START);
    const probe = await startSandbox({ port: 0, clock, ...ROOMY_LIMITS });
    const url = probe.url;
    await probe.close();
    const r = await runCli(['results', 'list', '--follow', '--max-retries', '0'], { env: { SOCIALPUB_BASE_URL: url, SOCIALPUB_API_KEY: 'sk_test_nothing_listens' }, clock: { now: () => clock.now(), sleep: async (ms) => void (await clock.advance(ms)) } });
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
  });
});
