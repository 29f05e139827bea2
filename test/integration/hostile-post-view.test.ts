// A post whose fields no honest service sends, read by `posts view` in both dialects: a scheduled
// time that is not a time, a media URL whose escapes do not decode; and a create that fails in the
// SyncPostly dialect, whose advice must not name a flag that dialect refuses.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { answer, misbehavingPerTest, type Handler } from '../helpers/misbehaving-server.js';

const KEY = 'sk_test_hostile_post_view_000000000';

const service = misbehavingPerTest({ SOCIALPUB_API_KEY: KEY });
const serve = (handler: Handler, api: 'socialpub' | 'syncpostly') => service.serve(handler, { SOCIALPUB_API: api });

const BAD_TIME = 'next tuesday-ish';
const BAD_URL = 'https://cdn.example/%E0%A4%A.jpg';

/** Ours: a published post, its time and its media as given. */
const ourPost = { id: 'post_1', status: 'published', payloads: { bluesky: { text: 'hi', media: [{ url: BAD_URL }] } }, scheduledAt: BAD_TIME, createdAt: '2026-03-20T12:00:00.000Z' };
/** SyncPostly's: the same post, its account on bluesky. */
const spPost = { id: 'post_1', caption: 'hi', social_accounts: ['acc_1'], scheduled_at: BAD_TIME, status: 'posted', media: [], platform_configurations: { bluesky: { media_urls: [BAD_URL] } } };
const spAccounts = { data: [{ id: 'acc_1', platform: 'bluesky', username: 'ann', display_name: null }], meta: { offset: 0, limit: 100, total: 1 } };
const emptyList = { data: [], meta: { offset: 0, limit: 100, total: 0 } };

const routes: Record<'socialpub' | 'syncpostly', Handler> = {
  socialpub: (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/v1/posts/post_1') return answer(res, 200, ourPost);
    answer(res, 200, emptyList);
  },
  syncpostly: (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/api/v1/posts/post_1') return answer(res, 200, spPost);
    if (path === '/api/v1/social-accounts') return answer(res, 200, spAccounts);
    answer(res, 200, emptyList);
  },
};

describe.each(['socialpub', 'syncpostly'] as const)('posts view against a hostile service (%s dialect)', (api) => {
  it('a scheduled time that is not a time is shown as sent, never as NaN', async () => {
    const env = await serve(routes[api], api);
    const r = await runCli(['posts', 'view', 'post_1', '--no-input'], { env: { ...env, TZ: 'UTC' }, columns: 200 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('NaN');
    expect(r.stdout).toContain(BAD_TIME);
  });

  it('a media URL whose percent-escapes do not decode is named as it is, not a crash', async () => {
    const env = await serve(routes[api], api);
    const r = await runCli(['posts', 'view', 'post_1', '--no-input'], { env, columns: 200 });
    expect(r.stderr).not.toMatch(/URIError|URI malformed/);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('media: %E0%A4%A.jpg');
  });
});

describe('a create whose answer fails, in the SyncPostly dialect', () => {
  it('does not advise --idempotency-key, which this dialect refuses, but says to look before re-running', async () => {
    const env = await serve((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/api/v1/social-accounts') return answer(res, 200, spAccounts);
      answer(res, 503, { error: 'busy' });
    }, 'syncpostly');
    const r = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'hi', '--max-retries', '0', '--no-input'], { env });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain('--idempotency-key');
    expect(r.stderr).toMatch(/may have been created.*socialpub posts list/);
  });
});

describe('a single object of the wrong shape, in the SyncPostly dialect (bare or in `data`)', () => {
  it.each([
    ['bare', { id: 7, status: 'posted' }, /^error: unexpected response from GET \/api\/v1\/posts\/post_1: id: expected string, got number/m],
    ['wrapped', { data: { id: 'post_1', status: 5 } }, /^error: unexpected response from GET \/api\/v1\/posts\/post_1: data\.status: expected string, got number/m],
  ])('%s: names the field and what came, not "Invalid input"', async (_name, body, said) => {
    const env = await serve((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/api/v1/social-accounts') return answer(res, 200, spAccounts);
      answer(res, 200, body);
    }, 'syncpostly');
    const r = await runCli(['posts', 'view', 'post_1', '--no-input'], { env });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toContain('Invalid input');
    expect(r.stderr).toMatch(said);
  });
});
