// End to end: the built binary (`node bin/socialpub.js`), spawned with a temporary config folder
// and HOME, against the sandbox on 127.0.0.1 (port 0), which answers the key check as the service does.
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT, ensureBuilt } from './ensure-built.js';
import { maskKey } from '../../src/config/resolve.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const BAD_KEY = 'sk_test_bad_0123456789nope';
let sandbox: Sandbox;
let GOOD_KEY: string;
/** The sandbox's base URL, under the name the tests were written with. */
let server: { baseUrl: string };
let tmp: string;
let configDir: string;
let home: string;

function socialpub(args: string[], stdin?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    // A clean environment: no developer key, profile or CA settings leak in; HOME is a temp folder.
    const env = { PATH: process.env.PATH ?? '', HOME: home, SOCIALPUB_CONFIG_DIR: configDir, NO_COLOR: '1' };
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(stdin ?? '');
  });
}

beforeAll(async () => {
  await ensureBuilt();
  sandbox = await startSandbox({ port: 0, seed: 1 });
  GOOD_KEY = sandbox.key('demo');
  server = { baseUrl: sandbox.url };
}, 120_000);
afterAll(() => sandbox?.close());
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'socialpub-e2e-'));
  configDir = join(tmp, 'config');
  home = join(tmp, 'home');
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe('the built binary', () => {
  it('prints the package version with --version', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const r = await socialpub(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${pkg.version}\n`);
  });

  it('prints help listing the auth and profile commands with --help', async () => {
    const r = await socialpub(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: socialpub/);
    expect(r.stdout).toMatch(/^\s+auth\b/m);
    expect(r.stdout).toMatch(/^\s+profile\b/m);
  });

  it('logs in with the key on stdin, then auth status reports it accepted', async () => {
    const login = await socialpub(['auth', 'login', '--with-key', '--base-url', server.baseUrl], `${GOOD_KEY}\n`);
    expect(login.stderr).toContain(`Logged in to ${server.baseUrl} as profile default (key ${maskKey(GOOD_KEY)})`);
    expect(login.code).toBe(0);
    const file = join(configDir, 'config.json');
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default).toEqual({ apiKey: GOOD_KEY, baseUrl: server.baseUrl, api: 'socialpub', apiSource: 'detected' });
    if (process.platform !== 'win32') {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(configDir).mode & 0o777).toBe(0o700);
    }

    const status = await socialpub(['auth', 'status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`${maskKey(GOOD_KEY)} in ${file}`);
    expect(status.stdout).toMatch(/✓ accepts the key/);
    const json = await socialpub(['auth', 'status', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ profile: 'default', baseUrl: server.baseUrl, key: maskKey(GOOD_KEY), valid: true });
    for (const r of [login, status, json]) expect(r.stdout + r.stderr).not.toContain(GOOD_KEY);
    // Nothing was written to HOME: the config folder was relocated.
    expect(existsSync(home)).toBe(false);
  });

  it('exits 3 from auth status with an empty config folder', async () => {
    const r = await socialpub(['auth', 'status']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/error: no API key for profile "default"/);
    expect(r.stderr).toMatch(/socialpub auth login/);
  });

  it('exits 3 for a key the service refuses (401), saving nothing', async () => {
    const r = await socialpub(['auth', 'login', '--with-key', '--base-url', server.baseUrl], BAD_KEY);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/refused the key \(401 UNAUTHORIZED\)/);
    // Against the local sandbox, the hint points at its banner, not at a service's settings page.
    expect(r.stderr).toMatch(/is a local sandbox: .*its banner prints the login line to copy/);
    expect(r.stderr).not.toMatch(/Settings → Developers/);
    expect(existsSync(join(configDir, 'config.json'))).toBe(false);
  });

  it('exits 2 for --api-key, explaining what to do instead', async () => {
    const r = await socialpub(['auth', 'login', '--api-key', 'sk_live_leaky_0000llll']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--api-key is not accepted/);
    expect(r.stderr).not.toContain('sk_live_leaky');
  });
});
