// The support-staff commands end to end, in-process CLI against the sandbox over real HTTP:
// `results list --since`, `results stats` (checked against an independent count of the rows)
// and `results retry` (twice → one new post; nothing failed → exit 2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import type { ManualClock } from '../../src/sandbox/clock.js';
import { allResults, api, cliEnv, keyOf, sandboxFor, schedulePost, type Sandbox } from './results-support.js';

type Sb = Sandbox & { clock: ManualClock };
const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

async function published(sb: Sb, platforms: string[]): Promise<string> {
  const { id } = await schedulePost(sb, keyOf(sb, 'demo'), platforms, 60_000);
  await sb.clock.advance(120_000);
  await sb.settle();
  return id;
}

describe('results list --since and results stats', () => {
  let sb: Sb;
  beforeAll(async () => (sb = await sandboxFor({ fixtures: 2_000, failureRate: 0.3, seed: 11 })));
  afterAll(async () => sb?.close());

  it('a bad --since is exit 2 before any request (first, so no earlier page is still in flight)', async () => {
    const before = sb.requests.length;
    const r = await runCli(['results', 'list', '--since', 'yesterday-ish'], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code).toBe(2);
    expect(sb.requests.length).toBe(before);
    expect(r.stderr).toContain('--since');
  });

  it('--since selects by event time and reads only the pages it needs', async () => {
    const all = await allResults(sb, keyOf(sb, 'demo'));
    const now = sb.clock.now();
    const since = now - 48 * 3_600_000;
    const expected = all.filter((r) => Date.parse(r.created_at!) >= since).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length);
    const before = sb.requests.length;
    const r = await runCli(['results', 'list', '--since', '48h', '--all', '-o', 'ndjson'], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code, r.stderr).toBe(0);
    const got = r.stdout.trim().split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { id: string }).id);
    expect(got).toEqual(expected);
    const reads = sb.requests.slice(before).filter((e) => e.path.startsWith('/api/v1/post-results')).length;
    // The pages holding the window, plus the first one wholly older and the few in flight then;
    // not the twenty that hold every row.
    expect(reads).toBeLessThanOrEqual(Math.ceil(expected.length / 100) + 1 + 6);
    expect(reads).toBeLessThan(Math.ceil(all.length / 100));
  });

  it('stats --json matches an independent count, by platform and by code', async () => {
    const all = await allResults(sb, keyOf(sb, 'demo'));
    const r = await runCli(['results', 'stats', '--json'], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code, r.stderr).toBe(0);
    const stats = JSON.parse(r.stdout) as { total: number; succeeded: number; failed: number; groups: Array<{ key: string; total: number; failed: number }> };
    expect(stats.total).toBe(all.length);
    expect(stats.failed).toBe(all.filter((x) => !x.success).length);
    expect(stats.groups.map((g) => g.key).sort()).toEqual([...new Set(all.map((x) => x.platform))].sort());
    for (const g of stats.groups) expect(g.total).toBe(all.filter((x) => x.platform === g.key).length);
    const failures = stats.groups.map((g) => g.failed);
    expect(failures).toEqual([...failures].sort((a, b) => b - a));

    const byCode = await runCli(['results', 'stats', '--by', 'code', '-o', 'tsv'], { env: cliEnv(sb), clock: sb.clock });
    expect(byCode.code).toBe(0);
    const rows = byCode.stdout.trim().split('\n').map((l) => l.split('\t'));
    const succeededRow = rows.find((c) => c[0] === '(succeeded)');
    expect(Number(succeededRow?.[1])).toBe(all.filter((x) => x.success).length);
    for (const c of rows) expect(c).toHaveLength(5);
  });

  it('stats on a terminal draws a bar per group and a total', async () => {
    const r = await runCli(['results', 'stats', '--platform', 'instagram,bluesky'], { env: cliEnv(sb), clock: sb.clock, tty: true });
    expect(r.code, r.stderr).toBe(0);
    const lines = plain(r.stdout).trim().split('\n');
    expect(lines[0]).toMatch(/^PLATFORM\s+TOTAL\s+SUCCEEDED\s+FAILED\s+FAILURE RATE/);
    expect(lines).toHaveLength(3);
    expect(plain(r.stderr)).toMatch(/\d+ results: \d+ succeeded, \d+ failed/);
  });
});

describe('results retry', () => {
  let sb: Sb;
  beforeAll(async () => (sb = await sandboxFor({ failureRate: 1, seed: 5 })));
  afterAll(async () => sb?.close());

  it('creates one new post with the failed targets, however often it runs', async () => {
    const id = await published(sb, ['instagram', 'linkedin']);
    const count = async () => (await api<{ meta: { total: number } }>(sb, keyOf(sb, 'demo'), 'GET', '/v1/posts?limit=1')).body.meta.total;
    const before = await count();
    const first = await runCli(['results', 'retry', id, '--json'], { env: cliEnv(sb), clock: sb.clock });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/retrying 2 failed targets of /);
    // Instagram failed for its content: the warning says to correct the draft, then schedule it.
    expect(first.stderr).not.toContain('is a draft: nothing is sent');
    const again = await runCli(['results', 'retry', id, '--json'], { env: cliEnv(sb), clock: sb.clock });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('already created');
    const a = JSON.parse(first.stdout) as { id: string; payloads: Record<string, unknown> };
    expect((JSON.parse(again.stdout) as { id: string }).id).toBe(a.id);
    expect(Object.keys(a.payloads).sort()).toEqual(['instagram', 'linkedin']);
    expect(await count()).toBe(before + 1);
  });

  it('a second retry at another --at is refused (exit 2) saying the first retry stands and how to move it', async () => {
    const id = await published(sb, ['linkedin']);
    const at = (h: number) => new Date(sb.clock.now() + h * 3_600_000).toISOString();
    const first = await runCli(['results', 'retry', id, '--at', at(2), '-q'], { env: cliEnv(sb), clock: sb.clock });
    expect(first.code, first.stderr).toBe(0);
    const moved = await runCli(['results', 'retry', id, '--at', at(3)], { env: cliEnv(sb), clock: sb.clock });
    expect(moved.code).toBe(2);
    expect(moved.stdout).toBe('');
    expect(plain(moved.stderr)).toContain(`hint: these targets of ${id} were already retried with another --at (or without one): that post stands; \`socialpub posts schedule <its id> --at TIME\` moves it`);
  });

  it('--dry-run sends nothing; an unknown platform is exit 2', async () => {
    const id = await published(sb, ['bluesky']);
    const dry = await runCli(['results', 'retry', id, '--dry-run'], { env: cliEnv(sb), clock: sb.clock });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('POST /v1/posts');
    const narrowed = await runCli(['results', 'retry', id, '--platform', 'tiktok'], { env: cliEnv(sb), clock: sb.clock });
    expect(narrowed.code).toBe(2);
    expect(narrowed.stderr).toContain('--platform: tiktok did not fail');
    // Without --at the retry is a draft, and nothing went out yet: the way to send it is given.
    const real = await runCli(['results', 'retry', id, '--json'], { env: cliEnv(sb), clock: sb.clock });
    expect(real.code, real.stderr).toBe(0);
    const made = JSON.parse(real.stdout) as { id: string; status: string };
    expect(made.status).toBe('draft');
    expect(plain(real.stderr)).toContain(`${made.id} is a draft: nothing is sent until it is scheduled (or retry with --at):\n  socialpub posts schedule ${made.id} --at TIME\n`);
  });
});

describe('results retry when nothing failed', () => {
  let sb: Sb;
  beforeAll(async () => (sb = await sandboxFor({ failureRate: 0, seed: 6 })));
  afterAll(async () => sb?.close());

  it('exits 2 saying every target succeeded', async () => {
    const id = await published(sb, ['threads']);
    const r = await runCli(['results', 'retry', id], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`nothing to retry: every target of ${id} succeeded`);
  });

  it('a target refused for its content is carried, with its fix and the way to correct the new post first', async () => {
    // Instagram publishes only posts with media: the sandbox refuses this one by the platform's rule.
    const id = await published(sb, ['instagram', 'threads']);
    const r = await runCli(['results', 'retry', id, '--json'], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code, r.stderr).toBe(0);
    const draft = JSON.parse(r.stdout) as { id: string; status: string; payloads: Record<string, unknown> };
    expect(Object.keys(draft.payloads)).toEqual(['instagram']);
    expect(draft.status).toBe('draft');
    const err = plain(r.stderr);
    expect(err).toMatch(/instagram .*MEDIA_REQUIRED: .*\(refused for its content: add an image or a video first\)/);
    expect(err).toContain(`instagram failed for its content and will most likely fail again unchanged: correct the new draft with \`socialpub posts edit ${draft.id}\`, then \`socialpub posts schedule ${draft.id} --at TIME\``);
    // Scheduled at once (--at), on another post: the derived key of the first retry names a draft.
    const other = await published(sb, ['instagram']);
    const at = new Date(sb.clock.now() + 3_600_000).toISOString();
    const scheduled = await runCli(['results', 'retry', other, '--at', at, '--json'], { env: cliEnv(sb), clock: sb.clock });
    expect(scheduled.code, scheduled.stderr).toBe(0);
    const post = JSON.parse(scheduled.stdout) as { id: string };
    expect(plain(scheduled.stderr)).toContain(`correct the new post with \`socialpub posts edit ${post.id}\` before ${at}`);
  });
});
