// Completion of account handles: an accounts lookup remembers them (platform:@handle, and @handle
// where it is unique) in the cache folder; `completion --list-accounts` reads them without any
// request, and bash completes --account and `accounts view` from it.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { bashComplete, fishComplete, hasShell, zshComplete } from '../helpers/shell-complete.js';
import { cliEnv, testSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let sb2: TestSandbox;
const dir = mkdtempSync(join(tmpdir(), 'completion-accounts-'));
beforeAll(async () => {
  sb = await testSandbox({ failureRate: 0 });
  sb2 = await testSandbox({ failureRate: 0 });
});
afterAll(async () => {
  await sb?.close();
  await sb2?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('account handles', () => {
  it('accounts list remembers them; completion --list-accounts reads them without a request', async () => {
    const { dir: configDir, cleanup } = tempConfigDir();
    try {
      const listed = await runCli(['accounts', 'list'], { env: cliEnv(sb), configDir });
      expect(listed.code, listed.stderr).toBe(0);
      const before = sb.requests.length;
      // The same environment as the run that looked them up (the base URL is part of whose they are).
      const words = (await runCli(['completion', '--list-accounts'], { env: cliEnv(sb), configDir })).stdout.split('\n');
      expect(sb.requests.length).toBe(before);
      // Unique handles alone; a handle on several platforms only with its platform.
      expect(words).toEqual(expect.arrayContaining(['@socialpub-demo-careers', 'linkedin:@socialpub-demo-careers', 'instagram:@socialpub.demo', 'threads:@socialpub.demo']));
      expect(words).not.toContain('@socialpub.demo');
    } finally {
      cleanup();
    }
  });

  it('are kept per profile and base URL: each profile completes its own after the other ran', async () => {
    const { dir: configDir, cleanup } = tempConfigDir();
    try {
      const login = async (profile: string, server: TestSandbox, workspace: 'demo' | 'other') => {
        const r = await runCli(['auth', 'login', '--with-key', '--insecure-storage', '--profile', profile, '--base-url', server.url], { configDir, stdin: server.key(workspace) });
        expect(r.code, r.stderr).toBe(0);
      };
      await login('acme', sb, 'demo');
      await login('beta', sb2, 'other');
      const run = (argv: string[], env: Record<string, string> = {}) => runCli(argv, { configDir, env });
      // The one shared file of earlier versions (every profile's handles mixed) goes at the first write.
      const cacheDir = join(configDir, 'home', '.cache', 'socialpub');
      mkdirSync(cacheDir, { recursive: true });
      writeFileSync(join(cacheDir, 'recent-accounts.json'), JSON.stringify({ at: sb.clock.now(), ids: ['@someone_else'] }));
      expect((await run(['accounts', 'list', '--profile', 'acme'])).code).toBe(0);
      expect((await run(['accounts', 'list'], { SOCIALPUB_PROFILE: 'beta' })).code).toBe(0);
      const acme = (await run(['completion', '--list-accounts', '--profile', 'acme'])).stdout.split('\n');
      const beta = (await run(['completion', '--list-accounts'], { SOCIALPUB_PROFILE: 'beta' })).stdout.split('\n');
      expect(acme).toContain('linkedin:@socialpub-demo-careers');
      expect(acme.join(' ')).not.toMatch(/other/);
      expect(beta).toContain('linkedin:@socialpub-other');
      expect(beta.join(' ')).not.toMatch(/demo/);
      // The current profile is whose list a Tab with no --profile reads.
      expect((await run(['profile', 'use', 'beta'])).code).toBe(0);
      expect((await run(['completion', '--list-accounts'])).stdout.split('\n')).toEqual(beta);
      // The same profile pointed at another server completes nothing of the first one's.
      expect((await run(['completion', '--list-accounts', '--profile', 'acme', '--base-url', sb2.url])).stdout).toBe('');
      const files = readdirSync(cacheDir).filter((f) => f.startsWith('recent-accounts'));
      expect(files).toHaveLength(2);
      for (const f of files) {
        expect(statSync(join(cacheDir, f)).mode & 0o777).toBe(0o600);
        const text = readFileSync(join(cacheDir, f), 'utf8');
        expect(text).not.toContain(sb.key('demo'));
        expect(text).not.toContain(sb2.key('other'));
      }
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

  it('the scripts ask for the profile and base URL the line names', async () => {
    const bin = join(dir, 'bin-scoped');
    mkdirSync(bin, { recursive: true });
    // A stand-in that answers per profile, as the real one does: beta's handles only when asked for beta.
    writeFileSync(
      join(bin, 'socialpub'),
      [
        '#!/bin/sh',
        '[ "$1 $2" = "completion --list-posts" ] && echo post_zz1',
        '[ "$1 $2" = "completion --list-accounts" ] || exit 0',
        'shift 2',
        'case "$*" in',
        '  "--profile beta"|"-p beta"|"--profile=beta") echo @beta_x ;;',
        '  "--base-url http://127.0.0.1:9 -p beta") echo @beta_far ;;',
        '  "") echo @acme_x ;;',
        'esac',
        '',
      ].join('\n'),
    );
    chmodSync(join(bin, 'socialpub'), 0o755);
    const env = { PATH: `${bin}:${process.env.PATH}` };
    const bash = join(dir, 'scoped.bash');
    writeFileSync(bash, (await runCli(['completion', 'bash'])).stdout);
    expect(bashComplete(bash, 'socialpub posts create --account @', { env })).toEqual(['@acme_x']);
    expect(bashComplete(bash, 'socialpub --profile beta posts create --account @', { env })).toEqual(['@beta_x']);
    expect(bashComplete(bash, 'socialpub posts create -p beta --account @', { env })).toEqual(['@beta_x']);
    expect(bashComplete(bash, 'socialpub --base-url http://127.0.0.1:9 -p beta accounts view @', { env })).toEqual(['@beta_far']);
    if (hasShell('fish')) {
      const fish = join(dir, 'scoped.fish');
      writeFileSync(fish, (await runCli(['completion', 'fish'])).stdout);
      expect(fishComplete(fish, 'socialpub posts create --account @', env)).toEqual(['@acme_x']);
      expect(fishComplete(fish, 'socialpub --profile=beta posts create --account @', env)).toEqual(['@beta_x']);
    }
    if (hasShell('zsh')) {
      const zsh = join(dir, 'scoped.zsh');
      writeFileSync(zsh, (await runCli(['completion', 'zsh'])).stdout);
      expect(zshComplete(zsh, 'socialpub -p beta posts create --account @', env).buffer).toBe('socialpub -p beta posts create --account @beta_x ');
      expect(zshComplete(zsh, 'socialpub accounts view @', env).buffer).toBe('socialpub accounts view @acme_x ');
      // Post ids too (the helpers' names once clashed with the posts and accounts command functions).
      expect(zshComplete(zsh, 'socialpub results wait --post post_', env).buffer).toBe('socialpub results wait --post post_zz1 ');
    }
  });
});
