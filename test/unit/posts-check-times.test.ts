// `posts check` judges times as `posts schedule` does, so that `check && schedule` holds: a time
// that has passed (a bulk row's at, --at, a --file's scheduledAt) fails the check (exit 2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';

const NOW = Date.parse('2026-11-28T10:00:00Z');
const clock = { now: () => NOW, sleep: async () => {} };
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'socialpub-check-times-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = (argv: string[]) => runCli(argv, { clock, env: { TZ: 'Europe/Paris', SOCIALPUB_API_KEY: undefined } });

describe('posts check: times', () => {
  it('a bulk row whose time has passed fails the check, named by its line', async () => {
    writeFileSync(join(dir, 'posts.csv'), 'at,platforms,text\n2026-11-27 09:00,bluesky,yesterday\n2026-12-01 09:00,bluesky,next week\n');
    const r = await run(['posts', 'check', '--from-file', join(dir, 'posts.csv'), '--json']);
    expect(r.code).toBe(2);
    const report = JSON.parse(r.stdout) as { accepted: boolean; problems: Array<{ field: string; message: string }> };
    expect(report.accepted).toBe(false);
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]!.message).toMatch(/line 2.*is in the past/);
  });

  it('--at judges one post\'s time: past exit 2, future exit 0, in --tz', async () => {
    const past = await run(['posts', 'check', '--platform', 'bluesky', '--text', 'hi', '--at', '2026-11-28 10:30', '--tz', 'Europe/Paris']);
    expect(past.code).toBe(2);
    expect(past.stderr).toContain('--at: "2026-11-28 10:30" (2026-11-28T09:30:00.000Z) is in the past');
    const future = await run(['posts', 'check', '--platform', 'bluesky', '--text', 'hi', '--at', '2026-11-28 10:30', '--tz', 'UTC']);
    expect(future.code).toBe(0);
    const relative = await run(['posts', 'check', '--platform', 'bluesky', '--text', 'hi', '--at', '+2h']);
    expect(relative.code).toBe(0);
  });

  it("a --file's scheduledAt in the past fails; --at with --from-file is refused", async () => {
    writeFileSync(join(dir, 'post.json'), JSON.stringify({ payloads: { bluesky: { text: 'x' } }, scheduledAt: '2026-11-01T09:00:00Z' }));
    const r = await run(['posts', 'check', '--file', join(dir, 'post.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/scheduledAt: "2026-11-01T09:00:00Z" .* is in the past/);
    const both = await run(['posts', 'check', '--from-file', join(dir, 'posts.csv'), '--at', '+1h']);
    expect([both.code, both.stderr]).toEqual([2, expect.stringContaining('--at cannot be combined with --from-file')]);
  });
});
