// One support query must not lock CI out: a large read is weighed against the read limit the
// service reports before it spends it, --max-requests caps any command, and no run spends the
// read limit's last tenth unless told. Each test has its own sandbox (its own hourly window).
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { testSandbox, cliEnv, type TestSandbox } from '../helpers/sandbox.js';
import { api, keyOf } from './results-support.js';
import { ScriptedPrompter } from '../helpers/scripted-prompter.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

/** Reads the sandbox counted for the demo workspace so far, from a read's own headers. */
async function readsLeft(s: TestSandbox): Promise<number> {
  const res = await fetch(`${s.url}/v1/posts?limit=1`, { headers: { authorization: `Bearer ${keyOf(s, 'demo')}` } });
  await res.text();
  return Number(res.headers.get('ratelimit-remaining'));
}

describe('a large read', () => {
  it('stats over every result that would use more than half of what is left: not started, exit 5, with the cost and the ways to cut it', async () => {
    sb = await testSandbox({ fixtures: 5000, readLimit: 60 });
    const r = await runCli(['results', 'stats'], { env: cliEnv(sb) });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/error: counting every result needs about 49 more requests, more than half of the 53 the read limit has left for this workspace \(59 of 60, reset in 1 h, the last tenth kept for others\); not started/);
    expect(r.stderr).toContain('hint: --since DUR (e.g. --since 24h) reads only the recent pages');
    expect(r.stderr).toContain('hint: --spend-budget to read it all anyway, or --max-requests N to cap the cost');
    // One page was read to learn the total, and nothing more.
    expect(await readsLeft(sb)).toBe(58);
    const json = await runCli(['results', 'stats', '--json'], { env: cliEnv(sb) });
    expect(json.code).toBe(5);
    expect(JSON.parse(json.stderr.slice(json.stderr.indexOf('{'))).error.code).toBe('READ_BUDGET');
  });

  it('on a terminal it asks instead: yes reads every page, no stops as without one', async () => {
    sb = await testSandbox({ fixtures: 5000, readLimit: 60 });
    const no = new ScriptedPrompter([false]);
    const refused = await runCli(['results', 'stats', '--json'], { env: cliEnv(sb), tty: true, prompter: no });
    expect(refused.code).toBe(5);
    expect(no.asked).toEqual([expect.stringMatching(/^counting every result needs about 49 more requests, more than half of .*Read every page anyway\?$/)]);
    const yes = new ScriptedPrompter([true]);
    const read = await runCli(['results', 'stats', '--json'], { env: cliEnv(sb), tty: true, prompter: yes });
    expect(read.code, read.stderr).toBe(0);
    expect(yes.asked).toHaveLength(1);
    expect((JSON.parse(read.stdout) as { total: number }).total).toBe(5000);
  });

  it('--since narrows it enough; --spend-budget reads it all', async () => {
    sb = await testSandbox({ fixtures: 5000, readLimit: 70 });
    const narrow = await runCli(['results', 'stats', '--since', '1h'], { env: cliEnv(sb) });
    expect(narrow.code, narrow.stderr).toBe(0);
    const all = await runCli(['--spend-budget', 'results', 'stats', '--json'], { env: cliEnv(sb) });
    expect(all.code, all.stderr).toBe(0);
    expect((JSON.parse(all.stdout) as { total: number }).total).toBe(5000);
  });

  it('results list --all is weighed the same way; a --code that matches nothing stops after half of what was left', async () => {
    sb = await testSandbox({ fixtures: 5000, readLimit: 60 });
    const all = await runCli(['results', 'list', '--all', '-o', 'ndjson'], { env: cliEnv(sb) });
    expect(all.code).toBe(5);
    expect(all.stdout).toBe('');
    expect(all.stderr).toContain('listing every result needs about 49 more requests');
    const code = await runCli(['results', 'list', '--code', 'NO_SUCH_CODE', '--concurrency', '1'], { env: cliEnv(sb) });
    expect(code.code, code.stderr).toBe(5);
    expect(code.stderr).toMatch(/stopped after \d+ pages: listing every result filtered while paging has used half of the \d+ reads/);
    // Half of what was left is spent, not all of it: CI in the same workspace can still read.
    expect(await readsLeft(sb)).toBeGreaterThan(20);
  });
});

describe('--max-requests and the last tenth', () => {
  it('--max-requests N caps any command (exit 5 at N+1), and says so', async () => {
    sb = await testSandbox({ fixtures: 600 });
    const r = await runCli(['--max-requests', '2', 'results', 'list', '--limit', '500', '--concurrency', '1', '-o', 'ndjson'], { env: cliEnv(sb) });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('error: stopped at --max-requests 2: this run has sent 2 requests');
    expect(r.stdout.trim().split('\n')).toHaveLength(200);
    const big = await runCli(['--max-requests', '3', 'results', 'stats'], { env: cliEnv(sb) });
    expect(big.code).toBe(5);
    expect(big.stderr).toContain('counting every result needs about 5 more requests; --max-requests 3 allows 2 more');
  });

  it('reads leave the last tenth of the read limit to the rest of the workspace unless told', async () => {
    sb = await testSandbox({ fixtures: 300, readLimit: 20 });
    const key = keyOf(sb, 'demo');
    for (let i = 0; i < 17; i++) await api(sb, key, 'GET', '/v1/posts?limit=1');
    // The first page leaves 2 of 20: the second page would spend the last tenth.
    const r = await runCli(['results', 'list', '--limit', '150', '-o', 'ndjson', '--concurrency', '1'], { env: cliEnv(sb) });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/the read limit is down to its last tenth \(2 of 20 left, reset in [^)]+\): left to the rest of the workspace/);
    expect(r.stderr).toContain('--spend-budget (or --max-requests N) lets this run use it');
    const told = await runCli(['--spend-budget', 'results', 'list', '--limit', '150', '-o', 'ndjson'], { env: cliEnv(sb) });
    expect(told.code, told.stderr).toBe(0);
  });
});
