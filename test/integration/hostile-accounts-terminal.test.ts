// What a service sends about its accounts and posts, shown on a terminal by the commands that
// show it there: the confirmation before a post is sent (which account each platform goes to) and
// `posts view` (each text counted against its platform's limit). Over real HTTP to a service on
// 127.0.0.1 whose handles and texts carry terminal escapes.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { ScriptedPrompter } from '../helpers/scripted-prompter.js';
import { answer, misbehavingPerTest, type Handler } from '../helpers/misbehaving-server.js';
import { HOSTILE } from '../helpers/hostile-server.js';
import { displayWidth } from '../../src/output/width.js';
import { judgeText } from '../../src/wire/text-limits.js';

const KEY = 'sk_test_hostile_accounts_terminal_00';
/** Clears the screen, turns red, opens a link, reverses the line, forges a CI command on a line of its own. */
const EVIL = `${HOSTILE}\r\n::warning::forged\u202eevil\u0000`;

// No colour of ours: every escape left in what is written came from the service.
const service = misbehavingPerTest({ SOCIALPUB_API_KEY: KEY, NO_COLOR: '1' });
const serve = (handler: Handler) => service.serve(handler);

const account = (id: string, username: string, isDefault: boolean) => ({
  id,
  platform: 'linkedin',
  username,
  displayName: EVIL,
  status: 'connected',
  isDefault,
  tokenExpiresAt: null,
  connectedAt: '2026-01-01T00:00:00.000Z',
});

/** Anything a terminal acts on: ESC, BEL, C1, NUL, a bare CR, a bidi override. */
const RAW_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/;

describe('the confirmation before sending, on a terminal', () => {
  it("shows a platform's default account with the service's escapes made visible, wrapped to the terminal", async () => {
    const env = await serve((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/v1/social-accounts') return answer(res, 200, { data: [account('acc_1', `pages${EVIL}`, true), account('acc_2', 'careers', false)], meta: { offset: 0, limit: 100, total: 2 } });
      answer(res, 404, { error: { code: 'NOT_FOUND', message: 'no such route' } });
    });
    const prompter = new ScriptedPrompter(['Hello pages', '', 'cancel']);
    const r = await runCli(['posts', 'create', '--platform', 'linkedin'], { env, tty: true, columns: 60, prompter });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('cancelled: nothing was sent');
    expect(r.stderr).toContain('linkedin → @pages\\u001b');
    // Wrapped between words (and between the escapes of the handle, never inside one).
    expect(r.stderr.replace(/\s+/g, ' ')).toContain('the default of 2');
    expect(r.stderr).not.toMatch(/\\u[0-9a-f]{0,3}\n|\\\n/);
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    // The line of the account is wrapped under its label, not by the terminal at column 0.
    for (const line of r.stderr.split('\n')) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
    expect(r.stderr).toMatch(/\n {15}\S/);
    // Nothing was sent: only the accounts were read.
    expect(service.server.requests.map((q) => `${q.method} ${new URL(q.url, 'http://x').pathname}`)).toEqual(['GET /v1/social-accounts']);
  });
});

describe('posts view', () => {
  it("counts each text as the service sent it, not as its escapes are shown (\\u001b is one character, not six)", async () => {
    const text = `Shalom \u05e9\u05dc\u05d5\u05dd\u200f ${HOSTILE}`;
    const part = `part two\u200f${HOSTILE}`;
    const comment = `first\u200f${HOSTILE}`;
    const alt = `a photo\u200f${HOSTILE}`;
    const post = {
      id: 'post_1',
      status: 'draft',
      payloads: { 'twitter-x': { text, thread: [{ text: part }], firstComment: comment, media: [{ url: 'https://cdn.example/a.jpg', alt }], accounts: ['acc_1'] } },
      scheduledAt: null,
      createdAt: '2026-03-20T12:00:00.000Z',
      updatedAt: '2026-03-20T12:00:00.000Z',
    };
    const env = await serve((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/v1/posts/post_1') return answer(res, 200, post);
      if (path === '/v1/social-accounts') return answer(res, 200, { data: [{ ...account('acc_1', `pages${EVIL}`, true), platform: 'twitter-x' }], meta: { offset: 0, limit: 100, total: 1 } });
      answer(res, 200, { data: [], meta: { offset: 0, limit: 100, total: 0 } });
    });
    const r = await runCli(['posts', 'view', 'post_1'], { env, tty: true, columns: 200 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    expect(r.stdout).toContain('\\u001b');
    const counted = (s: string) => judgeText('twitter-x', s).count.length;
    expect(r.stdout).toContain(`twitter-x  ${counted(text)} of 280`);
    expect(r.stdout).toContain(`thread part 2 of 2  ${counted(part)} of 280`);
    expect(r.stdout).toContain(`first comment (${[...comment].length} of 280)`);
    expect(r.stdout).toContain(`alt (${[...alt].length} of 1000)`);
    // The target account's handle on its own line, its line break shown.
    expect(r.stdout).toMatch(/^ {2}→ @pages\\u001b.*\\n::warning::forged.*\(default\)$/m);
  });
});

describe('results stats --by account on a narrow terminal', () => {
  it('keeps each account\'s platform and whole handle, dropping the rate first: two accounts never read as one row', async () => {
    const handles = ['acme-careers-and-jobs-europe', 'acme-careers-and-jobs-americas'];
    const rows = handles.flatMap((username, a) =>
      [0, 1, 2].map((n) => ({
        id: `res_${a}${n}`,
        post_id: `post_${n}`,
        success: n > 0,
        platform: 'linkedin',
        social_account_id: `acc_${a}`,
        platform_data: n > 0 ? { id: `li_${a}${n}`, url: `https://www.linkedin.com/feed/update/${a}${n}`, username } : { id: null, url: null, username },
        error: n > 0 ? null : { code: 'API_RATE_LIMIT', message: 'slow down' },
        created_at: `2026-03-20T12:0${a}:0${n}.000Z`,
      })),
    );
    const env = await serve((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/api/v1/post-results') return answer(res, 200, { data: rows, meta: { offset: 0, limit: 100, total: rows.length } });
      answer(res, 404, { error: { code: 'NOT_FOUND', message: 'no such route' } });
    });
    const r = await runCli(['results', 'stats', '--by', 'account'], { env, tty: true, columns: 60 });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
    for (const h of handles) expect(lines.filter((l) => new RegExp(`^linkedin +@${h} +3 +1\\b`).test(l)), r.stdout).toHaveLength(1);
  });
});

describe('accounts view', () => {
  it("keeps each value from the service on its label's line: a line break in a handle or an error is shown as \\n", async () => {
    const failure = (n: number) => ({
      id: `res_${n}`,
      post_id: 'post_1',
      success: false,
      platform: 'linkedin',
      social_account_id: 'acc_1',
      platform_data: null,
      error: { code: `API_DOWN${EVIL}`, message: `down${EVIL}` },
      created_at: `2026-03-20T12:00:0${n}.000Z`,
    });
    const env = await serve((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/v1/social-accounts') return answer(res, 200, { data: [account('acc_1', `pages${EVIL}`, true)], meta: { offset: 0, limit: 100, total: 1 } });
      if (path === '/api/v1/post-results') return answer(res, 200, { data: [failure(2), failure(1)], meta: { offset: 0, limit: 100, total: 2 } });
      answer(res, 404, { error: { code: 'NOT_FOUND', message: 'no such route' } });
    });
    const r = await runCli(['accounts', 'view', 'acc_1'], { env, tty: true, columns: 2000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    const lines = r.stdout.trimEnd().split('\n');
    // The handle and name, six labelled values, a blank line, "recent results (2):" and the two results.
    expect(lines, r.stdout).toHaveLength(11);
    expect(lines[0]).toMatch(/^linkedin:@pages\\u001b.*\\n::warning::forged/);
    expect(lines[6]).toMatch(/^last failure +API_DOWN\\u001b/);
    expect(lines.slice(9).every((l) => l.startsWith('  ✗ res_'))).toBe(true);
  });
});

describe('an unknown --account or accounts view reference', () => {
  it("names the workspace's accounts in its hint each on the hint's line: a line break in a handle is shown as \\n, never starting a line", async () => {
    const env = await serve((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/v1/social-accounts') return answer(res, 200, { data: [account('acc_1', `pages${EVIL}`, true), account('acc_2', 'careers', false)], meta: { offset: 0, limit: 100, total: 2 } });
      answer(res, 200, { data: [], meta: { offset: 0, limit: 100, total: 0 } });
    });
    // Piped, as in a CI log: each line of stderr is what a runner reads.
    const r = await runCli(['accounts', 'view', 'acc_9'], { env, columns: 2000 });
    // An account nobody has is not found (4), as accounts view says of any unknown reference.
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    // Both accounts on the hint's one line (`.` stops at a line break), the handle's line break shown.
    expect(r.stderr).toMatch(/hint: .*linkedin:@pages\\u001b.*\\n::warning::forged.*, linkedin:@careers/);
    expect(r.stderr.split('\n').filter((l) => /^\s*(::|\\u003a:)/.test(l))).toEqual([]);
  });
});

describe('posts view of a published post whose first comment failed', () => {
  it("keeps the service's reason on the ✗ line: its line breaks shown, no line of it starting a runner command", async () => {
    const post = { id: 'post_1', status: 'published', payloads: { linkedin: { text: 'Hello', firstComment: 'More soon' } }, scheduledAt: '2026-03-20T12:00:00.000Z', createdAt: '2026-03-20T11:00:00.000Z', updatedAt: '2026-03-20T12:00:00.000Z' };
    const result = {
      id: 'res_1',
      post_id: 'post_1',
      success: true,
      platform: 'linkedin',
      social_account_id: null,
      platform_data: { id: 'li_1', url: 'https://www.linkedin.com/feed/update/1', username: 'acme' },
      error: null,
      first_comment: { status: 'failed', error: { code: 'COMMENT_BLOCKED', message: `blocked\r\n::add-mask::secret\r\nbye` } },
      created_at: '2026-03-20T12:00:01.000Z',
    };
    const env = await serve((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/v1/posts/post_1') return answer(res, 200, post);
      if (path === '/api/v1/post-results') return answer(res, 200, { data: [result], meta: { offset: 0, limit: 100, total: 1 } });
      answer(res, 200, { data: [], meta: { offset: 0, limit: 100, total: 0 } });
    });
    // Piped, as in a CI log: the lines a runner would read.
    const r = await runCli(['posts', 'view', 'post_1', '-o', 'table'], { env, columns: 200 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('✗ first comment not posted: COMMENT_BLOCKED: blocked\\n::add-mask::secret\\nbye');
    expect(r.stdout.split('\n').filter((l) => /^\s*(::|\\u003a:)/.test(l))).toEqual([]);
  });
});

describe('accounts list footer', () => {
  it('says there are no results yet rather than "among the newest 0 results", and "the newest result" for one', async () => {
    let results: unknown[] = [];
    const env = await serve((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/v1/social-accounts') return answer(res, 200, { data: [account('acc_1', 'pages', true)], meta: { offset: 0, limit: 100, total: 1 } });
      if (path === '/api/v1/post-results') return answer(res, 200, { data: results, meta: { offset: 0, limit: 100, total: results.length } });
      answer(res, 404, { error: { code: 'NOT_FOUND', message: 'no such route' } });
    });
    const none = await runCli(['accounts', 'list'], { env, tty: true, columns: 120 });
    expect(none.code, none.stderr).toBe(0);
    expect(none.stderr).toContain('1 account · no results yet: no last success or failure to show');
    expect(none.stderr).not.toContain('newest 0');
    results = [{ id: 'res_1', post_id: 'post_1', success: true, platform: 'linkedin', social_account_id: 'acc_1', platform_data: { id: 'li_1', url: 'https://www.linkedin.com/feed/update/1', username: 'pages' }, error: null, created_at: '2026-03-20T12:00:00.000Z' }];
    const one = await runCli(['accounts', 'list'], { env, tty: true, columns: 120 });
    expect(one.stderr).toContain('last success and failure among the newest result (back to');
  });
});
