// A URL wider than a 60-column terminal, in each command that shows one: kept whole on a line of
// its own (a terminal folds it and copies it as one line), never broken into pieces that no
// longer copy. accounts view over real HTTP to a service on 127.0.0.1; posts preview locally.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { answer, misbehavingPerTest } from '../helpers/misbehaving-server.js';
import { displayWidth } from '../../src/output/width.js';

const URL_70 = 'https://www.linkedin.com/feed/update/urn:li:share:7265012345678901234567';
const service = misbehavingPerTest({ SOCIALPUB_API_KEY: 'sk_test_long_urls_terminal_0000', NO_COLOR: '1' });

/** The lines other than the URL's own fit the width; the URL is on a line of its own, whole. */
function expectWholeUrl(stdout: string, url: string): string[] {
  const lines = stdout.trimEnd().split('\n');
  const at = lines.findIndex((l) => l.trim() === url);
  expect(at, stdout).toBeGreaterThan(0);
  for (const line of lines.filter((_, i) => i !== at)) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
  expect(stdout.split(url)).toHaveLength(2);
  return lines.slice(at - 1, at + 1);
}

describe('a URL too wide for a 60-column terminal', () => {
  it('accounts view: a published result keeps its link whole, on a line of its own under the row', async () => {
    const env = await service.serve((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const account = { id: 'acc_1', platform: 'linkedin', username: 'pages', status: 'connected', isDefault: true, tokenExpiresAt: null, connectedAt: '2026-01-01T00:00:00.000Z' };
      if (path === '/v1/social-accounts') return answer(res, 200, { data: [account], meta: { offset: 0, limit: 100, total: 1 } });
      const result = { id: 'res_1', post_id: 'post_1', success: true, platform: 'linkedin', social_account_id: 'acc_1', platform_data: { url: URL_70 }, error: null, created_at: '2026-03-20T12:00:00.000Z' };
      if (path === '/api/v1/post-results') return answer(res, 200, { data: [result], meta: { offset: 0, limit: 100, total: 1 } });
      answer(res, 404, { error: { code: 'NOT_FOUND', message: 'no such route' } });
    });
    const r = await runCli(['accounts', 'view', 'acc_1'], { env, tty: true, columns: 60 });
    expect(r.code, r.stderr).toBe(0);
    const [row, url] = expectWholeUrl(r.stdout, URL_70);
    expect(row).toMatch(/^ {2}✓ res_1 {2}\S.*\S$/);
    expect(url).toMatch(/^ +https:/);
  });

  it('posts preview: a media URL goes whole under its [media N] label', async () => {
    const r = await runCli(['posts', 'preview', '--platform', 'twitter-x', '--text', 'Launch day', '--media', `${URL_70}.jpg`, '--alt', 'the team'], { tty: true, columns: 60, env: { NO_COLOR: '1' } });
    expect(r.code, r.stderr).toBe(0);
    expect(expectWholeUrl(r.stdout, `${URL_70}.jpg`)).toEqual(['  [media 1]', `    ${URL_70}.jpg`]);
  });

  it('posts preview: a media URL that fits stays on its label line', async () => {
    const r = await runCli(['posts', 'preview', '--platform', 'twitter-x', '--text', 'Launch day', '--media', 'https://e.x/roof.jpg', '--alt', 'the team'], { tty: true, columns: 60, env: { NO_COLOR: '1' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('  [media 1] https://e.x/roof.jpg\n');
  });
});
