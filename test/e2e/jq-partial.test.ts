// `--json --jq` over a whole list when the filter fails partway: the built binary prints the
// values jq produced before the error, one per line (as jq does), then the error, exit 1.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, testSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { BIN, ensureBuilt } from './ensure-built.js';

let sb: TestSandbox;
beforeAll(async () => {
  await ensureBuilt();
  sb = await testSandbox({ fixtures: 40, failureRate: 0.5, seed: 3 });
}, 120_000);
afterAll(() => sb?.close());

/** Not spawnSync: the sandbox answering the child lives in this process's event loop. */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, HOME: '/nonexistent', SOCIALPUB_CONFIG_DIR: '/nonexistent-socialpub', NO_COLOR: '1', ...cliEnv(sb) },
  });
  const r = { code: null as number | null, stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (c: string) => (r.stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (r.stderr += c));
  return new Promise((resolve) => child.on('close', (code) => resolve({ ...r, code })));
}

describe('--json --jq failing partway', () => {
  it('prints the outputs before the error, then the error on stderr (exit 1)', async () => {
    const listed = await cli(['results', 'list', '--limit', '40', '--json']);
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout) as { id: string; error: { code: string } | null }[];
    const failed = rows.filter((row) => row.error !== null);
    const succeeded = rows.filter((row) => row.error === null);
    expect(failed.length).toBeGreaterThan(0);
    expect(succeeded.length).toBeGreaterThan(0);
    // The failed rows first, each as its id and lowercased error code; the first row without an
    // error then stops jq at `null | ascii_downcase`, after its id.
    const expected = [...failed.flatMap((row) => [row.id, row.error!.code.toLowerCase()]), succeeded[0]!.id];

    const jq = 'map(select(.error)) + map(select(.error == null)) | .[] | .id, (.error.code | ascii_downcase)';
    const r = await cli(['results', 'list', '--limit', '40', '--json', '--jq', jq]);
    expect(r.stdout).toBe(expected.join('\n') + '\n');
    expect(r.stderr).toMatch(/^error: --jq: explode input must be a string/m);
    expect(r.code).toBe(1);
  });
});
