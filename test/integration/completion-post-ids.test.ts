// Completion that knows the user's world: the current zone names, the login shell, and the post
// ids the last `posts list` / `posts create` printed (a 0600 file in the cache folder, read at
// Tab without any request; stale after ten minutes).
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { bashComplete } from '../helpers/shell-complete.js';
import { timeZones } from '../../src/cli/completion/tree.js';
import { cliEnv, manualSandbox, type ManualSandbox } from './posts-support.js';

let sb: ManualSandbox;
const dir = mkdtempSync(join(tmpdir(), 'completion-ids-'));
beforeAll(async () => {
  sb = await manualSandbox({ failureRate: 0 });
});
afterAll(async () => {
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('zones', () => {
  it('include the current names of renamed zones', () => {
    expect(timeZones()).toEqual(expect.arrayContaining(['Asia/Kolkata', 'Europe/Kyiv', 'UTC', 'Europe/Paris']));
    expect(new Set(timeZones()).size).toBe(timeZones().length);
  });
});

describe('completion with no shell named', () => {
  it('uses $SHELL', async () => {
    const zsh = await runCli(['completion'], { env: { SHELL: '/usr/bin/zsh' } });
    expect(zsh.code, zsh.stderr).toBe(0);
    expect(zsh.stdout).toMatch(/^#compdef socialpub/);
    const fish = await runCli(['completion'], { env: { SHELL: '/opt/homebrew/bin/fish' } });
    expect(fish.stdout).toMatch(/^# fish completion/);
    const none = await runCli(['completion'], { env: { SHELL: '/bin/tcsh' } });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/\$SHELL is \/bin\/tcsh, not one of bash, zsh or fish/);
  });
});

describe('post ids', () => {
  it('posts list and posts create remember the ids they printed; completion --list-posts reads them, for ten minutes', async () => {
    const { dir: configDir, cleanup } = tempConfigDir();
    let now = sb.clock.now();
    const clock = { now: () => now, sleep: async () => {} };
    try {
      const env = cliEnv(sb);
      const created = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'for completion', '-q'], { env, configDir, clock });
      const id = created.stdout.trim();
      expect(id).toMatch(/^post_/);
      const listed = await runCli(['posts', 'list', '--limit', '5'], { env, configDir, clock });
      expect(listed.code, listed.stderr).toBe(0);
      const before = sb.requests.length;
      const ids = await runCli(['completion', '--list-posts'], { env, configDir, clock });
      expect(sb.requests.length).toBe(before);
      expect(ids.stdout.split('\n')).toContain(id);
      const cacheDir = join(configDir, 'home', '.cache', 'socialpub');
      const file = readdirSync(cacheDir).find((f) => f.startsWith('recent-post-ids'))!;
      expect(statSync(join(cacheDir, file)).mode & 0o777).toBe(0o600);
      // Another server's run (the same profile) offers none of them.
      expect((await runCli(['completion', '--list-posts'], { env: { ...env, SOCIALPUB_BASE_URL: 'http://127.0.0.1:9' }, configDir, clock })).stdout).toBe('');
      now += 10 * 60_000;
      expect((await runCli(['completion', '--list-posts'], { env, configDir, clock })).stdout).toBe('');
    } finally {
      cleanup();
    }
  });

  it('bash completes them after posts schedule and results wait --post', async () => {
    const script = join(dir, 'socialpub.bash');
    writeFileSync(script, (await runCli(['completion', 'bash'])).stdout);
    // The script asks `socialpub completion --list-posts`: a stand-in answers as the real one would.
    const bin = join(dir, 'bin');
    rmSync(bin, { recursive: true, force: true });
    mkdirSync(bin);
    writeFileSync(join(bin, 'socialpub'), '#!/bin/sh\n[ "$1 $2" = "completion --list-posts" ] && printf "post_aaa1\\npost_abb2\\n"\n');
    chmodSync(join(bin, 'socialpub'), 0o755);
    const env = { PATH: `${bin}:${process.env.PATH}` };
    expect(bashComplete(script, 'socialpub results wait --post post_a', { env })).toEqual(['post_aaa1', 'post_abb2']);
    expect(bashComplete(script, 'socialpub posts schedule post_ab', { env })).toEqual(['post_abb2']);
    expect(bashComplete(script, 'socialpub results list --tz Europe/Ky')).toEqual(['Europe/Kyiv']);
  });
});
