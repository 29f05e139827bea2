// `auth login` tells the two APIs apart against the real sandbox (which serves both, so it must
// come out socialpub) and against the sandbox behind a proxy that hides socialpub's routes (a
// service that speaks only SyncPostly's); --api skips the telling; `auth status` says which and
// how it was chosen. Then a platform with several accounts, asked on a terminal.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { openProfileStore } from '../../src/config/store.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { cliEnv, testSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { proxyWithout } from '../helpers/route-proxy.js';
import { ScriptedPrompter } from '../helpers/scripted-prompter.js';

let sb: TestSandbox;
/** SyncPostly alone: socialpub's /v1 routes answer a framework's plain 404 page. */
let spOnly: { url: string; close(): Promise<void> };
/** Neither API: every posts route is missing. */
let neither: { url: string; close(): Promise<void> };
let tmp: { dir: string; cleanup: () => void };
const NOT_FOUND = { status: 404, body: '<html><body>Not Found</body></html>', type: 'text/html' };

beforeAll(async () => {
  sb = await testSandbox();
  spOnly = await proxyWithout(sb.url, (req) => (req.url ?? '').startsWith('/v1/'), NOT_FOUND);
  neither = await proxyWithout(sb.url, (req) => /posts/.test(req.url ?? ''), NOT_FOUND);
});
afterAll(async () => {
  await Promise.all([spOnly.close(), neither.close()]);
  await sb.close();
});
beforeEach(() => {
  tmp = tempConfigDir();
  sb.requests.length = 0;
});
afterEach(() => tmp.cleanup());

const login = (baseUrl: string, extra: string[] = [], env: Record<string, string> = {}) =>
  runCli(['auth', 'login', '--base-url', baseUrl, '--with-key', '--max-retries', '0', ...extra], { configDir: tmp.dir, stdin: sb.key('demo'), env });
const saved = () => JSON.parse(readFileSync(openProfileStore(tmp.dir).path, 'utf8')).profiles.default;
const asked = () => sb.requests.map((r) => `${r.method} ${r.path}${r.query ? `?${r.query}` : ''}`);
const status = (env: Record<string, string> = {}) => runCli(['auth', 'status', '--max-retries', '0'], { configDir: tmp.dir, env });

describe('auth login tells the APIs apart', () => {
  it('the sandbox serves both: one read of socialpub\'s posts settles it as socialpub', async () => {
    const r = await login(sb.url);
    expect(r.code, r.stderr).toBe(0);
    expect(asked()).toEqual(['GET /v1/posts?limit=1']);
    expect(saved()).toMatchObject({ api: 'socialpub', apiSource: 'detected' });
    const s = await status();
    expect(s.stdout).toMatch(/speaks\s+socialpub's own API \(detected at login\)/);
  });

  it('a service without socialpub\'s routes but with SyncPostly\'s comes out syncpostly, said as experimental', async () => {
    const r = await login(spOnly.url, ['--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(asked()).toEqual(['GET /api/v1/posts?limit=1']);
    expect(saved()).toMatchObject({ api: 'syncpostly', apiSource: 'detected' });
    expect(r.stderr).toContain("API: SyncPostly's published API (experimental; detected at login)");
    expect(JSON.parse(r.stdout)).toMatchObject({ api: 'syncpostly', apiSource: 'detected' });
    // auth status checks the key with SyncPostly's own read, and says how the API was chosen.
    sb.requests.length = 0;
    const s = await status();
    expect(s.code, s.stderr).toBe(0);
    expect(asked()).toEqual(['GET /api/v1/posts?limit=1']);
    expect(s.stdout).toMatch(/speaks\s+SyncPostly's published API \(experimental; detected at login\)/);
    const json = await runCli(['auth', 'status', '--json'], { configDir: tmp.dir, env: { SOCIALPUB_API: 'socialpub' } });
    expect(JSON.parse(json.stdout)).toMatchObject({ api: 'socialpub', apiSource: 'env', valid: true });
  });

  it('--api syncpostly skips the telling: one read of SyncPostly\'s posts, saved as set', async () => {
    const r = await login(sb.url, ['--api', 'syncpostly']);
    expect(r.code, r.stderr).toBe(0);
    expect(asked()).toEqual(['GET /api/v1/posts?limit=1']);
    expect(saved()).toMatchObject({ api: 'syncpostly', apiSource: 'set' });
    expect((await status()).stdout).toMatch(/speaks\s+SyncPostly's published API \(experimental; set with auth login --api\)/);
  });

  it('a misspelt --api is exit 2 before the key is read or anything sent', async () => {
    const r = await login(sb.url, ['--api', 'syncpost']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--api: "syncpost" is not a known API');
    expect(r.stderr).toContain('socialpub, syncpostly');
    expect(sb.requests).toEqual([]);
  });

  it('SOCIALPUB_API is used for the check but not saved, and says so', async () => {
    const r = await login(sb.url, [], { SOCIALPUB_API: 'syncpostly' });
    expect(r.code, r.stderr).toBe(0);
    expect(asked()).toEqual(['GET /api/v1/posts?limit=1']);
    expect(saved().api).toBeUndefined();
    expect(r.stderr).toContain('the API came from SOCIALPUB_API and was not saved');
  });

  it('a refused key is exit 3 at the first read; a service that speaks neither is exit 2; nothing saved', async () => {
    const bad = await runCli(['auth', 'login', '--base-url', spOnly.url, '--with-key', '--max-retries', '0'], { configDir: tmp.dir, stdin: 'sk_test_bad_0123456789nope' });
    expect(bad.code).toBe(3);
    const none = await login(neither.url);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("speaks neither socialpub's API nor SyncPostly's (/v1/posts answered 404; /api/v1/posts answered 404); nothing was saved");
    expect(none.stderr).toContain('--api socialpub');
    expect(existsSync(openProfileStore(tmp.dir).path)).toBe(false);
  });
});

describe('a platform with several accounts in SyncPostly\'s API', () => {
  const env = () => cliEnv(sb, 'demo', { SOCIALPUB_API: 'syncpostly' });
  it('on a terminal asks which, and the post goes to the account chosen', async () => {
    const accounts = JSON.parse((await runCli(['accounts', 'list', '--platform', 'linkedin', '--json'], { env: env() })).stdout) as Array<{ id: string; username: string }>;
    expect(accounts).toHaveLength(2);
    const careers = accounts.find((a) => a.username.endsWith('careers'))!;
    const prompter = new ScriptedPrompter([careers.id]);
    const r = await runCli(['posts', 'create', '--platform', 'linkedin', '--text', 'We are hiring', '--json'], { env: env(), tty: true, prompter });
    expect(r.code, r.stderr).toBe(0);
    expect(prompter.asked).toEqual(['linkedin has 2 accounts and SyncPostly names no default: publish to which?']);
    const post = JSON.parse(r.stdout);
    expect(post.payloads.linkedin.accounts).toEqual([careers.id]);
    // And SyncPostly's own read of it names that account alone.
    const dto = JSON.parse((await runCli(['api', `/api/v1/posts/${post.id}`], { env: env() })).stdout);
    expect(dto.social_accounts).toEqual([careers.id]);
  });

  it('without a terminal: exit 2 naming each candidate as an --account value, nothing created', async () => {
    const before = sb.requests.filter((q) => q.method === 'POST').length;
    const r = await runCli(['posts', 'create', '--platform', 'linkedin', '--text', 'We are hiring'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/one of: --account linkedin:@socialpub-demo, --account linkedin:@socialpub-demo-careers/);
    expect(sb.requests.filter((q) => q.method === 'POST').length).toBe(before);
  });
});
