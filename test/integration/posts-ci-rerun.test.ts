// The CI announcement recipe: the same --idempotency-key on a re-run never posts twice. With an
// absolute --at the re-run replays the first post; with a relative one the client warns up front
// and the refused re-run explains why.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv, demoKey, manualSandbox, postTotal, sandboxClock, type ManualSandbox } from './posts-support.js';

describe('re-running a CI announcement', () => {
  let sb: ManualSandbox;
  beforeAll(async () => {
    sb = await manualSandbox({ failureRate: 0 });
  });
  afterAll(() => sb.close());

  const schedule = (at: string, key: string) =>
    runCli(['posts', 'schedule', '--platform', 'bluesky', '--text', `release ${key}`, '--at', at, '--idempotency-key', key, '-q'], {
      env: cliEnv(sb),
      clock: sandboxClock(sb.clock),
    });

  it('replays the first post when the body is the same (absolute --at)', async () => {
    const before = await postTotal(sb);
    const first = await schedule('2026-12-02T09:00:00Z', 'release-v1');
    await sb.clock.advance(60_000);
    const again = await schedule('2026-12-02T09:00:00Z', 'release-v1');
    expect(first.code).toBe(0);
    expect(again.code).toBe(0);
    expect(again.stdout.trim()).toBe(first.stdout.trim());
    expect(again.stderr).toMatch(/already created/i);
    expect(await postTotal(sb)).toBe(before + 1);
  });

  it('warns about a relative --at with a key, and the refused re-run explains it (exit 2, one post)', async () => {
    const before = await postTotal(sb);
    const first = await schedule('+10m', 'release-v2');
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/relative time: a re-run with --idempotency-key release-v2 will compute another time/);
    await sb.clock.advance(60_000);
    const again = await schedule('+10m', 'release-v2');
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/nothing new was created/);
    expect(again.stderr).toMatch(/absolute --at/);
    expect(await postTotal(sb)).toBe(before + 1);
  });

  it('a late re-run (its --at has passed) still replays: exit 0, the same id, one post', async () => {
    const before = await postTotal(sb);
    const at = new Date(sb.clock.now() + 30 * 60_000).toISOString();
    const first = await schedule(at, 'release-v3');
    expect(first.code, first.stderr).toBe(0);
    await sb.clock.advance(2 * 3_600_000); // the job is re-run two hours later: --at is an hour past
    const sent = sb.requests.length;
    const again = await schedule(at, 'release-v3');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe(first.stdout.trim());
    expect(again.stderr).toMatch(/already created/);
    expect(sb.requests.length).toBeGreaterThan(sent);
    expect(await postTotal(sb)).toBe(before + 1);
  });

  it('a passed --at under a key the service never saw is sent, and the service refuses it (exit 2, nothing created)', async () => {
    const before = await postTotal(sb);
    const sent = sb.requests.length;
    const r = await schedule(new Date(sb.clock.now() - 60_000).toISOString(), 'release-never-ran');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/scheduledAt/);
    expect(r.stderr).toMatch(/in the past/);
    expect(sb.requests.length).toBeGreaterThan(sent);
    expect(await postTotal(sb)).toBe(before);
  });

  it('without a key a passed --at is still refused locally, nothing sent', async () => {
    const sent = sb.requests.length;
    const r = await runCli(['posts', 'schedule', '--platform', 'bluesky', '--text', 'no key', '--at', new Date(sb.clock.now() - 60_000).toISOString()], {
      env: cliEnv(sb),
      clock: sandboxClock(sb.clock),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--at: .* is in the past/);
    expect(sb.requests.length).toBe(sent);
  });

  it('the service replays before it validates: the same body and key after its time has passed', async () => {
    const key = demoKey(sb);
    const body = JSON.stringify({ payloads: { bluesky: { text: 'raw replay' } }, scheduledAt: new Date(sb.clock.now() + 60_000).toISOString() });
    const post = () =>
      fetch(new URL('/v1/schedule', sb.url), { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'raw-late-replay' }, body });
    const first = await post();
    expect(first.status).toBe(201);
    const created = (await first.json()) as { id: string };
    await sb.clock.advance(3_600_000);
    const again = await post();
    expect(again.status).toBeLessThan(300);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as { id: string }).id).toBe(created.id);
  });
});

describe('re-running a bulk file without its journal, after its times have passed', () => {
  let sb: ManualSandbox;
  const dir = mkdtempSync(join(tmpdir(), 'ci-rerun-bulk-'));
  beforeAll(async () => {
    sb = await manualSandbox({ failureRate: 0 });
  });
  afterAll(async () => {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the passed rows; the service replays them and they count as done (exit 0, no new post)', async () => {
    const csv = join(dir, 'week.csv');
    const t = (min: number) => new Date(sb.clock.now() + min * 60_000).toISOString();
    writeFileSync(csv, `at,platforms,text\n${t(30)},bluesky,first\n${t(45)},bluesky,second\n`);
    // Each run gets a fresh config folder: the journal of the first run is gone, as on a new CI machine.
    const run = () => runCli(['posts', 'schedule', '--from-file', csv, '--json'], { env: cliEnv(sb), clock: sandboxClock(sb.clock) });
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    const before = await postTotal(sb);
    await sb.clock.advance(3_600_000);
    const again = await run();
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/2 rows \(line 2, 3\) have times that have passed: sending anyway/);
    const report = JSON.parse(again.stdout) as { rows: Array<{ outcome: string; id: string }> };
    expect(report.rows.map((r) => r.outcome)).toEqual(['already-done', 'already-done']);
    expect(report.rows.map((r) => r.id)).toEqual((JSON.parse(first.stdout) as { rows: Array<{ id: string }> }).rows.map((r) => r.id));
    expect(await postTotal(sb)).toBe(before);
  });

  it('a first run of a row whose time has passed is sent, and the service refuses that row (exit 7)', async () => {
    const csv = join(dir, 'late.csv');
    writeFileSync(csv, `at,platforms,text\n${new Date(sb.clock.now() - 60_000).toISOString()},bluesky,never sent before\n`);
    const before = await postTotal(sb);
    const r = await runCli(['posts', 'schedule', '--from-file', csv, '--json'], { env: cliEnv(sb), clock: sandboxClock(sb.clock) });
    expect(r.code, r.stderr).toBe(7);
    const report = JSON.parse(r.stdout) as { rows: Array<{ outcome: string; error: { message: string } | null }> };
    expect(report.rows[0]?.outcome).toBe('failed');
    expect(report.rows[0]?.error?.message).toMatch(/scheduledAt.*in the past/);
    expect(await postTotal(sb)).toBe(before);
  });
});
