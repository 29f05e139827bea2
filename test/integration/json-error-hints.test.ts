// Under --json a failed command's error object on stderr carries `hints`: the same fixes the human
// lines give ("did you mean", what to run, the service's issues), [] when there are none; and the
// error objects written as data (auth status's, a bulk run's rows) carry them too. In-process CLI
// against the sandbox over HTTP.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type RunResult } from '../helpers/run-cli.js';
import { cliEnv, manualSandbox, sandboxClock, type ManualSandbox } from './posts-support.js';

interface JsonError {
  code: string;
  message: string;
  exitCode: number;
  hints: string[];
}

let sb: ManualSandbox;
const dir = mkdtempSync(join(tmpdir(), 'json-error-hints-'));
beforeAll(async () => {
  sb = await manualSandbox();
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (argv: string[], env: Record<string, string> = {}) => runCli(argv, { env: { ...cliEnv(sb), ...env }, clock: sandboxClock(sb.clock) });

/** The JSON error object (the last line of stderr), and the hint lines printed above it. */
function errorOf(r: RunResult): { error: JsonError; shown: string[] } {
  const lines = r.stderr.trim().split('\n');
  const error = (JSON.parse(lines.at(-1)!) as { error: JsonError }).error;
  const shown = lines.filter((l) => l.startsWith('  hint: ')).map((l) => l.slice('  hint: '.length));
  return { error, shown };
}

describe('--json errors carry the hints the human lines give', () => {
  it('a bad flag value: "did you mean" and the valid values', async () => {
    const r = await run(['posts', 'list', '--status', 'drat', '--json']);
    expect(r.code).toBe(2);
    const { error, shown } = errorOf(r);
    expect(error).toMatchObject({ code: 'UNKNOWN_STATUS', exitCode: 2 });
    expect(error.hints).toEqual(['did you mean "draft"?', 'statuses: draft, scheduled, published, failed']);
    expect(error.hints).toEqual(shown);
  });

  it('an unknown id: what lists the ids (exit 4); an account with the nearest handle', async () => {
    const post = errorOf(await run(['posts', 'view', 'post_doesNotExist', '--json']));
    expect(post.error).toMatchObject({ code: 'NOT_FOUND', exitCode: 4, hints: ['`socialpub posts list` lists the posts of this workspace'] });
    const account = errorOf(await run(['accounts', 'view', '@socialpub_dmeo', '--json']));
    expect(account.error.exitCode).toBe(4);
    expect(account.error.hints).toHaveLength(1);
    expect(account.error.hints[0]).toMatch(/^did you mean twitter-x:@socialpub_demo\? accounts: /);
  });

  it("the service's issues of a 422, and a refused key's fix", async () => {
    const long = errorOf(await run(['posts', 'create', '--platform', 'bluesky,twitter-x', '--text', 'x'.repeat(301), '--no-local-checks', '--json']));
    expect(long.error).toMatchObject({ code: 'VALIDATION_ERROR', exitCode: 2 });
    expect(long.error.hints).toEqual([expect.stringMatching(/^payloads\.bluesky\.text: /), expect.stringMatching(/^payloads\.twitter-x\.text: /)]);
    expect(long.error.hints).toEqual(long.shown);
    const key = errorOf(await run(['posts', 'list', '--json'], { SOCIALPUB_API_KEY: 'sk_sandbox_notAKeyAtAll0000000000000' }));
    expect(key.error).toMatchObject({ code: 'UNAUTHORIZED', exitCode: 3 });
    expect(key.error.hints.join('\n')).toContain('is a local sandbox');
    expect(key.error.hints).toEqual(key.shown);
  });

  it('an error without hints has hints: []', async () => {
    const r = await run(['results', 'get', 'res_doesNotExist', '--json']);
    expect(r.code).toBe(4);
    const { error, shown } = errorOf(r);
    expect(shown).toEqual([]);
    expect(error.hints).toEqual([]);
  });

  it("auth status --json: the refused key's error in the report carries the hints too", async () => {
    const r = await run(['auth', 'status', '--json'], { SOCIALPUB_API_KEY: 'sk_sandbox_notAKeyAtAll0000000000000' });
    expect(r.code).toBe(3);
    const report = JSON.parse(r.stdout) as { error: JsonError };
    expect(report.error.hints).toContain('the refused key comes from SOCIALPUB_API_KEY: set a valid one');
    expect(report.error.hints).toEqual(errorOf(r).error.hints);
  });

  it("a bulk run's invalid row names its fix in the row's error", async () => {
    const file = join(dir, 'rows.csv');
    writeFileSync(file, 'at,platforms,text\n2026-12-24T09:00:00Z,bluesky,ok\n2026-12-24T09:00:00Z,blusky,typo\n');
    const r = await run(['posts', 'schedule', '--from-file', file, '--skip-invalid', '--json']);
    expect(r.code).toBe(7);
    const rows = (JSON.parse(r.stdout) as { rows: Array<{ outcome: string; error: JsonError | null }> }).rows;
    expect(rows.map((x) => x.outcome)).toEqual(['created', 'invalid']);
    expect(rows[1]!.error).toMatchObject({ code: 'INVALID_INPUT', hints: [expect.stringContaining('did you mean "bluesky"')] });
  });
});
