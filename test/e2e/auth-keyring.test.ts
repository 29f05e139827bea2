// The built binary with the real @napi-rs/keyring binding: against a real Secret Service (a
// private D-Bus session and gnome-keyring-daemon, where the machine has them), and on Linux with
// no session bus, where login must fall back to the 0600 file at once and say so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT, ensureBuilt } from './ensure-built.js';
import { keyringAccount } from '../../src/config/types.js';
import { maskKey } from '../../src/config/resolve.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { startSecretService } from '../helpers/secret-service.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let sandbox: Sandbox;
let KEY: string;
let tmp: string;
const secrets = await startSecretService();

function socialpub(args: string[], env: Record<string, string>, stdin = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { NO_COLOR: '1', SOCIALPUB_CONFIG_DIR: join(tmp, 'config'), ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let [stdout, stderr] = ['', ''];
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/**
 * Reads every process's argument list (/proc/PID/cmdline) over and over until `done` settles,
 * and returns those that held `secret`: a helper given the key as an argument would show here.
 */
async function argumentListsHolding(secret: string, done: Promise<unknown>): Promise<string[]> {
  let finished = false;
  void done.finally(() => (finished = true));
  const hits = new Set<string>();
  let scans = 0;
  while (!finished || scans === 0) {
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        if (args.includes(secret)) hits.add(args.replace(/\0/g, ' '));
      } catch {
        // The process ended between the listing and the read.
      }
    }
    scans++;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return [...hits];
}

beforeAll(async () => {
  await ensureBuilt();
  sandbox = await startSandbox({ port: 0, seed: 1 });
  KEY = sandbox.key('demo');
  tmp = mkdtempSync(join(tmpdir(), 'socialpub-keyring-'));
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
  if (secrets.ok) await secrets.close();
  rmSync(tmp, { recursive: true, force: true });
});

const configFile = () => JSON.parse(readFileSync(join(tmp, 'config', 'config.json'), 'utf8')) as { profiles: Record<string, Record<string, unknown>> };

describe.runIf(secrets.ok)('with a real Secret Service (gnome-keyring on a private D-Bus session)', () => {
  const env = () => (secrets.ok ? { ...secrets.env, HOME: secrets.env.HOME! } : {});
  const stored = (profile: string) => (secrets.ok ? secrets.lookup({ service: 'socialpub', username: keyringAccount(profile, join(tmp, 'config')) }) : undefined);

  it('login stores the key there (not in the file), status reads it back, logout deletes it', async () => {
    const running = socialpub(['auth', 'login', '--with-key', '--base-url', sandbox.url], env(), KEY);
    expect(await argumentListsHolding(KEY, running)).toEqual([]);
    const login = await running;
    expect(login.stderr).toContain('Saved in the Secret Service (the system credential store)');
    expect(login.code).toBe(0);
    expect(stored('default')).toBe(KEY);
    expect(JSON.stringify(configFile())).not.toContain(KEY);
    expect(configFile().profiles.default).toEqual({ baseUrl: sandbox.url, keyStorage: 'keyring', api: 'socialpub', apiSource: 'detected' });

    const status = await socialpub(['auth', 'status', '--json'], env());
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ keySource: 'keyring', keyStoredIn: 'the Secret Service', key: maskKey(KEY), valid: true });

    const logout = await socialpub(['auth', 'logout'], env());
    expect(logout.code).toBe(0);
    expect(logout.stderr).toContain('from the Secret Service');
    expect(stored('default')).toBeUndefined();
    for (const r of [login, status, logout]) expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('profile remove deletes the key from the Secret Service too', async () => {
    expect((await socialpub(['auth', 'login', '--with-key', '--base-url', sandbox.url, '--profile', 'acme'], env(), KEY)).code).toBe(0);
    expect(stored('acme')).toBe(KEY);
    expect((await socialpub(['profile', 'remove', 'acme'], env())).code).toBe(0);
    expect(stored('acme')).toBeUndefined();
  });
});

describe('where no Secret Service can be had', () => {
  it.skipIf(secrets.ok)(`(the real Secret Service tests were skipped: ${secrets.ok ? '' : secrets.reason})`, () => {
    expect(secrets.ok).toBe(false);
  });

  // Linux with no session bus is what CI and SSH sessions look like; elsewhere this run would
  // reach the user's own Keychain or Credential Manager.
  it.runIf(process.platform === 'linux')('login on Linux without a session bus falls back to the 0600 file and says why', async () => {
    const r = await socialpub(['auth', 'login', '--with-key', '--base-url', sandbox.url, '--profile', 'headless'], { PATH: process.env.PATH ?? '', HOME: join(tmp, 'home') }, KEY);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/the system credential store cannot be used here \(no D-Bus session .*\); the key goes in the 0600 config file instead/);
    expect(configFile().profiles.headless).toEqual({ baseUrl: sandbox.url, apiKey: KEY, api: 'socialpub', apiSource: 'detected' });
  });
});
