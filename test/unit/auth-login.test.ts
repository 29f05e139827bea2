// `auth login` in-process against the sandbox on 127.0.0.1 (port 0), which answers the key check
// as the service does (200, 401, 403 ADDON_REQUIRED for the `lapsed` workspace): the key comes
// from stdin or a hidden prompt, is checked before it is saved, and environment values are
// never written.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { openProfileStore } from '../../src/config/store.js';
import type { Prompter } from '../../src/cli/prompter.js';
import { maskKey } from '../../src/config/resolve.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { uncheckedNotes } from '../../src/cli/commands/auth/login.run.js';
import { hintsFor } from '../../src/cli/errors.js';
import { NetworkError, ServerError } from '../../src/client/errors.js';

const BAD_KEY = 'sk_test_bad_0123456789nope';
let sandbox: Sandbox;
let GOOD_KEY: string;
let OTHER_GOOD_KEY: string;
let LAPSED_KEY: string;
/** The sandbox's base URL, under the name the tests were written with. */
let server: { baseUrl: string };
let tmp: { dir: string; cleanup: () => void };
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 1 });
  [GOOD_KEY, OTHER_GOOD_KEY, LAPSED_KEY] = [sandbox.key('demo'), sandbox.key('other'), sandbox.key('lapsed')];
  server = { baseUrl: sandbox.url };
});
afterAll(() => sandbox.close());
beforeEach(() => {
  tmp = tempConfigDir();
  sandbox.requests.length = 0;
});
afterEach(() => tmp.cleanup());

/** The requests the sandbox served since the test began: what each asked and as whom. */
const requests = () => sandbox.requests.map((r) => ({ method: r.method, url: `${r.path}${r.query ? `?${r.query}` : ''}`, workspace: r.workspace }));

const configPath = () => openProfileStore(tmp.dir).path;
const readConfig = () => JSON.parse(readFileSync(configPath(), 'utf8'));
const login = (extra: string[], stdin?: string, env: Record<string, string> = {}) =>
  runCli(['auth', 'login', '--base-url', server.baseUrl, '--with-key', '--max-retries', '0', ...extra], { configDir: tmp.dir, stdin, env });

function answeringPrompter(answer: string): Prompter & { asked: string[] } {
  const asked: string[] = [];
  const refuse = async () => {
    throw new Error('unexpected prompt');
  };
  return {
    asked,
    async password(o) {
      asked.push(o.message);
      return answer;
    },
    input: refuse,
    confirm: refuse,
    checkbox: refuse,
    select: refuse,
  };
}

describe('auth login --with-key', () => {
  it('checks the key with one cheap read that also tells the API, then saves key, base URL and API 0600 and makes the profile current', async () => {
    const r = await login([], `${GOOD_KEY}\n`);
    expect(r.stderr).toContain(`Logged in to ${server.baseUrl} as profile default (key ${maskKey(GOOD_KEY)})`);
    expect(r.code).toBe(0);
    // The sandbox serves both APIs: the first read (socialpub's) settles it.
    expect(requests()).toEqual([{ method: 'GET', url: '/v1/posts?limit=1', workspace: 'demo' }]);
    expect(r.stderr).toContain("API: socialpub's own API (detected at login)");
    expect(readConfig()).toEqual({ current: 'default', profiles: { default: { apiKey: GOOD_KEY, baseUrl: server.baseUrl, api: 'socialpub', apiSource: 'detected' } } });
    if (process.platform !== 'win32') expect(statSync(configPath()).mode & 0o777).toBe(0o600);
    expect(r.stdout + r.stderr).not.toContain(GOOD_KEY);
  });

  it('over a saved "api" naming no API (the fix profile show names): logs in and saves the API it was given or told', async () => {
    await openProfileStore(tmp.dir).set('odd', { baseUrl: server.baseUrl, api: 'sincpostly' });
    const given = await login(['--profile', 'odd', '--api', 'socialpub'], `${GOOD_KEY}\n`);
    expect(given.code, given.stderr).toBe(0);
    expect(readConfig().profiles.odd).toMatchObject({ api: 'socialpub', apiSource: 'set' });
    await openProfileStore(tmp.dir).set('odd', { baseUrl: server.baseUrl, api: 'sincpostly' });
    const told = await login(['--profile', 'odd'], `${GOOD_KEY}\n`);
    expect(told.code, told.stderr).toBe(0);
    expect(readConfig().profiles.odd).toMatchObject({ api: 'socialpub', apiSource: 'detected' });
  });

  it('saves into the --profile named and leaves an existing current profile alone', async () => {
    expect((await login([], GOOD_KEY)).code).toBe(0);
    const r = await login(['--profile', 'second'], OTHER_GOOD_KEY);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`as profile second (key ${maskKey(OTHER_GOOD_KEY)})`);
    const f = readConfig();
    expect(f.current).toBe('default');
    expect(f.profiles.second).toEqual({ apiKey: OTHER_GOOD_KEY, baseUrl: server.baseUrl, api: 'socialpub', apiSource: 'detected' });
  });

  it('a login into a profile that had another key names the key it replaced; the same key again, nothing', async () => {
    expect((await login([], GOOD_KEY)).code).toBe(0);
    const again = await login([], GOOD_KEY);
    expect(again.stderr).toContain(`as profile default (key ${maskKey(GOOD_KEY)})\n`);
    const r = await login([], OTHER_GOOD_KEY);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`as profile default (key ${maskKey(OTHER_GOOD_KEY)}, replacing ${maskKey(GOOD_KEY)})`);
    // With SOCIALPUB_API_KEY set, the stored key is still the one replaced.
    const env = await login([], GOOD_KEY, { SOCIALPUB_API_KEY: 'sk_env_only_key_0000eeee' });
    expect(env.stderr).toContain(`(key ${maskKey(GOOD_KEY)}, replacing ${maskKey(OTHER_GOOD_KEY)})`);
    expect(r.stdout + r.stderr + env.stderr).not.toContain(GOOD_KEY);
    // Not on a terminal: no progress line for a script's log.
    expect(r.stderr).not.toContain('Checking the key');
  });

  it('keeps the profile base URL when --base-url is not given', async () => {
    await openProfileStore(tmp.dir).set('acme', { baseUrl: server.baseUrl, timezone: 'UTC' });
    const r = await runCli(['auth', 'login', '--with-key', '--profile', 'acme'], { configDir: tmp.dir, stdin: GOOD_KEY });
    expect(r.code).toBe(0);
    expect(readConfig().profiles.acme).toEqual({ baseUrl: server.baseUrl, timezone: 'UTC', apiKey: GOOD_KEY, api: 'socialpub', apiSource: 'detected' });
  });

  it('exits 3 on a 401 with the fix, and saves nothing', async () => {
    const r = await login([], BAD_KEY);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/refused the key \(401 UNAUTHORIZED\); nothing was saved/);
    // The fake service listens on 127.0.0.1, where a local sandbox would: its hint, not the dashboard's.
    expect(r.stderr).toMatch(/local sandbox: .*socialpub sandbox --write-profile/);
    // The login line is in the banner only when the sandbox saved no profile: both are said.
    expect(r.stderr).toMatch(/as profile "sandbox" \(then use --profile sandbox\); without it, its banner prints the login line/);
    expect(r.stderr).toMatch(/request id: req_\w+/);
    expect(existsSync(configPath())).toBe(false);
    expect(r.stderr).not.toContain(BAD_KEY);
  });

  it('reports the refusal as a JSON error with status and request id under --json', async () => {
    const r = await login(['--json'], BAD_KEY);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    const last = JSON.parse(r.stderr.trim().split('\n').at(-1)!);
    expect(last.error).toMatchObject({ code: 'UNAUTHORIZED', status: 401, exitCode: 3 });
    expect(last.error.requestId).toBe(sandbox.requests.at(-1)!.requestId);
  });

  it('exits 3 on a 403 ADDON_REQUIRED, pointing at Billing → Add-ons, and saves nothing', async () => {
    const r = await login([], LAPSED_KEY);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/403 ADDON_REQUIRED/);
    expect(r.stderr).toMatch(/buy the API add-on in Settings → Billing → Add-ons/);
    expect(existsSync(configPath())).toBe(false);
  });

  it('keeps the previous key when the new one is refused', async () => {
    await login([], GOOD_KEY);
    expect((await login([], BAD_KEY)).code).toBe(3);
    expect(readConfig().profiles.default.apiKey).toBe(GOOD_KEY);
  });

  it('never repeats a key typed as the value of --with-key (or any unknown --flag=value) in the error', async () => {
    const r = await runCli(['auth', 'login', `--with-key=${GOOD_KEY}`], { configDir: tmp.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("error: unknown option '--with-key=…'");
    const other = await runCli(['auth', 'login', `--token=${GOOD_KEY}`], { configDir: tmp.dir });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("error: unknown option '--token=…'");
    expect(r.stderr + other.stderr + r.stdout + other.stdout).not.toContain(GOOD_KEY.slice(4));
    expect(existsSync(openProfileStore(tmp.dir).path)).toBe(false);
  });

  it('a key piped with its quotes or its "Bearer " prefix: exit 2 saying which, before any request, nothing saved', async () => {
    for (const [stdin, message] of [
      [`"${GOOD_KEY}"\n`, 'the key is wrapped in quotes: give the key alone'],
      [`Bearer ${GOOD_KEY}\n`, 'the key starts with "Bearer ": give the key alone'],
    ] as const) {
      const r = await login([], stdin);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`error: ${message}\n`);
      expect(r.stderr).not.toContain(GOOD_KEY.slice(4));
    }
    expect(requests()).toEqual([]);
    expect(existsSync(configPath())).toBe(false);
  });

  it('a config folder the key could not be saved in is said before the key is read or sent', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    writeFileSync(join(tmp.dir, 'a-file'), 'x');
    const dir = join(tmp.dir, 'a-file', 'socialpub');
    const r = await runCli(['auth', 'login', '--base-url', server.baseUrl, '--with-key', '--max-retries', '0'], { configDir: dir, stdin: GOOD_KEY });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: cannot save the config file .*a-file\/socialpub\/config\.json: a part of .* is a file, not a folder \(ENOTDIR\)/);
    expect(requests()).toEqual([]);
    if (process.platform === 'win32') return;
    // A config.json that is a link (a dotfiles tool) is never written through: said first too.
    const { mkdirSync, symlinkSync } = await import('node:fs');
    const conf = join(tmp.dir, 'conf');
    mkdirSync(conf, { mode: 0o700 });
    writeFileSync(join(tmp.dir, 'dotfiles.json'), '{}', { mode: 0o600 });
    symlinkSync(join(tmp.dir, 'dotfiles.json'), join(conf, 'config.json'));
    const linked = await runCli(['auth', 'login', '--base-url', server.baseUrl, '--with-key', '--max-retries', '0'], { configDir: conf, stdin: GOOD_KEY });
    expect(linked.code).toBe(1);
    expect(linked.stderr).toMatch(/^error: cannot save the config file .*conf\/config\.json: it is a symbolic link/);
    expect(requests()).toEqual([]);
  });

  it('exits 2 naming --with-key when stdin is empty, before any request', async () => {
    const r = await login([], '');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--with-key: nothing arrived on stdin/);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('exits 2 when stdin holds more than the key', async () => {
    const r = await login([], `${GOOD_KEY}\nsecond line\n`);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/more than the key/);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('exits 2 for a base URL that is not http(s)', async () => {
    const r = await runCli(['auth', 'login', '--with-key', '--base-url', 'api.example.com'], { configDir: tmp.dir, stdin: GOOD_KEY });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--base-url: "api.example.com" is not a URL/);
  });

  it.each([['/v1', ''], ['/api/v1/', ''], ['/social/v1', '/social']])('exits 2 for a base URL copied with its API path (%s), naming the root, and sends nothing', async (suffix, root) => {
    const r = await runCli(['auth', 'login', '--with-key', '--base-url', `${server.baseUrl}${suffix}`], { configDir: tmp.dir, stdin: GOOD_KEY });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`ends in an API path: the base URL is the service's root (${server.baseUrl}${root})`);
    expect(r.stderr).toContain(`hint: for example --base-url ${server.baseUrl}${root}\n`);
    expect(sandbox.requests).toHaveLength(0);
    expect(existsSync(configPath())).toBe(false);
  });

  it('the same for SOCIALPUB_BASE_URL', async () => {
    const r = await runCli(['auth', 'login', '--with-key'], { configDir: tmp.dir, stdin: GOOD_KEY, env: { SOCIALPUB_BASE_URL: `${server.baseUrl}/api/v1` } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`SOCIALPUB_BASE_URL: "${server.baseUrl}/api/v1" ends in an API path`);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('never writes SOCIALPUB_API_KEY or SOCIALPUB_BASE_URL', async () => {
    const envKey = 'sk_env_only_key_0000eeee';
    const r = await runCli(['auth', 'login', '--with-key'], {
      configDir: tmp.dir,
      stdin: GOOD_KEY,
      env: { SOCIALPUB_API_KEY: envKey, SOCIALPUB_BASE_URL: server.baseUrl },
    });
    expect(r.code).toBe(0);
    // The key was checked against the environment's base URL, with the key from stdin.
    expect(requests()[0]?.workspace).toBe('demo');
    const text = readFileSync(configPath(), 'utf8');
    expect(text).not.toContain(envKey);
    expect(text).not.toContain(server.baseUrl);
    expect(r.stderr).toMatch(/SOCIALPUB_BASE_URL and was not saved/);
    expect(r.stderr).toMatch(/SOCIALPUB_API_KEY is set/);
  });

  it('shows no key in --debug output', async () => {
    const r = await login(['--debug'], GOOD_KEY);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/debug:/);
    expect(r.stdout + r.stderr).not.toContain(GOOD_KEY);
    expect(r.stdout + r.stderr).not.toContain(GOOD_KEY.slice(0, -4));
  });

  it('prints a JSON summary under --json, key masked', async () => {
    const r = await login(['--json'], GOOD_KEY);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ profile: 'default', baseUrl: server.baseUrl, api: 'socialpub', apiSource: 'detected', key: maskKey(GOOD_KEY), keyStoredIn: configPath(), configPath: configPath(), current: true });
  });
});

describe('auth login with a prompt', () => {
  it('--with-key at a keyboard reads the key with the hidden prompt, not from an echoing terminal', async () => {
    const prompter = answeringPrompter(GOOD_KEY);
    const r = await runCli(['auth', 'login', '--with-key', '--base-url', server.baseUrl, '--no-color'], { configDir: tmp.dir, tty: true, prompter });
    expect(r.code, r.stderr).toBe(0);
    expect(prompter.asked).toEqual([`API key for ${server.baseUrl} (profile default)`]);
    expect(r.stderr).not.toContain('Paste the API key');
    expect(readConfig().profiles.default.apiKey).toBe(GOOD_KEY);
  });

  it('without any base URL, says before the prompt that the key goes to the local sandbox, and how to name the service', async () => {
    const prompter = answeringPrompter('');
    const r = await runCli(['auth', 'login', '--no-color'], { configDir: tmp.dir, tty: true, prompter });
    expect(r.code).toBe(2);
    expect(prompter.asked).toHaveLength(1);
    expect(r.stderr).toContain('No base URL given, so this logs in to the local sandbox at http://127.0.0.1:8787.');
    expect(r.stderr).toContain('socialpub auth login --base-url <its URL>');
    const named = await runCli(['auth', 'login', '--no-color', '--base-url', server.baseUrl], { configDir: tmp.dir, tty: true, prompter: answeringPrompter('') });
    expect(named.stderr).not.toContain('No base URL given');
  });

  it('asks for the key with a hidden prompt on a terminal', async () => {
    const prompter = answeringPrompter(`  ${GOOD_KEY}  `);
    const r = await runCli(['auth', 'login', '--base-url', server.baseUrl, '--no-color'], { configDir: tmp.dir, tty: true, prompter });
    expect(r.code).toBe(0);
    expect(prompter.asked).toEqual([`API key for ${server.baseUrl} (profile default)`]);
    expect(readConfig().profiles.default.apiKey).toBe(GOOD_KEY);
    // The check is announced before it starts (a service that does not answer takes minutes of retries).
    expect(r.stderr).toMatch(new RegExp(`^Checking the key against ${server.baseUrl} …\\nLogged in to`, 'm'));
  });

  it('exits 2 telling to use --with-key when there is no terminal', async () => {
    const r = await runCli(['auth', 'login', '--base-url', server.baseUrl], { configDir: tmp.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no terminal to ask for the key on: pass it on stdin with --with-key/);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('does not prompt under --no-input, even on a terminal', async () => {
    const prompter = answeringPrompter(GOOD_KEY);
    const r = await runCli(['auth', 'login', '--no-input', '--base-url', server.baseUrl], { configDir: tmp.dir, tty: true, prompter });
    expect(r.code).toBe(2);
    expect(prompter.asked).toEqual([]);
  });
});

describe('--api-key', () => {
  it('is refused with an explanation, exit 2, and the key is not echoed', async () => {
    const r = await runCli(['auth', 'login', '--api-key', 'sk_live_leaky_0000llll'], { configDir: tmp.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--api-key is not accepted/);
    expect(r.stderr).toMatch(/auth login --with-key/);
    expect(r.stderr).not.toContain('sk_live_leaky');
    expect(existsSync(configPath())).toBe(false);
  });
});

describe('auth login into a config folder that cannot be written', () => {
  it('exits 1 with what is wrong and the fix (SOCIALPUB_CONFIG_DIR), not a raw ENOTDIR', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    writeFileSync(join(tmp.dir, 'a-file'), 'x');
    const r = await runCli(['auth', 'login', '--base-url', server.baseUrl, '--with-key', '--max-retries', '0'], {
      configDir: join(tmp.dir, 'a-file', 'socialpub'),
      stdin: GOOD_KEY,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: cannot save the config file .*a-file\/socialpub\/config\.json: a part of .* is a file, not a folder \(ENOTDIR\); .*SOCIALPUB_CONFIG_DIR/m);
    expect(r.stderr).not.toMatch(/^error: ENOTDIR/m);
    expect(r.stdout + r.stderr).not.toContain(GOOD_KEY);
  });
});

describe('auth login when the key cannot be checked at the default URL (the local sandbox)', () => {
  const url = 'http://127.0.0.1:8787';
  const refusedError = () => new NetworkError(`could not reach ${url}: connect ECONNREFUSED 127.0.0.1:8787 (after 4 attempts)`, { code: 'NETWORK', cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });

  it('a refused connection: how to start the sandbox is said once (by the error), and the way to another service is copy-pasteable', () => {
    const err = refusedError();
    const said = [...uncheckedNotes(url, err, true), ...hintsFor(err, 0, 'default', url)];
    expect(said.filter((line) => line.includes('`socialpub sandbox`'))).toHaveLength(1);
    expect(said).toContain(`could not check the key against ${url}; nothing was saved`);
    expect(said).toContain('to log in to another service than the local sandbox: socialpub auth login --base-url <its URL>');
  });

  it('a failure that says nothing of the sandbox (a 500 from whatever listens there) keeps the sandbox note; another URL only says nothing was saved', () => {
    const err = new ServerError('the service failed (500)', { status: 500 });
    expect(uncheckedNotes(url, err, true)).toEqual([`could not check the key against ${url}; nothing was saved`, `${url} is the local sandbox: start it with \`socialpub sandbox\`, or pass --base-url for another service`]);
    expect(uncheckedNotes('https://api.example.com', refusedError(), false)).toEqual(['could not check the key against https://api.example.com; nothing was saved']);
  });
});
