// What a CI log and a job's summary page get: a progress line every 30 s of a run without a
// terminal, a Markdown summary in $GITHUB_STEP_SUMMARY, and after the idempotency window a re-run
// that says the post was probably made already (instead of inviting a new --at, which would post twice).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { testSandbox, cliEnv, type TestSandbox } from '../helpers/sandbox.js';
import { advancingClock } from '../helpers/advancing-clock.js';
import { keyOf, schedulePost } from './results-support.js';

let sb: TestSandbox | undefined;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'socialpub-ci-'));
});
afterEach(async () => {
  await sb?.close();
  sb = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe('without a terminal', () => {
  it('a results wait of minutes prints a progress line every 30 s of its clock, with what it last saw', async () => {
    sb = await testSandbox({ failureRate: 0 });
    const post = await schedulePost(sb, keyOf(sb, 'demo'), ['bluesky', 'linkedin'], 3 * 60_000);
    const r = await runCli(['results', 'wait', '--post', post.id], { env: cliEnv(sb), clock: advancingClock(sb.clock) });
    expect(r.code, r.stderr).toBe(0);
    const beats = r.stderr.split('\n').filter((l) => l.startsWith('socialpub results wait: still running after'));
    // About 3 minutes of waiting: a line per 30 s, no more.
    expect(beats.length).toBeGreaterThanOrEqual(5);
    expect(beats.length).toBeLessThanOrEqual(7);
    expect(beats[0]).toMatch(/^socialpub results wait: still running after [34]\ds · 0 of 2 platforms reported$/);
  });
});

describe('$GITHUB_STEP_SUMMARY', () => {
  it('results wait appends a Markdown table of every target; service text is escaped, never markup', async () => {
    sb = await testSandbox({ failureRate: 1 });
    const post = await schedulePost(sb, keyOf(sb, 'demo'), ['bluesky', 'threads'], 60_000);
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '# earlier step\n');
    const r = await runCli(['results', 'wait', '--post', post.id], { env: cliEnv(sb, 'demo', { GITHUB_STEP_SUMMARY: summary, GITHUB_ACTIONS: 'true' }), clock: advancingClock(sb.clock) });
    expect(r.code).toBe(7);
    const md = readFileSync(summary, 'utf8');
    expect(md.startsWith('# earlier step\n')).toBe(true);
    expect(md).toContain('### socialpub results wait: 2 of 2 platforms reported, 2 failed');
    expect(md).toContain('| post | platform | account | outcome | link or error |');
    expect(md).toMatch(new RegExp(`\\| ${post.id} \\| bluesky \\| @\\S+ \\| ❌ failed \\| [A-Z_]+: `));
    expect(md).toMatch(new RegExp(`\\| ${post.id} \\| threads \\| @\\S+ \\| ❌ failed \\| `));
  });

  it('a platform published to two accounts has a row per account, each naming its handle', async () => {
    sb = await testSandbox({ failureRate: 1 });
    const at = new Date(sb.clock.now() + 60_000).toISOString();
    const made = await runCli(['posts', 'schedule', '--platform', 'linkedin', '--account', 'linkedin:@socialpub-demo', '--account', 'linkedin:@socialpub-demo-careers', '--text', 'Two pages', '--at', at, '-q'], { env: cliEnv(sb), clock: advancingClock(sb.clock) });
    expect(made.code, made.stderr).toBe(0);
    const summary = join(dir, 'summary.md');
    const r = await runCli(['results', 'wait', '--post', made.stdout.trim()], { env: cliEnv(sb, 'demo', { GITHUB_STEP_SUMMARY: summary }), clock: advancingClock(sb.clock) });
    expect(r.code).toBe(7);
    const md = readFileSync(summary, 'utf8');
    expect(md).toContain('| post | platform | account | outcome | link or error |');
    expect(md).toMatch(/\| linkedin \| @socialpub-demo \| ❌ failed \|/);
    expect(md).toMatch(/\| linkedin \| @socialpub-demo-careers \| ❌ failed \|/);
  });

  it('a bulk run appends its summary', async () => {
    sb = await testSandbox({ failureRate: 0 });
    const summary = join(dir, 'summary.md');
    const file = join(dir, 'posts.csv');
    writeFileSync(file, 'at,platforms,text\n2026-12-02T09:00:00Z,bluesky,hello\n2026-12-02T10:00:00Z,blusky,typo\n');
    const r = await runCli(['posts', 'schedule', '--from-file', file, '--skip-invalid'], { env: cliEnv(sb, 'demo', { GITHUB_STEP_SUMMARY: summary }), clock: advancingClock(sb.clock) });
    expect(r.code, r.stderr).toBe(7);
    const md = readFileSync(summary, 'utf8');
    expect(md).toContain('### socialpub posts schedule --from-file');
    expect(md).toContain('- 2 rows in ');
    expect(md).toMatch(/- invalid: row 2 \(line 3\)/);
  });
});

describe('a re-run after the idempotency window', () => {
  it('a 422 "in the past" with --idempotency-key says the first run probably posted it, and how to find it', async () => {
    sb = await testSandbox({ failureRate: 0 });
    const at = new Date(sb.clock.now() + 3600_000).toISOString();
    const args = ['posts', 'schedule', '--platform', 'bluesky', '--text', 'v1.4 is out', '--title', 'Release v1.4', '--at', at, '--idempotency-key', 'release-v1.4'];
    const first = await runCli(args, { env: cliEnv(sb), clock: advancingClock(sb.clock) });
    expect(first.code, first.stderr).toBe(0);
    await sb.clock.advance(25 * 3600_000);
    const again = await runCli(args, { env: cliEnv(sb), clock: advancingClock(sb.clock) });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('hint: this request carries --idempotency-key release-v1.4: the post was probably created by the first run with it');
    expect(again.stderr).toContain('do not give a new --at, that would post it twice');
    expect(again.stderr).toContain('find it: socialpub posts list --status published,scheduled,failed or by its title:');
    expect(again.stderr).toContain('select(.title == "Release v1.4")');
  });
});
