// `results stats` as the CLI prints it, in-process against the sandbox over HTTP: two-way and
// per-day groupings, usernames beside account ids, the TSV header row, --fields checked before any
// request, and terminal tables where the group's name is never cut while the bar has room.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import type { PostResult } from '../../src/wire/schemas.js';
import { allResults, cliEnv, keyOf, sandboxFor, type Sandbox } from './results-support.js';

type Group = { key: string; total: number; succeeded: number; failed: number; platform?: string; code?: string; username?: string };
const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

describe('results stats on the command line', () => {
  let sb: Sandbox;
  let oracle: PostResult[];
  beforeAll(async () => {
    sb = await sandboxFor({ fixtures: 1_500, failureRate: 0.4, seed: 17 });
    oracle = await allResults(sb, keyOf(sb, 'demo'));
  });
  afterAll(async () => sb?.close());

  const json = async (args: string[]) => {
    const r = await runCli(['results', 'stats', '--json', ...args], { env: cliEnv(sb) });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { total: number; groups: Group[] };
  };

  it('--by platform,code: one group per pair, each naming both, counts as an independent tally', async () => {
    const s = await json(['--by', 'platform,code']);
    const want = new Map<string, number>();
    for (const r of oracle) {
      const key = `${r.platform},${r.success ? '(succeeded)' : r.error!.code}`;
      want.set(key, (want.get(key) ?? 0) + 1);
    }
    expect(s.total).toBe(oracle.length);
    expect(new Map(s.groups.map((g) => [g.key, g.total]))).toEqual(want);
    for (const g of s.groups) expect(`${g.platform},${g.code}`).toBe(g.key);
  });

  it('--by day counts days in --tz, in time order', async () => {
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland', year: 'numeric', month: '2-digit', day: '2-digit' });
    const want = new Map<string, number>();
    for (const r of oracle) {
      const key = day.format(Date.parse(r.created_at!));
      want.set(key, (want.get(key) ?? 0) + 1);
    }
    const s = await json(['--by', 'day', '--tz', 'Pacific/Auckland']);
    expect(new Map(s.groups.map((g) => [g.key, g.total]))).toEqual(want);
    expect(s.groups.map((g) => g.key)).toEqual([...want.keys()].sort());
    const utc = await json(['--by', 'day', '--tz', 'UTC']);
    expect(new Map(utc.groups.map((g) => [g.key, g.total]))).not.toEqual(want);
  });

  it('--by account: the platform and username beside the id, in JSON, TSV and the table', async () => {
    const withName = oracle.find((r) => r.social_account_id && typeof r.platform_data?.username === 'string' && r.platform_data.username);
    expect(withName).toBeDefined();
    const id = withName!.social_account_id!;
    const name = withName!.platform_data!.username as string;
    const s = await json(['--by', 'account']);
    const platform = withName!.platform!;
    expect(s.groups.find((g) => g.key === id)?.username).toBe(name);
    expect(s.groups.find((g) => g.key === id)?.platform).toBe(platform);
    // One handle on several platforms stays several groups, each naming its platform.
    const same = s.groups.filter((g) => g.username === 'socialpub.demo');
    expect(new Set(same.map((g) => g.platform)).size).toBe(same.length);
    expect(same.length).toBeGreaterThan(1);
    const tsv = await runCli(['results', 'stats', '--by', 'account'], { env: cliEnv(sb) });
    const lines = tsv.stdout.trim().split('\n');
    expect(lines[0]).not.toMatch(/^key\t/);
    expect(lines.some((l) => l.startsWith(`${id}\t${platform}\t${name}\t`))).toBe(true);
    const table = await runCli(['results', 'stats', '--by', 'account'], { env: cliEnv(sb), tty: true, columns: 140 });
    expect(plain(table.stdout)).toMatch(new RegExp(`${id}\\s+${platform}\\s+@?${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+\\d+`));
  });

  it('a pseudo-terminal that reports 0 columns is of unknown width: the bars are still drawn', async () => {
    const r = await runCli(['results', 'stats'], { env: cliEnv(sb), tty: true, columns: 0 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/[█░]{4,}/);
  });

  it('TSV has no header row, as every list (one rule); CSV has one; by code, each row says its share of all failures', async () => {
    const r = await runCli(['results', 'stats', '--by', 'platform,code'], { env: cliEnv(sb) });
    const rows = r.stdout.trim().split('\n');
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) expect(row).toMatch(/^[a-z-]+\t(\(succeeded\)|[A-Z_]+)\t\d+\t\d+\t\d+\t[01]\.\d{4}$/);
    const csv = await runCli(['results', 'stats', '--by', 'platform,code', '-o', 'csv'], { env: cliEnv(sb) });
    expect(csv.stdout.split('\r\n')[0]).toBe('platform,code,total,succeeded,failed,failure_share');
    // The shares of the failures add up to the whole, not "100%" on every row.
    const shares = rows.map((l) => Number(l.split('\t')[5]));
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 2);
    expect(shares.every((x) => x < 1)).toBe(true);
    const picked = await runCli(['results', 'stats', '--fields', 'failed,key'], { env: cliEnv(sb) });
    expect(picked.stdout.split('\n')[0]).toMatch(/^\d+\t[a-z-]+$/);
  });

  it('--fields nope is exit 2 before any request (table, TSV and JSON), with a suggestion', async () => {
    const before = sb.requests.length;
    for (const extra of [[], ['--json'], ['-o', 'ndjson']]) {
      const r = await runCli(['results', 'stats', '--fields', 'nope', ...extra], { env: cliEnv(sb) });
      expect(r.code, extra.join(' ')).toBe(2);
      expect(r.stderr).toContain('nope');
    }
    const near = await runCli(['results', 'stats', '--fields', 'faild'], { env: cliEnv(sb) });
    expect(near.code).toBe(2);
    expect(near.stderr).toMatch(/did you mean "failed"\?/);
    expect(sb.requests.length).toBe(before);
  });

  it('at 60 columns no count header is cut: a whole column gives way instead', async () => {
    for (const by of ['code', 'platform,code', 'account']) {
      const r = await runCli(['results', 'stats', '--by', by, '--no-pager'], { env: cliEnv(sb), tty: true, columns: 60 });
      expect(r.code, r.stderr).toBe(0);
      const [header, ...rest] = plain(r.stdout).trimEnd().split('\n');
      expect(rest.length).toBeGreaterThan(0);
      expect(header).not.toContain('…');
      expect(header).toMatch(/\bTOTAL\b.*\bFAILED\b/);
      for (const line of [header!, ...rest]) expect(line.length).toBeLessThanOrEqual(60);
    }
  });

  it('the rows tied to no account are one group that names no platform or handle, and says so at 60 columns', async () => {
    const loose = oracle.filter((r) => !r.social_account_id);
    expect(new Set(loose.map((r) => r.platform)).size).toBeGreaterThan(1);
    const s = await json(['--by', 'account']);
    const none = s.groups.find((g) => g.key === '(no account)')!;
    expect(none).toMatchObject({ total: loose.length });
    expect(none.platform).toBeUndefined();
    expect(none.username).toBeUndefined();
    // The account id gives way at 60 columns: the row still says whose it is not.
    const r = await runCli(['results', 'stats', '--by', 'account', '--no-pager'], { env: cliEnv(sb), tty: true, columns: 60 });
    expect(plain(r.stdout)).not.toContain('acc_');
    expect(plain(r.stdout)).toMatch(new RegExp(`^\\s*\\(no account\\)\\s+${loose.length}\\s+${none.failed}\\b`, 'm'));
  });

  it('at 80 columns the error codes are whole, and a bar is still drawn', async () => {
    const r = await runCli(['results', 'stats', '--by', 'code'], { env: cliEnv(sb), tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    const out = plain(r.stdout);
    const codes = [...new Set(oracle.filter((x) => !x.success).map((x) => x.error!.code))];
    expect(codes.length).toBeGreaterThan(2);
    for (const code of codes) expect(out).toContain(code);
    expect(out).not.toContain('…');
    for (const line of out.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(out).toMatch(/[█░]/);
  });
});
