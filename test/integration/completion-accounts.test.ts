// Completion of account handles: an accounts lookup remembers them (platform:@handle, and @handle
// where it is unique) in the cache folder; `completion --list-accounts` reads them without any
// request, and bash completes --account and `accounts view` from it.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { bashComplete } from '../helpers/shell-complete.js';
import { cliEnv, testSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
const dir = mkdtempSync(join(tmpdir(), 'completion-accounts-'));
beforeAll(async () => {
  sb = await testSandbox({ failureRate: 0 });
});
afterAll(async () => {
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('account handles', () => {
  it('accounts list remembers them; completion --list-accounts reads them without a request', async () => {
    const { dir: configDir, cleanup } = tempConfigDir();
    try {
      const listed = await runCli(['accounts', 'list'], { env: cliEnv(sb), configDir });
      expect(listed.code, listed.stderr).toBe(0);
      const before = sb.requests.length;
      const words = (await runCli(['completion', '--list-accounts'], { configDir })).stdout.split('\n');
      expect(sb.requests.length).toBe(before);
      // Unique handles alone; a handle on several platforms only with its platform.
      expect(words).toEqual(expect.arrayContaining(['@socialpub-demo-careers', 'linkedin:@socialpub-demo-careers', 'instagram:@socialpub.demo', 'threads:@socialpub.demo']));
      expect(words).not.toContain('@socialpub.demo');
    } finally {
      cleanup();
    }
  });

  it('bash completes --account and accounts view from them', async () => {
    const script = join(dir, 'socialpub.bash');
    writeFileSync(script, (await runCli(['completion', 'bash'])).stdout);
    const bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'socialpub'), '#!/bin/sh\n[ "$1 $2" = "completion --list-accounts" ] && printf "@acme-careers\\nlinkedin:@acme-careers\\n@acme_x\\n"\n');
    chmodSync(join(bin, 'socialpub'), 0o755);
    const env = { PATH: `${bin}:${process.env.PATH}` };
    expect(bashComplete(script, 'socialpub posts create --account @acme-', { env })).toEqual(['@acme-careers']);
    expect(bashComplete(script, 'socialpub accounts view @acme', { env })).toEqual(['@acme-careers', '@acme_x']);
  });
});
