// Messages that name the fix, against the sandbox: a rate limit points at the flag
// that was the limit, a not-found says where the key came from, a wait that times out before the
// post is due says when it is due, and a refusal says its fix once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { createManualClock, type ManualClock } from '../../src/sandbox/clock.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { advancingClock, api, keyOf, schedulePost, START, type Sandbox } from './results-support.js';

type Sb = Sandbox & { clock: ManualClock };
let sb: Sb;
beforeAll(async () => {
  const clock = createManualClock(START);
  sb = Object.assign(await startSandbox({ port: 0, seed: 12, clock, fixtures: 0, failureRate: 0, writeLimit: 2, readLimit: 1000 }), { clock });
});
afterAll(async () => {
  await sb?.close();
});

const envFor = (name: 'demo' | 'other' | 'lapsed', extra: Record<string, string> = {}) => ({ SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: keyOf(sb, name), TZ: 'Europe/Paris', ...extra });
const hints = (stderr: string) => stderr.split('\n').filter((l) => l.trim().startsWith('hint:'));

describe('a 429 points at the flag that was the limit', () => {
  it('--max-retries when retries ran out, --max-wait when the wait was too long', async () => {
    // Use up the 2 writes of the hour in the "other" workspace.
    for (let i = 0; i < 2; i++) expect((await api(sb, keyOf(sb, 'other'), 'POST', '/v1/posts', { payloads: { bluesky: { text: `fill ${i}` } } })).status).toBe(201);
    const clock = advancingClock(sb.clock);
    const byRetries = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'hi', '--max-retries', '0', '--max-wait', '2h'], { env: envFor('other'), clock });
    expect(byRetries.code).toBe(5);
    expect(hints(byRetries.stderr).join('\n')).toMatch(/--max-retries/);
    expect(byRetries.stderr).not.toMatch(/raise --max-wait/);
    const byWait = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'hi', '--max-wait', '1m'], { env: envFor('other'), clock });
    expect(byWait.code).toBe(5);
    expect(hints(byWait.stderr).join('\n')).toMatch(/raise --max-wait/);
    expect(byWait.stderr).not.toMatch(/--max-retries/);
    const byBoth = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'hi', '--max-wait', '1m', '--max-retries', '0'], { env: envFor('other'), clock });
    expect(hints(byBoth.stderr).join('\n')).toMatch(/raise --max-wait, and --max-retries \(the client gave up after 1 attempt\)/);
  });
});

describe('not found says where the key came from', () => {
  it('results get and results wait name SOCIALPUB_API_KEY when the key came from it', async () => {
    const get = await runCli(['results', 'get', 'res_nope'], { env: envFor('demo') });
    expect(get.code).toBe(4);
    expect(get.stderr).toContain('no result res_nope in the workspace of the key in SOCIALPUB_API_KEY');
    expect(get.stderr).not.toMatch(/profile default/);
    const wait = await runCli(['results', 'wait', '--post', 'post_nope', '--timeout', '3s'], { env: envFor('demo'), clock: advancingClock(sb.clock) });
    expect(wait.code).toBe(4);
    expect(wait.stderr).toContain('no post post_nope in the workspace of the key in SOCIALPUB_API_KEY');
  });

  it('names the profile when the key is the profile\'s', async () => {
    const { dir, cleanup } = tempConfigDir();
    try {
      const login = await runCli(['auth', 'login', '--base-url', sb.url, '--with-key', '--profile', 'mgr'], { configDir: dir, stdin: keyOf(sb, 'demo') });
      expect(login.code, login.stderr).toBe(0);
      const get = await runCli(['results', 'get', 'res_nope', '--profile', 'mgr'], { configDir: dir });
      expect(get.code).toBe(4);
      expect(get.stderr).toContain('no result res_nope in the workspace of profile mgr');
    } finally {
      cleanup();
    }
  });
});

describe('a wait that ends before the post is due', () => {
  it('says when it is due, in the user zone and from now', async () => {
    const post = await schedulePost(sb, keyOf(sb, 'demo'), ['bluesky'], 3600_000);
    const due = new Date(sb.clock.now() + 3600_000);
    const hhmm = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(due);
    const r = await runCli(['results', 'wait', '--post', post.id, '--timeout', '3s'], { env: envFor('demo'), clock: advancingClock(sb.clock) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`post ${post.id} is due at ${hhmm} (Europe/Paris), in 1 hour`);
    expect(hints(r.stderr).join('\n')).toMatch(/--timeout 6\dm/);
  });
});

describe('one message, one fix', () => {
  it('a 403 without the add-on names Billing → Add-ons once', async () => {
    const r = await runCli(['results', 'list'], { env: envFor('lapsed') });
    expect(r.code).toBe(3);
    expect(r.stderr.match(/Billing → Add-ons/g)).toHaveLength(1);
    expect(r.stderr.match(/add-on is not active/g)).toHaveLength(1);
  });

  it('no hint repeats the message', async () => {
    const r = await runCli(['api', '-X', 'POST', '/v1/posts', '--input', '-'], { env: envFor('demo'), stdin: '{"payloads":{"bluesky":{}}}' });
    expect(r.code).toBe(2);
    const message = r.stderr.split('\n')[0]!.replace(/^error: /, '');
    // The message itself names the field and what it needs, so the field is named once in all.
    expect(message).toBe('the service refused the request: payloads.bluesky.text: required: a string');
    expect(r.stderr.match(/payloads\.bluesky\.text/g)).toHaveLength(1);
    // Any hint (there may be none) adds to the message rather than repeating it.
    for (const h of hints(r.stderr)) expect(message).not.toContain(h.replace(/^\s*hint: /, ''));
  });
});
