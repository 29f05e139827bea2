// The CI announcement recipe: the same --idempotency-key on a re-run never posts twice. With an
// absolute --at the re-run replays the first post; with a relative one the client warns up front
// and the refused re-run explains why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv, manualSandbox, postTotal, sandboxClock, type ManualSandbox } from './posts-support.js';

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
});
