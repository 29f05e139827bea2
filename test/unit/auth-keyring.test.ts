// Keys in the system credential store, with a fake keyring behind the real
// CredentialStore code and the sandbox answering the key check: login stores in the keyring when
// it works and says so, falls back to the 0600 file (saying why) when it does not,
// --insecure-storage chooses the file; status says where the key is; logout and profile remove
// delete it from wherever it is; a key already in the file keeps working.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { openProfileStore } from '../../src/config/store.js';
import { keyringAccount } from '../../src/config/types.js';
import { maskKey } from '../../src/config/resolve.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { fakeKeyring, type FakeKeyring } from '../helpers/fake-keyring.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';

let sandbox: Sandbox;
let KEY: string;
let tmp: { dir: string; cleanup: () => void };
let ring: FakeKeyring;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 1 });
  KEY = sandbox.key('demo');
});
afterAll(() => sandbox.close());
beforeEach(() => {
  tmp = tempConfigDir();
  ring = fakeKeyring();
});
afterEach(() => tmp.cleanup());

const run = (argv: string[], stdin?: string) => runCli([...argv, '--max-retries', '0'], { configDir: tmp.dir, keyring: ring, ...(stdin !== undefined ? { stdin } : {}) });
const login = (extra: string[] = []) => run(['auth', 'login', '--with-key', '--base-url', sandbox.url, ...extra], KEY);
const fileText = () => readFileSync(openProfileStore(tmp.dir, { keyring: null }).path, 'utf8');
const account = (name = 'default') => keyringAccount(name, tmp.dir);

describe('auth login with a system credential store', () => {
  it('stores the key in the keyring, says so, and keeps only a marker in the file', async () => {
    const r = await login();
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Saved in the Fake Keyring (the system credential store); default is now the current profile');
    expect(ring.entries.get(account())).toBe(KEY);
    expect(fileText()).not.toContain(KEY);
    expect(JSON.parse(fileText()).profiles.default).toEqual({ baseUrl: sandbox.url, keyStorage: 'keyring', api: 'socialpub', apiSource: 'detected' });
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('auth status reads the key from the keyring, checks it, and says where it is', async () => {
    await login();
    const r = await run(['auth', 'status', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ keySource: 'keyring', key: maskKey(KEY), keyStoredIn: 'the Fake Keyring', valid: true });
    const text = await run(['auth', 'status']);
    expect(text.stdout).toContain(`${maskKey(KEY)} in the Fake Keyring`);
  });

  it('falls back to the 0600 file when the keyring cannot be used, saying why', async () => {
    ring.unavailable = 'no D-Bus session';
    const r = await login();
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/the system credential store cannot be used here \(no D-Bus session\); the key goes in the 0600 config file instead/);
    expect(r.stderr).toContain(`Saved in ${openProfileStore(tmp.dir, { keyring: null }).path} (0600, no system credential store)`);
    expect(JSON.parse(fileText()).profiles.default).toEqual({ baseUrl: sandbox.url, apiKey: KEY, api: 'socialpub', apiSource: 'detected' });
  });

  it('--insecure-storage chooses the file, never asks the keyring to store, and removes an older keyring copy', async () => {
    await login();
    ring.calls.length = 0;
    const r = await login(['--insecure-storage']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Saved in .*config\.json \(0600, --insecure-storage\)/);
    expect(ring.calls.filter((c) => c.startsWith('set'))).toEqual([]);
    expect(ring.entries.has(account())).toBe(false);
    expect(JSON.parse(fileText()).profiles.default).toEqual({ baseUrl: sandbox.url, apiKey: KEY, api: 'socialpub', apiSource: 'detected' });
  });

  it('a key moved to the file while the keyring cannot be reached: the entry left behind is named, with how to delete it', async () => {
    await login();
    ring.unavailable = 'the keyring is locked';
    const r = await login(['--insecure-storage']);
    expect(r.code).toBe(0);
    expect(JSON.parse(fileText()).profiles.default).toEqual({ baseUrl: sandbox.url, apiKey: KEY, api: 'socialpub', apiSource: 'detected' });
    expect(ring.entries.has(account())).toBe(true);
    expect(r.stderr).toContain(`warning: the key this login replaced stays in the Fake Keyring, which could not be reached to delete it (the keyring is locked); delete the entry "${account()}" of service "socialpub" there`);
    expect(r.stderr).not.toContain(KEY);
  });

  it('a key already in the config file keeps working, without asking the keyring', async () => {
    await openProfileStore(tmp.dir, { keyring: null }).set('default', { baseUrl: sandbox.url, apiKey: KEY });
    const r = await run(['auth', 'status', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ keySource: 'profile', keyStoredIn: openProfileStore(tmp.dir, { keyring: null }).path, valid: true });
    expect(ring.calls).toEqual([]);
  });

  it('a keyring that cannot be read later: exit 3 naming the cause and the fix, no request sent', async () => {
    await login();
    ring.unavailable = 'the keyring is locked';
    sandbox.requests.length = 0;
    const r = await run(['results', 'list']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/no usable API key for profile "default": .*cannot be read here: the keyring is locked/);
    expect(r.stderr).toMatch(/--insecure-storage/);
    expect(sandbox.requests).toHaveLength(0);
    const status = await run(['auth', 'status', '--json']);
    expect(status.code).toBe(3);
    expect(JSON.parse(status.stdout)).toMatchObject({ keySource: 'keyring', key: null, error: { code: 'NO_API_KEY' } });
  });
});

describe('auth logout and profile remove with the key in the keyring', () => {
  it('logout deletes the keyring entry and the marker, keeps the base URL', async () => {
    await login();
    const r = await run(['auth', 'logout']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Removed the API key of profile default from the Fake Keyring (base URL kept)');
    expect(ring.entries.size).toBe(0);
    expect(JSON.parse(fileText()).profiles.default).toEqual({ baseUrl: sandbox.url, api: 'socialpub', apiSource: 'detected' });
    expect((await run(['auth', 'status'])).code).toBe(3);
  });

  it('logout that cannot reach the keyring fails (exit 1) and keeps the marker, so the key is not lost track of', async () => {
    await login();
    ring.unavailable = 'no D-Bus session';
    const r = await run(['auth', 'logout']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/could not remove the key of profile default from the system credential store: no D-Bus session; run the command again where that store can be reached/);
    expect(JSON.parse(fileText()).profiles.default.keyStorage).toBe('keyring');
  });

  it('profile remove deletes the keyring entry too', async () => {
    await run(['auth', 'login', '--with-key', '--base-url', sandbox.url, '--profile', 'acme'], KEY);
    expect(ring.entries.has(account('acme'))).toBe(true);
    const r = await run(['profile', 'remove', 'acme']);
    expect(r.code).toBe(0);
    expect(ring.entries.has(account('acme'))).toBe(false);
    expect(JSON.parse(fileText()).profiles.acme).toBeUndefined();
  });

  it('profile show says where the key is for a named profile', async () => {
    await run(['auth', 'login', '--with-key', '--base-url', sandbox.url, '--profile', 'acme'], KEY);
    const r = await run(['profile', 'show', 'acme', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ key: maskKey(KEY), keySource: 'keyring', keyStoredIn: 'the Fake Keyring', preferences: {} });
  });
});

describe('profile list with the key in the keyring', () => {
  it('does not read the keyring, and does not call the key "none"', async () => {
    await login();
    ring.calls.length = 0;
    const r = await runCli(['profile', 'list', '--output', 'table'], { configDir: tmp.dir, keyring: ring });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/default .*in the system credential store/);
    expect(ring.calls).toEqual([]);
  });
});

describe('failures around the keyring', () => {
  it('profile remove still removes the profile when the keyring cannot be reached, and says the entry stays', async () => {
    await login();
    ring.unavailable = 'no D-Bus session';
    const r = await run(['profile', 'remove', 'default']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/the key of profile default stays in the system credential store, which cannot be reached \(no D-Bus session\); delete the entry "default@.*" of service "socialpub" there/);
    expect(JSON.parse(fileText()).profiles.default).toBeUndefined();
  });

  it.runIf(process.platform !== 'win32')('a login whose config file cannot be written leaves no entry behind in the keyring', async () => {
    const { symlinkSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    // Fine when login checks the folder; between the keyring's answer and the save, config.json
    // becomes a link (another process, a dotfiles tool), which is never written through.
    writeFileSync(join(tmp.dir, 'elsewhere.json'), '{}', { mode: 0o600 });
    const set = ring.set.bind(ring);
    ring.set = async (account, secret) => {
      await set(account, secret);
      symlinkSync(join(tmp.dir, 'elsewhere.json'), join(tmp.dir, 'config.json'));
    };
    const r = await runCli(['auth', 'login', '--with-key', '--base-url', sandbox.url, '--max-retries', '0'], { configDir: tmp.dir, keyring: ring, stdin: KEY });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is a symbolic link/);
    expect(ring.calls.some((c) => c.startsWith('set'))).toBe(true);
    expect(ring.entries.size).toBe(0);
  });
});
