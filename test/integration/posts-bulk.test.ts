// Bulk scheduling (posts schedule --from-file) through the in-process CLI against the sandbox:
// journal and resume, deterministic keys without the journal, pacing through a small write
// limit on the sandbox's clock, failures and the summary.
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { JPEG_HEAD, START, allPosts, cliEnv, manualSandbox, postTotal, sandboxClock, type ManualSandbox } from './posts-support.js';

const dir = mkdtempSync(join(tmpdir(), 'posts-bulk-'));
const opened: ManualSandbox[] = [];
afterEach(async () => {
  for (const sb of opened.splice(0)) await sb.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function sandbox(options: Parameters<typeof manualSandbox>[0] = {}) {
  const sb = await manualSandbox(options);
  opened.push(sb);
  return sb;
}
const iso = (daysAhead: number, minutes = 0) => new Date(START + daysAhead * 86_400_000 + minutes * 60_000).toISOString();
const schedules = (sb: ManualSandbox) => sb.requests.filter((q) => q.method === 'POST' && q.path === '/v1/schedule').length;

describe('bulk schedule', () => {
  it('a ";"-separated CSV (a European spreadsheet) is read by its header, not as one column', async () => {
    const sb = await sandbox();
    const csv = join(dir, 'semicolons.csv');
    writeFileSync(csv, `\ufeffat;platforms;text\r\n${iso(1)};bluesky|linkedin;"Bonjour; à demain, il fera 9,5 °C"\r\n${iso(2)};threads;Deuxième\r\n`);
    const r = await runCli(['posts', 'schedule', '--from-file', csv], { env: cliEnv(sb), clock: sandboxClock(sb.clock), configDir: tempConfigDir().dir });
    expect(r.code, r.stderr).toBe(0);
    const posts = await allPosts(sb, 'scheduled');
    expect(posts).toHaveLength(2);
    expect(posts.map((p) => Object.keys(p.payloads).sort().join(',')).sort()).toEqual(['bluesky,linkedin', 'threads']);
    expect(posts.some((p) => (p.payloads.linkedin as { text?: string } | undefined)?.text === 'Bonjour; à demain, il fera 9,5 °C')).toBe(true);
  });

  it('schedules a CSV with media, resumes from the journal, and replays by key without it', async () => {
    const sb = await sandbox();
    writeFileSync(join(dir, 'photo.jpg'), JPEG_HEAD);
    truncateSync(join(dir, 'photo.jpg'), 4096);
    const lines = ['at,platforms,text,media,title'];
    for (let i = 0; i < 30; i++) {
      const media = i % 5 === 0 ? 'photo.jpg' : '';
      const platforms = i % 5 === 0 ? 'instagram|bluesky' : 'twitter-x;threads';
      lines.push(`${iso(1, i * 10)},${platforms},"Post ${i}, with a comma\nand a second line",${media},Campaign`);
    }
    const csv = join(dir, 'campaign.csv');
    writeFileSync(csv, lines.join('\n') + '\n');
    const config = tempConfigDir();
    const run = () => runCli(['posts', 'schedule', '--from-file', csv], { env: cliEnv(sb), clock: sandboxClock(sb.clock), configDir: config.dir });

    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    const rows = first.stdout.trim().split('\n').map((l) => l.split('\t'));
    expect(rows).toHaveLength(30);
    expect(rows.every((r) => r[2] === 'created' && r[4] === 'scheduled')).toBe(true);
    expect(rows[0]!.slice(0, 2)).toEqual(['1', '2']);
    expect(rows[1]![1]).toBe('4'); // the quoted line break moves the next row's line
    expect(first.stderr).toMatch(/30 rows in .*campaign\.csv: 30 created, 0 already done, 0 failed/);
    expect(await postTotal(sb, 'scheduled')).toBe(30);
    const posts = await allPosts(sb, 'scheduled');
    const withMedia = posts.filter((p) => 'instagram' in p.payloads);
    expect(withMedia).toHaveLength(6);
    for (const p of withMedia) expect((p.payloads.instagram as { media: Array<{ url: string }> }).media[0]!.url.startsWith(sb.url)).toBe(true);
    expect(posts.find((p) => (p.payloads['twitter-x'] as { text?: string } | undefined)?.text === 'Post 1, with a comma\nand a second line')).toBeDefined();

    // Again: the journal says every row is done, nothing is sent.
    const sent = schedules(sb);
    const again = await run();
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/resuming: 30 of 30 rows were done by an earlier run/);
    expect(again.stderr).toMatch(/0 created, 30 already done/);
    expect(schedules(sb)).toBe(sent);

    // Without this file's journal, the profile's index of rows done (by key) still spares the sends.
    rmSync(join(config.dir, 'journals'), { recursive: true, force: true });
    const byIndex = await run();
    expect(byIndex.code, byIndex.stderr).toBe(0);
    expect(byIndex.stderr).toMatch(/0 created, 30 already done/);
    expect(schedules(sb)).toBe(sent);
    // Without any record: every row is sent again with the same derived key and replayed.
    rmSync(join(config.dir, 'journals'), { recursive: true, force: true });
    rmSync(join(config.dir, 'bulk-done'), { recursive: true, force: true });
    const noJournal = await run();
    expect(noJournal.code, noJournal.stderr).toBe(0);
    expect(schedules(sb)).toBe(sent + 30);
    expect(noJournal.stderr).toMatch(/0 created, 30 already done, 0 failed/);
    expect(await postTotal(sb, 'scheduled')).toBe(30);
    // --no-resume also goes through every row, and still creates nothing.
    const fresh = await runCli(['posts', 'schedule', '--from-file', csv, '--no-resume', '--json'], { env: cliEnv(sb), clock: sandboxClock(sb.clock), configDir: config.dir });
    expect(JSON.parse(fresh.stdout)).toMatchObject({ total: 30, created: 0, alreadyDone: 30, failed: 0 });
    expect(await postTotal(sb)).toBe(30);
    config.cleanup();
  });

  it('paces itself through a small write limit, waiting on the sandbox clock', async () => {
    const sb = await sandbox({ writeLimit: 10 });
    const file = join(dir, 'paced.ndjson');
    writeFileSync(file, Array.from({ length: 25 }, (_, i) => JSON.stringify({ payloads: { bluesky: { text: `Paced ${i}` } }, scheduledAt: iso(3, i) })).join('\n'));
    const slept: number[] = [];
    const config = tempConfigDir();
    const env = cliEnv(sb);

    // With --max-wait 1m the run stops at the limit, says when to retry, exits 5.
    const short = await runCli(['--max-wait', '1m', 'posts', 'schedule', '--from-file', file], { env, clock: sandboxClock(sb.clock, slept), configDir: config.dir });
    expect(short.code, short.stderr).toBe(5);
    expect(short.stderr).toMatch(/10 created, 0 already done, 0 failed, 15 not attempted/);
    expect(short.stderr).toMatch(/run the same command again to resume/);
    expect(short.stderr).toMatch(/retry after/);

    // Without it, the run resumes and waits as long as the limit asks.
    const full = await runCli(['posts', 'schedule', '--from-file', file], { env, clock: sandboxClock(sb.clock, slept), configDir: config.dir });
    expect(full.code, full.stderr).toBe(0);
    expect(full.stderr).toMatch(/resuming: 10 of 25 rows/);
    expect(full.stderr).toMatch(/waiting until \d\d:\d\d/);
    expect(full.stderr).toMatch(/15 created, 10 already done, 0 failed/);
    expect(slept.some((ms) => ms >= 60_000)).toBe(true);
    expect(await postTotal(sb, 'scheduled')).toBe(25);
    // No row was refused for want of pacing.
    expect(sb.requests.filter((q) => q.status === 429).length).toBeLessThanOrEqual(2);
    config.cleanup();
  });

  it('reports failed rows with reasons, exits 7, and retries only them on the next run', async () => {
    const sb = await sandbox();
    const file = join(dir, 'mixed.ndjson');
    writeFileSync(
      file,
      [
        JSON.stringify({ payloads: { threads: { text: 'good 1' } }, scheduledAt: iso(2) }),
        JSON.stringify({ postId: 'post_doesnotexist', scheduledAt: iso(2) }),
        JSON.stringify({ payloads: { threads: { text: 'good 2' } }, scheduledAt: iso(2, 5) }),
      ].join('\n'),
    );
    const config = tempConfigDir();
    const run = (...extra: string[]) => runCli(['posts', 'schedule', '--from-file', file, ...extra], { env: cliEnv(sb), clock: sandboxClock(sb.clock), configDir: config.dir });
    const first = await run('--json');
    expect(first.code).toBe(7);
    const report = JSON.parse(first.stdout);
    expect(report).toMatchObject({ total: 3, created: 2, alreadyDone: 0, failed: 1 });
    expect(report.rows[1]).toMatchObject({ row: 2, line: 2, outcome: 'failed', error: { code: 'NOT_FOUND' } });
    expect(report.rows[1].error.requestId).toMatch(/^req_\w+$/);
    expect(first.stderr).toMatch(/failed: row 2 \(line 2\): NOT_FOUND/);
    // A 404 comes back on every re-run as the row stands: the summary says to fix it, not only to re-run.
    expect(first.stderr).toContain('  the service refused that row as written: fix it in the file, then run the same command again (done rows are skipped)\n');
    expect(first.stderr).not.toContain('run the same command again to retry the failed rows');
    const sent = schedules(sb);
    const second = await run();
    expect(second.code).toBe(7);
    expect(schedules(sb)).toBe(sent + 1);
    expect(second.stderr).toMatch(/0 created, 2 already done, 1 failed/);
    expect(await postTotal(sb)).toBe(2);
    config.cleanup();
  });

  it('a file of many bad rows: the first 50 problems on stderr and how many more, with the command that lists them all (it does); --json keeps them all', async () => {
    const sb = await sandbox();
    const file = join(dir, 'many-bad.csv');
    writeFileSync(file, ['at,platforms,text', ...Array.from({ length: 130 }, (_, i) => `${iso(1, i)},blusky,row ${i}`)].join('\n') + '\n');
    const run = (argv: string[]) => runCli(argv, { env: cliEnv(sb), clock: sandboxClock(sb.clock), configDir: tempConfigDir().dir });
    const r = await run(['posts', 'schedule', '--from-file', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('130 of 130 rows in');
    expect(r.stderr.match(/^ {2}- line \d+: platforms/gm)).toHaveLength(50);
    expect(r.stderr).toContain('line 51: platforms');
    expect(r.stderr).not.toContain('line 52: platforms');
    expect(r.stderr).toContain(`  … and 80 more problems: \`socialpub posts check --from-file ${file} -o tsv\` lists them all`);
    const listed = await run(['posts', 'check', '--from-file', file, '-o', 'tsv']);
    expect(listed.stdout.trimEnd().split('\n').filter((l) => l.includes('\tfail\t') && l.includes('is not a platform id'))).toHaveLength(130);
    const json = await run(['posts', 'schedule', '--from-file', file, '--json']);
    expect(json.code).toBe(2);
    const error = JSON.parse(json.stderr.trimEnd().split('\n').at(-1)!).error;
    expect(error.message.match(/- line \d+: platforms/g)).toHaveLength(130);
    expect(schedules(sb)).toBe(0);
  });

  it('--skip-invalid schedules the good rows, lists the bad ones, exits 7; -q prints ids', async () => {
    const sb = await sandbox();
    const file = join(dir, 'skip.csv');
    writeFileSync(file, `at,platforms,text\n${iso(1)},bluesky,fine\n${iso(1)},blusky,typo\n${iso(1, 1)},linkedin,also fine\n`);
    const r = await runCli(['posts', 'schedule', '--from-file', file, '--skip-invalid', '-q'], { env: cliEnv(sb), clock: sandboxClock(sb.clock), configDir: tempConfigDir().dir });
    expect(r.code).toBe(7);
    const ids = r.stdout.trim().split('\n');
    expect(ids).toHaveLength(2);
    expect(new Set((await allPosts(sb)).map((p) => p.id))).toEqual(new Set(ids));
    expect(r.stderr).toMatch(/invalid: row 2 \(line 3\): INVALID_INPUT: line 3: platforms: "blusky" is not a platform id/);
  });

  it('under GITHUB_ACTIONS=true a run with bad rows (exit 7) leaves one ::error:: annotation with the summary', async () => {
    const sb = await sandbox();
    const file = join(dir, 'annotate.csv');
    writeFileSync(file, `at,platforms,text\n${iso(1)},bluesky,fine\n${iso(1)},blusky,typo\n`);
    const run = (env: Record<string, string>) => runCli(['posts', 'schedule', '--from-file', file, '--skip-invalid'], { env, clock: sandboxClock(sb.clock), configDir: tempConfigDir().dir });
    const r = await run({ ...cliEnv(sb), GITHUB_ACTIONS: 'true' });
    expect(r.code).toBe(7);
    const annotations = r.stderr.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations).toEqual([
      `::error title=socialpub posts schedule --from-file%3A rows failed::2 rows in ${file}: 1 created, 0 already done, 0 failed, 1 invalid (skipped)%0A  invalid: row 2 (line 3): INVALID_INPUT: line 3: platforms: "blusky" is not a platform id`,
    ]);
    const clean = await run(cliEnv(sb));
    expect(clean.code).toBe(7);
    expect(clean.stderr).not.toContain('::error');
  });

  it('a row without text is named by its line, in the refusal, the dry run and posts check', async () => {
    const sb = await sandbox();
    const file = join(dir, 'no-text.csv');
    writeFileSync(file, `at,platforms,text\n${iso(1)},bluesky,fine\n${iso(1, 1)},linkedin,\n`);
    const env = cliEnv(sb);
    const refused = await runCli(['posts', 'schedule', '--from-file', file], { env, clock: sandboxClock(sb.clock), configDir: tempConfigDir().dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('- line 3: text for linkedin is missing');
    const dry = await runCli(['posts', 'schedule', '--from-file', file, '--skip-invalid', '--dry-run'], { env, clock: sandboxClock(sb.clock), configDir: tempConfigDir().dir });
    expect(dry.stdout).toContain('#   - line 3: text for linkedin is missing');
    const check = await runCli(['posts', 'check', '--from-file', file], { env, clock: sandboxClock(sb.clock), configDir: tempConfigDir().dir });
    expect(check.code).toBe(2);
    expect(check.stdout + check.stderr).toContain('line 3: text for linkedin is missing');
    expect(schedules(sb)).toBe(0);
  });

  it('a config folder that cannot be written: the run goes on without a journal, says so, and a re-run creates nothing twice', async () => {
    const sb = await sandbox();
    const file = join(dir, 'no-journal.csv');
    writeFileSync(file, `at,platforms,text\n${iso(3)},bluesky,one\n${iso(3, 1)},linkedin,two\n`);
    // A path under a plain file: no folder can be made there (as in a read-only home).
    const blocker = join(dir, 'not-a-folder');
    writeFileSync(blocker, '');
    const run = () => runCli(['posts', 'schedule', '--from-file', file, '--json'], { env: cliEnv(sb), clock: sandboxClock(sb.clock), configDir: join(blocker, 'config') });
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/warning: cannot keep the bulk journal .*: .*; going on without it: a re-run sends every row again, and the service replays the rows already done/);
    expect(JSON.parse(first.stdout)).toMatchObject({ journal: null, created: 2 });
    const again = await run();
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, alreadyDone: 2 });
    expect(await postTotal(sb)).toBe(2);
  });

  it('shows a table on a terminal', async () => {
    const sb = await sandbox();
    const file = join(dir, 'tty.ndjson');
    writeFileSync(file, JSON.stringify({ payloads: { bluesky: { text: 'tty' } }, scheduledAt: iso(1) }) + '\n');
    const r = await runCli(['posts', 'schedule', '--from-file', file, '--tz', 'Europe/Paris'], { env: cliEnv(sb), clock: sandboxClock(sb.clock), configDir: tempConfigDir().dir, tty: true });
    expect(r.code, r.stderr).toBe(0);
    const plain = r.stdout.replace(/\u001b\[\d+m/g, '');
    expect(plain).toMatch(/ROW\s+LINE\s+OUTCOME\s+ID\s+STATUS\s+SCHEDULED/);
    expect(plain).toMatch(/1\s+1\s+created\s+\S+\s+scheduled\s+2026-12-02 10:00 CET/);
  });

  it('a run that stops early prints no complete --json object, and a re-run prints the whole one', async () => {
    const sb = await sandbox({ writeLimit: 3 });
    const file = join(dir, 'stopped-json.ndjson');
    writeFileSync(file, Array.from({ length: 5 }, (_, i) => JSON.stringify({ payloads: { bluesky: { text: `Stopped ${i}` } }, scheduledAt: iso(3, i) })).join('\n'));
    const config = tempConfigDir();
    const short = await runCli(['--max-wait', '1m', 'posts', 'schedule', '--from-file', file, '--json'], { env: cliEnv(sb), clock: sandboxClock(sb.clock), configDir: config.dir });
    expect(short.code, short.stderr).toBe(5);
    expect(short.stderr).toMatch(/3 created, 0 already done, 0 failed, 2 not attempted/);
    expect(() => JSON.parse(short.stdout)).toThrow();
    const full = await runCli(['posts', 'schedule', '--from-file', file, '--json'], { env: cliEnv(sb), clock: sandboxClock(sb.clock), configDir: config.dir });
    expect(full.code, full.stderr).toBe(0);
    expect(JSON.parse(full.stdout)).toMatchObject({ total: 5, created: 2, alreadyDone: 3, notAttempted: 0 });
    config.cleanup();
  });

  it('--jq runs over the object --json prints: the counts and the rows', async () => {
    const sb = await sandbox();
    const file = join(dir, 'jq.ndjson');
    writeFileSync(file, Array.from({ length: 3 }, (_, i) => JSON.stringify({ payloads: { bluesky: { text: `Jq ${i}` } }, scheduledAt: iso(3, i) })).join('\n'));
    const config = tempConfigDir();
    const r = await runCli(['posts', 'schedule', '--from-file', file, '--jq', '[.created, (.rows | length), .rows[0].outcome] | @tsv'], { env: cliEnv(sb), clock: sandboxClock(sb.clock), configDir: config.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('3\t3\tcreated\n');
    config.cleanup();
  });

  /** Ctrl-C arrives while the run waits for the rate limit window (its first sleep). */
  const ctrlCAtFirstWait = (sb: { clock: { now(): number } }) => {
    const controller = new AbortController();
    const clock = {
      now: () => sb.clock.now(),
      sleep: async (_ms: number, signal?: AbortSignal) => {
        controller.abort();
        throw Object.assign(new Error('interrupted'), { name: 'AbortError', signal });
      },
    };
    return { controller, clock };
  };

  it('Ctrl-C on a terminal: the rows done, then what was not (named, not printed row by row), the wait it stopped in, and the command that resumes', async () => {
    const sb = await sandbox({ writeLimit: 3 });
    const file = join(dir, 'interrupt-tty.ndjson');
    writeFileSync(file, Array.from({ length: 8 }, (_, i) => JSON.stringify({ payloads: { bluesky: { text: `Interrupted on a terminal ${i}` } }, scheduledAt: iso(2, i) })).join('\n'));
    const config = tempConfigDir();
    const { controller, clock } = ctrlCAtFirstWait(sb);
    const r = await runCli(['posts', 'schedule', '--from-file', file, '--tz', 'Europe/Paris'], { env: { ...cliEnv(sb), NO_COLOR: '1' }, clock, configDir: config.dir, signal: controller.signal, tty: true, columns: 200 });
    expect(r.code).toBe(130);
    expect(r.stdout).not.toContain('not-attempted');
    expect(r.stdout.match(/\bcreated\b/g)).toHaveLength(3);
    expect(r.stderr).toMatch(/stopped at 3\/8 · waiting until \d\d:\d\d/);
    expect(r.stderr).toMatch(/8 rows in .*: 3 created, 0 already done, 0 failed, 5 not attempted\n {2}not attempted: rows 4–8\n/);
    // On a terminal the command goes whole to a line of its own.
    expect(r.stderr.replace(/\s+/g, ' ')).toContain(`interrupted: run the same command again to resume (rows done so far are skipped): socialpub posts schedule --from-file ${file} --tz Europe/Paris`);
    config.cleanup();
  });

  it('stops on Ctrl-C during a wait (exit 130), keeps what was done, and resumes', async () => {
    const sb = await sandbox({ writeLimit: 3 });
    const file = join(dir, 'interrupt.ndjson');
    writeFileSync(file, Array.from({ length: 6 }, (_, i) => JSON.stringify({ payloads: { bluesky: { text: `Interrupted ${i}` } }, scheduledAt: iso(2, i) })).join('\n'));
    const config = tempConfigDir();
    const { controller, clock } = ctrlCAtFirstWait(sb);
    const r = await runCli(['posts', 'schedule', '--from-file', file], { env: cliEnv(sb), clock, configDir: config.dir, signal: controller.signal });
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/3 created, 0 already done, 0 failed, 3 not attempted/);
    expect(r.stderr).toMatch(/interrupted/);
    await sb.clock.advance(3_600_000);
    const resumed = await runCli(['posts', 'schedule', '--from-file', file], { env: cliEnv(sb), clock: sandboxClock(sb.clock), configDir: config.dir });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/3 created, 3 already done, 0 failed/);
    expect(await postTotal(sb)).toBe(6);
    config.cleanup();
  });
});
