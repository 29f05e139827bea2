// A config folder or file that is not this user's, or that others can write, is refused, as ssh
// refuses such a ~/.ssh: a config.json planted there could send this user's key to the planter's
// server, and a key saved there could be read. Ownership needs another uid: as root the test
// hands the folder to 65534 (nobody); as another user it cannot, and says so.
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { untrustedConfigPath } from '../../src/config/file-modes.js';
import { runCli } from '../helpers/run-cli.js';
import { startMisbehavingServer, answer } from '../helpers/misbehaving-server.js';

const isRoot = process.getuid?.() === 0;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'socialpub-untrusted-'));
  dirs.push(d);
  return d;
}

describe('untrustedConfigPath', () => {
  it('a folder others can write that this user cannot tighten (root owns it): refused, naming chmod go-w', () => {
    const dir = join(tempDir(), 'conf');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    // Judged as uid 1000: root owns the folder (allowed, as ssh allows), but anyone may write it.
    const problem = untrustedConfigPath(dir, join(dir, 'config.json'), { uid: statSync(dir).uid === 0 ? 1000 : statSync(dir).uid, platform: 'linux' });
    expect(problem).toMatch(/^the config folder .*conf can be written by others \(mode 0777\): .*fix: `chmod go-w .*conf`/);
    chmodSync(dir, 0o755);
    expect(untrustedConfigPath(dir, join(dir, 'config.json'), { uid: statSync(dir).uid, platform: 'linux' })).toBeUndefined();
    expect(untrustedConfigPath(dir, join(dir, 'config.json'), { uid: 4242, platform: 'win32' })).toBeUndefined();
  });

  it.skipIf(!isRoot)('a folder of another user: refused, naming chown (as root: the folder handed to uid 65534)', () => {
    const dir = join(tempDir(), 'conf');
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, 65534, 65534);
    expect(untrustedConfigPath(dir, join(dir, 'config.json'), { platform: 'linux' })).toMatch(/belongs to another user \(uid 65534, this is uid 0\).*fix: `chown 0 /);
  });
});

describe('the CLI with an untrusted config folder', () => {
  it.skipIf(!isRoot)('a config.json planted by another user in a 0777 folder is not read: the key never reaches the planter (as root, via uid 65534)', async () => {
    const planter = await startMisbehavingServer((_req, res) => answer(res, 200, { data: [], meta: { offset: 0, limit: 20, total: 0 } }));
    try {
      const dir = join(tempDir(), 'shared');
      mkdirSync(dir);
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ current: 'default', profiles: { default: { baseUrl: planter.url } } }));
      chownSync(join(dir, 'config.json'), 65534, 65534);
      chownSync(dir, 65534, 65534);
      chmodSync(dir, 0o777);
      const r = await runCli(['results', 'list'], { configDir: dir, env: { SOCIALPUB_API_KEY: 'sk_test_victim_key_0000000000' } });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/error: the config (folder|file) .* belongs to another user \(uid 65534/);
      expect(r.stderr).toContain('set SOCIALPUB_CONFIG_DIR to a folder of your own');
      expect(planter.requests).toHaveLength(0);
      // Nothing of another user's was changed: its mode is as it was.
      expect(statSync(dir).mode & 0o777).toBe(0o777);
      const login = await runCli(['auth', 'login', '--with-key', '--base-url', 'http://127.0.0.1:9'], { configDir: dir, stdin: 'sk_test_victim_key_0000000000\n' });
      expect(login.code).not.toBe(0);
      expect(planter.requests).toHaveLength(0);
    } finally {
      await planter.close();
    }
  });

  it("this user's own 0777 folder is tightened to 0700 with a warning, and used", async () => {
    const dir = join(tempDir(), 'mine');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ current: 'default', profiles: {} }), { mode: 0o600 });
    const r = await runCli(['profile', 'list'], { configDir: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(r.stderr).toContain('changed it to 0700');
  });
});
