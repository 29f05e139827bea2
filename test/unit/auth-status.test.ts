// `auth status` and `auth logout` in-process against the sandbox on 127.0.0.1 (port 0), which
// answers the key check as the service does (the `lapsed` workspace has no API add-on).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { openProfileStore } from '../../src/config/store.js';
import { maskKey } from '../../src/config/resolve.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { availableFields } from '../../src/output/fields.js';
import { fieldsOf } from '../../src/output/fields-of.js';

const BAD_KEY = 'sk_test_bad_0123456789nope';
let sandbox: Sandbox;
let GOOD_KEY: string;
let LAPSED_KEY: string;
/** The sandbox's base URL, under the name the tests were written with. */
let server: { baseUrl: string };
let tmp: { dir: string; cleanup: () => void };
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 1 });
  [GOOD_KEY, LAPSED_KEY] = [sandbox.key('demo'), sandbox.key('lapsed')];
  server = { baseUrl: sandbox.url };
});
afterAll(() => sandbox.close());
beforeEach(() => {
  tmp = tempConfigDir();
  sandbox.requests.length = 0;
});
afterEach(() => tmp.cleanup());

const run = (argv: string[], env: Record<string, string> = {}) => runCli([...argv, '--max-retries', '0'], { configDir: tmp.dir, env });
const configPath = () => openProfileStore(tmp.dir).path;
async function saveProfile(name: string, apiKey: string | undefined, current = true) {
  const store = openProfileStore(tmp.dir);
  await store.set(name, { baseUrl: server.baseUrl, ...(apiKey ? { apiKey } : {}) });
  if (current) await store.use(name);
}

describe('auth status', () => {
  it('--fields: a misspelt field is exit 2 before the key is tried; known ones pick the report, as text too; every field listed is one the report can have', async () => {
    await saveProfile('acme', GOOD_KEY);
    const wrong = await run(['auth', 'status', '--json', '--fields', 'valid,nope']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--fields: unknown field "nope"');
    expect(wrong.stdout).toBe('');
    expect(sandbox.requests).toHaveLength(0);
    const picked = await run(['auth', 'status', '--json', '--fields', 'valid,profile']);
    expect(picked.code, picked.stderr).toBe(0);
    expect(JSON.parse(picked.stdout)).toEqual({ valid: true, profile: 'acme' });
    const text = await run(['auth', 'status', '--fields', 'profile,valid']);
    expect(text.stdout.trimEnd().split('\n')).toEqual(['  profile  acme', '  valid    true']);
    // The listed names are exactly those of a refused key's report (the fullest one).
    const refused = await run(['auth', 'status', '--json'], { SOCIALPUB_API_KEY: BAD_KEY });
    expect(refused.code).toBe(3);
    expect(availableFields([JSON.parse(refused.stdout)])).toEqual(fieldsOf('auth status'));
  });

  it('reports profile, base URL, masked key, where it is stored, and that the API accepts it', async () => {
    await saveProfile('acme', GOOD_KEY);
    const r = await run(['auth', 'status']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/profile\s+acme \(current profile\)/);
    expect(r.stdout).toContain(`${server.baseUrl} (profile)`);
    expect(r.stdout).toContain(`${maskKey(GOOD_KEY)} in ${configPath()}`);
    expect(r.stdout).toMatch(/✓ accepts the key/);
    expect(sandbox.requests.map((q) => [q.method, q.path, q.query, q.workspace])).toEqual([['GET', '/api/v1/post-results', 'limit=1', 'demo']]);
    expect(r.stdout + r.stderr).not.toContain(GOOD_KEY);
  });

  it('at 40 columns, the config file path continues under the value column, never at column 0', async () => {
    await saveProfile('acme', GOOD_KEY);
    const r = await runCli(['auth', 'status', '--max-retries', '0'], { configDir: tmp.dir, tty: true, columns: 40, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    const key = lines.findIndex((l) => l.startsWith('key'));
    const column = /^key\s+/.exec(lines[key]!)![0].length;
    const pathLines = [lines[key]!.slice(lines[key]!.indexOf(' in ') + 4), ...lines.slice(key + 1).filter((l, i, all) => all.slice(0, i + 1).every((x) => x.startsWith(' '.repeat(column))))];
    expect(pathLines.length).toBeGreaterThan(1);
    expect(pathLines.map((l) => l.trim()).join('')).toBe(configPath());
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(40);
  });

  it('prints one JSON object under --json', async () => {
    await saveProfile('acme', GOOD_KEY);
    const r = await run(['auth', 'status', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      profile: 'acme',
      profileSource: 'current',
      baseUrl: server.baseUrl,
      baseUrlSource: 'profile',
      api: 'socialpub',
      apiSource: 'default',
      keySource: 'profile',
      key: maskKey(GOOD_KEY),
      keyStoredIn: configPath(),
      configPath: configPath(),
      valid: true,
    });
  });

  it('exits 3 with no key (empty config), says how to log in, and sends nothing', async () => {
    const r = await run(['auth', 'status', '--json']);
    expect(r.code).toBe(3);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ profile: 'default', profileSource: 'default', key: null, keySource: 'none', keyStoredIn: null, valid: false, error: { code: 'NO_API_KEY' } });
    expect(r.stderr).toMatch(/error: no API key for profile "default"/);
    expect(r.stderr).toMatch(/socialpub auth login/);
    expect(sandbox.requests).toHaveLength(0);
    expect(existsSync(configPath())).toBe(false);
  });

  it('exits 3 for a refused key, with the fix', async () => {
    await saveProfile('acme', BAD_KEY);
    const r = await run(['auth', 'status']);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/✗ .*refused the key \(401 UNAUTHORIZED\)/);
    expect(r.stderr).toMatch(/local sandbox/);
    expect(r.stderr).toMatch(/socialpub auth login --profile acme/);
  });

  it('exits 3 for a workspace without the add-on, pointing at Billing → Add-ons', async () => {
    await saveProfile('default', LAPSED_KEY);
    const r = await run(['auth', 'status', '--json']);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'ADDON_REQUIRED', status: 403, requestId: sandbox.requests.at(-1)!.requestId });
    expect(r.stderr).toMatch(/Settings → Billing → Add-ons/);
  });

  it('uses SOCIALPUB_API_KEY and SOCIALPUB_BASE_URL for the run without writing them', async () => {
    const r = await run(['auth', 'status', '--json'], { SOCIALPUB_API_KEY: GOOD_KEY, SOCIALPUB_BASE_URL: server.baseUrl });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ keySource: 'env', keyStoredIn: 'SOCIALPUB_API_KEY (environment, not stored)', baseUrlSource: 'env', valid: true });
    expect(existsSync(configPath())).toBe(false);
  });

  it('says that SOCIALPUB_API_KEY hides a saved key, and that unsetting it brings the saved key back', async () => {
    await saveProfile('acme', GOOD_KEY);
    const r = await run(['auth', 'status'], { SOCIALPUB_API_KEY: LAPSED_KEY });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(`key        ${maskKey(LAPSED_KEY)} in SOCIALPUB_API_KEY (environment, not stored)`);
    expect(r.stdout).toContain(`saved key  ${maskKey(GOOD_KEY)} in ${configPath()}, not used while SOCIALPUB_API_KEY is set`);
    expect(r.stdout).toContain(`file       ${configPath()}\n`);
    expect(r.stderr).toContain('hint: the refused key comes from SOCIALPUB_API_KEY: set a valid one, or unset it to use the key saved in profile acme');
    expect(r.stdout + r.stderr).not.toContain(GOOD_KEY);
    expect(r.stdout + r.stderr).not.toContain(LAPSED_KEY);
    // Without a saved key there is nothing to point back to.
    await saveProfile('acme', undefined);
    const bare = await run(['auth', 'status'], { SOCIALPUB_API_KEY: LAPSED_KEY });
    expect(bare.stdout).not.toContain('saved key');
    expect(bare.stderr).toContain('hint: the refused key comes from SOCIALPUB_API_KEY: set a valid one\n');
  });

  it('a SOCIALPUB_API_KEY pasted with "Bearer ", quotes or a space inside: exit 2 naming the variable and the fix, nothing sent, the key never shown', async () => {
    await saveProfile('acme', GOOD_KEY);
    const cases: Array<[string, string]> = [
      [`Bearer ${GOOD_KEY}`, 'SOCIALPUB_API_KEY starts with "Bearer ": set it to the key alone'],
      [`"${GOOD_KEY}"`, 'SOCIALPUB_API_KEY is wrapped in quotes: set it to the key alone'],
      [`${GOOD_KEY.slice(0, 8)} ${GOOD_KEY.slice(8)}`, 'SOCIALPUB_API_KEY holds spaces, line breaks or other characters an API key never has: set it to the key alone'],
    ];
    for (const [value, message] of cases) {
      for (const argv of [['auth', 'status'], ['posts', 'list']]) {
        const r = await run(argv, { SOCIALPUB_API_KEY: value });
        expect(r.code, argv.join(' ')).toBe(2);
        expect(r.stderr).toContain(`error: ${message}\n`);
        expect(r.stdout + r.stderr).not.toContain(GOOD_KEY.slice(8));
      }
    }
    expect(sandbox.requests).toHaveLength(0);
    // A key saved by hand with its quotes is named as the saved key, with the way to replace it.
    await saveProfile('acme', `'${GOOD_KEY}'`);
    const saved = await run(['posts', 'list']);
    expect(saved.code).toBe(2);
    expect(saved.stderr).toContain('error: the saved key of profile acme is wrapped in quotes: run `socialpub auth login --profile acme` again with the key alone');
    expect(sandbox.requests).toHaveLength(0);
  });

  it('exits 6 when the service cannot be reached', async () => {
    const store = openProfileStore(tmp.dir);
    await store.set('default', { baseUrl: 'http://127.0.0.1:1', apiKey: GOOD_KEY });
    const r = await run(['auth', 'status', '--json']);
    expect(r.code).toBe(6);
    expect(JSON.parse(r.stdout)).toMatchObject({ valid: false, error: { status: null } });
  });
});

describe('auth logout', () => {
  it('removes the stored key and keeps the base URL; status then exits 3', async () => {
    await saveProfile('acme', GOOD_KEY);
    const r = await run(['auth', 'logout']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Removed the API key of profile acme/);
    const f = JSON.parse(readFileSync(configPath(), 'utf8'));
    expect(f.profiles.acme).toEqual({ baseUrl: server.baseUrl });
    expect(f.current).toBe('acme');
    expect((await run(['auth', 'status'])).code).toBe(3);
  });

  it('exits 0 and says so when there was no key', async () => {
    const r = await run(['auth', 'logout']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Profile default has no stored key; nothing to remove/);
  });

  it('a misspelt --profile is not a logout: exit 4 naming the nearest profile, whose key stays; status says the same with exit 3', async () => {
    await saveProfile('acme', GOOD_KEY);
    const r = await run(['auth', 'logout', '--profile', 'acme2']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`error: there is no profile named "acme2" in ${configPath()}`);
    expect(r.stderr).toContain('hint: did you mean "acme"?');
    expect(JSON.parse(readFileSync(configPath(), 'utf8')).profiles.acme.apiKey).toBe(GOOD_KEY);
    const status = await run(['auth', 'status', '--profile', 'acme2']);
    expect(status.code).toBe(3);
    expect(status.stderr).toContain('hint: did you mean "acme"?');
    expect(sandbox.requests).toHaveLength(0);
  });

  it('mentions a SOCIALPUB_API_KEY that stays in effect', async () => {
    await saveProfile('acme', GOOD_KEY);
    const r = await run(['auth', 'logout'], { SOCIALPUB_API_KEY: GOOD_KEY });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/SOCIALPUB_API_KEY is still set/);
    expect(readFileSync(configPath(), 'utf8')).not.toContain(GOOD_KEY);
  });
});
