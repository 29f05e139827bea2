// --fields on the results commands, in-process against the sandbox over HTTP: checked before any
// request (with a suggestion), paths inside error.context, results get's human view, table columns
// asked for by name never dropped, and the time column kept at 80 columns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { allResults, cliEnv, keyOf, sandboxFor, type Sandbox } from './results-support.js';

const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '').replace(/\u001b\]8;;[^\u0007\u001b]*(\u0007|\u001b\\)/g, '');

describe('--fields on results', () => {
  let sb: Sandbox;
  let empty: Sandbox;
  beforeAll(async () => {
    sb = await sandboxFor({ fixtures: 200, failureRate: 0.5, seed: 23 });
    empty = await sandboxFor({ fixtures: 0 });
  });
  afterAll(async () => {
    await sb?.close();
    await empty?.close();
  });

  it('an unknown field is exit 2 before any request, even where the list would be empty, with "did you mean"', async () => {
    for (const argv of [
      ['results', 'list', '--fields', 'id,stauts_x'],
      ['results', 'list', '--fields', 'id,platfrom', '--json'],
      ['results', 'get', 'res_x', '--fields', 'platfrom'],
    ]) {
      const before = empty.requests.length;
      const r = await runCli(argv, { env: cliEnv(empty) });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(empty.requests.length).toBe(before);
    }
    const near = await runCli(['results', 'list', '--fields', 'id,platfrom', '--json'], { env: cliEnv(empty) });
    expect(near.stderr).toContain('did you mean "platform"?');
    const json = near.stderr.split('\n').find((l) => l.startsWith('{'));
    expect((JSON.parse(json!) as { error: { code: string } }).error.code).toBe('USAGE');
  });

  it('error.context.* paths are selectable, even when the first row is a success', async () => {
    const rows = await allResults(sb, keyOf(sb, 'demo'));
    expect(rows[0]!.success || rows.some((r) => r.success)).toBe(true);
    const r = await runCli(['results', 'list', '--all', '-o', 'ndjson', '--fields', 'id,error.context.provider'], { env: cliEnv(sb) });
    expect(r.code, r.stderr).toBe(0);
    const got = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: string; error: { context: { provider: unknown } } });
    expect(got).toHaveLength(rows.length);
    const byId = new Map(rows.map((x) => [x.id, x]));
    for (const g of got) expect(g.error.context.provider).toBe((byId.get(g.id)!.error?.context as { provider?: string } | undefined)?.provider ?? null);
    expect(got.some((g) => typeof g.error.context.provider === 'string')).toBe(true);
    const tsv = await runCli(['results', 'list', '--failed', '--limit', '3', '--fields', 'id,error.context.provider'], { env: cliEnv(sb) });
    expect(tsv.code, tsv.stderr).toBe(0);
    for (const line of tsv.stdout.trim().split('\n')) expect(line).toMatch(/^res_\S+\t\S+$/);
  });

  it('results get --fields shapes the human view: those fields only, in order', async () => {
    const row = (await allResults(sb, keyOf(sb, 'demo'))).find((r) => !r.success)!;
    const r = await runCli(['results', 'get', row.id, '--fields', 'error.code,platform'], { env: cliEnv(sb), tty: true });
    expect(r.code, r.stderr).toBe(0);
    const lines = plain(r.stdout).trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^\\s*error\\.code\\s+${row.error!.code}$`));
    expect(lines[1]).toMatch(new RegExp(`^\\s*platform\\s+${row.platform}$`));
  });

  it('a table keeps every column asked for by name at 80 columns (cut, not dropped)', async () => {
    const r = await runCli(['results', 'list', '--limit', '5', '--fields', 'id,post_id,platform_data.username,created_at,outcome'], { env: cliEnv(sb), tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    const header = plain(r.stdout).split('\n')[0]!;
    for (const h of ['ID', 'POST', 'ACCOUNT', 'WHEN', 'URL / ERROR']) expect(header).toContain(h);
  });

  it('a column that cannot be shown at all is named on stderr, not dropped silently', async () => {
    const r = await runCli(['results', 'list', '--limit', '3', '--fields', 'id,post_id,platform,created_at,outcome,platform_data.username'], { env: cliEnv(sb), tty: true, columns: 40 });
    expect(r.code, r.stderr).toBe(0);
    // The warning wraps between words at the terminal's width.
    const warning = /--fields: no room for ([\w_., ]+?) in 40 columns/.exec(plain(r.stderr).replace(/\s+/g, ' '));
    expect(warning, r.stderr).not.toBeNull();
    const header = plain(r.stdout).split('\n')[0]!;
    for (const lost of warning![1]!.split(', ')) expect(header).not.toContain(lost === 'created_at' ? 'WHEN' : lost.toUpperCase());
    const wide = await runCli(['results', 'list', '--limit', '3', '--fields', 'id,platform'], { env: cliEnv(sb), tty: true, columns: 40 });
    expect(wide.stderr).not.toContain('no room');
  });

  it('at 80 columns results list keeps the time column', async () => {
    const r = await runCli(['results', 'list', '--limit', '5'], { env: cliEnv(sb), tty: true, columns: 80 });
    const out = plain(r.stdout).split('\n');
    expect(out[0]).toContain('WHEN');
    expect(out[1]).toMatch(/ago|just now|in /);
    for (const line of out) expect(line.length).toBeLessThanOrEqual(80);
  });
});
