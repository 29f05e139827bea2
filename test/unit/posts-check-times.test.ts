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

describe('posts check --from-file: problems first, counted by row', () => {
  const file = () => {
    const rows = Array.from({ length: 20 }, (_, i) => `2026-12-0${1 + (i % 5)} 09:${String(i).padStart(2, '0')},bluesky|linkedin,Post number ${i}`);
    rows[2] = '2026-11-01 09:00,bluesky,a time that has passed';
    rows[6] = `2026-12-02 09:00,twitter-x|bluesky,${'x'.repeat(300)}`;
    rows[11] = '2026-12-02 10:00,blusky,misspelt platform';
    writeFileSync(join(dir, 'many.csv'), `at,platforms,text\n${rows.join('\n')}\n`);
    return join(dir, 'many.csv');
  };

  it('on a terminal: the problems only (no passing checks), and the rows with problems counted and named by line', async () => {
    const r = await runCli(['posts', 'check', '--from-file', file()], { clock, tty: true, columns: 120, env: { TZ: 'Europe/Paris', NO_COLOR: '1' } });
    expect(r.code).toBe(2);
    const [, ...lines] = r.stdout.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(6);
    expect(lines.every((l) => !/\s✓\s/.test(l))).toBe(true);
    expect(lines[0]).toMatch(/^input/);
    expect(r.stderr).toMatch(/passing checks not shown/);
    expect(r.stderr).toMatch(/3 of 20 rows have problems \(lines 4, 8, 13\); \d+ of \d+ targets would be accepted/);
  });

  it('-q keeps the problems alone; piped, every check is listed, the problems first', async () => {
    const quiet = await run(['posts', 'check', '--from-file', file(), '-q']);
    expect(quiet.code).toBe(2);
    const rows = quiet.stdout.trimEnd().split('\n');
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.every((l) => l.split('\t')[2] === 'fail')).toBe(true);
    const all = await run(['posts', 'check', '--from-file', file()]);
    const verdicts = all.stdout.trimEnd().split('\n').map((l) => l.split('\t')[2]);
    expect(verdicts.length).toBeGreaterThan(30);
    expect(verdicts.indexOf('pass')).toBeGreaterThan(verdicts.lastIndexOf('fail'));
  });
});

describe('an unreadable bulk date', () => {
  it('is told with the forms a bulk file takes only (no relative or spoken times)', async () => {
    writeFileSync(join(dir, 'bad-date.csv'), 'at,platforms,text\nnext tuesday 9am,bluesky,hello\n');
    const r = await run(['posts', 'check', '--from-file', join(dir, 'bad-date.csv'), '--json']);
    expect(r.code).toBe(2);
    const problem = (JSON.parse(r.stdout) as { problems: Array<{ message: string; fix?: string }> }).problems[0]!;
    expect(problem.message).toContain('"next tuesday 9am" is not a time I can read');
    expect(problem.fix).toContain('RFC 3339 with an offset');
    expect(problem.fix).not.toMatch(/tomorrow|\+2h|\+30m|mon 10:00/);
    // A single post's --at still offers every form it takes.
    const one = await run(['posts', 'check', '--platform', 'bluesky', '--text', 'x', '--at', 'next tuesday 9am']);
    expect(one.stderr).toContain('tomorrow 9am');
  });
});
