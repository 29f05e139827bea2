// A result row whose platform_data.id, url and username are null (SyncPostly's PostResultDto
// allows each; a failed row has no URL): the row is kept, its cells are empty, and `--json`
// shows the nulls as sent. In this contract's own dialect too.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { answer, startMisbehavingServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { createClient } from '../../src/client/index.js';

const KEY = 'sk_test_null_platform_data_000000';
let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const row = {
  id: 'res_null',
  post_id: 'post_1',
  success: true,
  social_account_id: 'acc_1',
  platform: 'bluesky',
  platform_data: { id: null, url: null, username: null },
  error: null,
  created_at: '2026-11-20T12:00:00.000Z',
};

describe('null platform_data fields (socialpub dialect)', () => {
  it('results list keeps the row, shows empty cells, and --json the nulls', async () => {
    server = await startMisbehavingServer((req, res) => {
      if (req.url?.startsWith('/api/v1/post-results/res_null')) return answer(res, 200, row);
      answer(res, 200, { data: [row], meta: { offset: 0, limit: 100, total: 1 } });
    });
    const env = { SOCIALPUB_BASE_URL: server.url, SOCIALPUB_API_KEY: KEY };
    const tsv = await runCli(['results', 'list', '--post', 'post_1', '-o', 'tsv', '--fields', 'id,platform,platform_data.username,platform_data.url'], { env });
    expect(tsv.code, tsv.stderr).toBe(0);
    expect(tsv.stdout.replace(/\n$/, '').split('\n').at(-1)).toBe('res_null\tbluesky\t\t');
    const json = await runCli(['results', 'get', 'res_null', '--json'], { env });
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as typeof row).platform_data).toEqual({ id: null, url: null, username: null });
  });
});

describe('null platform_data fields and a null account (SyncPostly dialect)', () => {
  it('every documented null is kept; the platform comes from the account, none for a row without one', async () => {
    const spRow = { id: 'res_null', post_id: 'post_1', success: false, social_account_id: 'acc-bs', platform_data: { id: null, url: null, username: null }, error: { code: 'API_RATE_LIMIT', message: 'Rate limit exceeded' } };
    const orphan = { id: 'res_orphan', post_id: 'post_1', success: true, social_account_id: null, platform_data: { id: 'x1', url: null, username: null }, error: null };
    const seen: string[] = [];
    server = await startMisbehavingServer((req, res) => {
      seen.push(req.url ?? '');
      if (req.url?.startsWith('/api/v1/social-accounts')) return answer(res, 200, { data: [{ id: 'acc-bs', platform: 'bluesky', username: 'b', display_name: null }], meta: { offset: 0, limit: 100, total: 1 } });
      answer(res, 200, { data: [spRow, orphan], meta: { offset: 0, limit: 10, total: 2 } });
    });
    const client = createClient({ baseUrl: server.url, apiKey: KEY, dialect: 'syncpostly' });
    const page = await client.results.list({ postId: ['post_1'], socialAccountId: ['acc-bs'] });
    // No social_account_id parameter is documented: the rows are filtered here.
    expect(seen[0]).toBe('/api/v1/post-results?post_id=post_1');
    expect(page.data.data).toEqual([{ ...spRow, platform: 'bluesky' }]);
    const all = [];
    for await (const r of client.results.iterate({ postId: ['post_1'] })) all.push(r);
    expect(all.map((r) => [r.id, r.platform, r.platform_data])).toEqual([
      ['res_null', 'bluesky', { id: null, url: null, username: null }],
      ['res_orphan', undefined, { id: 'x1', url: null, username: null }],
    ]);
    await client.close();
  });
});
