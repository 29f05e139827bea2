// Support at a glance: `posts view` shows each failed target's message and the provider's context
// (not only the code), and a scheduled post still without results 5 minutes after its time is
// shown as overdue in `posts list`, `posts queue` and `posts view`.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { testSandbox, cliEnv, type TestSandbox } from '../helpers/sandbox.js';
import { advancingClock } from '../helpers/advancing-clock.js';
import { allResults, keyOf, schedulePost } from './results-support.js';
import type { Clock } from '../../src/cli/context.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

/** The CLI's clock ahead of the sandbox's, which stands still: a post due in between never goes out. */
const ahead = (s: TestSandbox, ms: number): Clock => ({ now: () => s.clock.now() + ms, sleep: async () => {} });
const plain = (t: string) => t.replace(/\u001b\[[0-9;]*m/g, '');

describe('overdue', () => {
  it('a scheduled post 18 min past its time: overdue in posts list (table), posts view and posts queue; not in TSV data', async () => {
    sb = await testSandbox({ failureRate: 0 });
    const post = await schedulePost(sb, keyOf(sb, 'demo'), ['bluesky'], 2 * 60_000);
    const clock = ahead(sb, 20 * 60_000);
    const list = await runCli(['posts', 'list'], { env: cliEnv(sb), clock, tty: true, columns: 160 });
    expect(list.code, list.stderr).toBe(0);
    expect(plain(list.stdout)).toContain('scheduled · overdue by 18 min');
    const tsv = await runCli(['posts', 'list'], { env: cliEnv(sb), clock });
    expect(tsv.stdout.split('\t')[1]).toBe('scheduled');
    const view = await runCli(['posts', 'view', post.id], { env: cliEnv(sb), clock });
    expect(view.stdout.split('\n')[0]).toContain('scheduled · overdue by 18 min');
    const queue = await runCli(['posts', 'queue'], { env: cliEnv(sb), clock });
    expect(queue.code, queue.stderr).toBe(0);
    expect(queue.stderr).toContain(`overdue: ${post.id} is still scheduled 18 min after its time, without results; look at it: socialpub posts view ${post.id}`);
  });

  it('4 minutes past its time is not overdue yet', async () => {
    sb = await testSandbox({ failureRate: 0 });
    const post = await schedulePost(sb, keyOf(sb, 'demo'), ['bluesky'], 60_000);
    const view = await runCli(['posts', 'view', post.id], { env: cliEnv(sb), clock: ahead(sb, 5 * 60_000) });
    expect(view.stdout).not.toContain('overdue');
  });
});

describe('posts view of a failed post', () => {
  it("shows each failed target's message and the provider's context", async () => {
    sb = await testSandbox({ failureRate: 1, seed: 3 });
    const post = await schedulePost(sb, keyOf(sb, 'demo'), ['bluesky', 'linkedin', 'threads', 'twitter-x'], 60_000);
    await sb.clock.advance(2 * 60_000);
    await sb.settle();
    const rows = (await allResults(sb, keyOf(sb, 'demo'))).filter((r) => r.post_id === post.id);
    const withContext = rows.find((r) => r.error?.context && Object.keys(r.error.context).length > 0);
    expect(withContext, 'a failure with provider context').toBeDefined();
    const view = await runCli(['posts', 'view', post.id], { env: cliEnv(sb), clock: advancingClock(sb.clock), columns: 400 });
    expect(view.code, view.stderr).toBe(0);
    for (const r of rows) expect(view.stdout).toContain(`${r.error!.code}: ${r.error!.message}`);
    expect(view.stdout).toContain(`context: ${JSON.stringify(withContext!.error!.context)}`);
  });
});
