// A service without the accounts route (405, or a framework's plain 404 page): every command that
// touches accounts still works, and `accounts list` derives the accounts from recent results and
// says that it did. The sandbox behind a proxy that lacks only that route, over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { withoutAccountsRoute } from '../helpers/route-proxy.js';
import { testSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { allRows, as } from './sandbox-support.js';

let sb: TestSandbox;
let proxy: { url: string; close(): Promise<void> };
let plain404: { url: string; close(): Promise<void> };
let postId: string;

beforeAll(async () => {
  sb = await testSandbox({ fixtures: 400, failureRate: 0.3, seed: 12, readLimit: 1_000_000, writeLimit: 100_000 });
  proxy = await withoutAccountsRoute(sb.url);
  plain404 = await withoutAccountsRoute(sb.url, true);
  const demo = as(sb, 'demo');
  const r = await demo.post('/v1/schedule', { payloads: { 'twitter-x': { text: 'Hello' }, linkedin: { text: 'Hello' } }, scheduledAt: new Date(sb.clock.now() + 1000).toISOString() });
  postId = r.body.id;
  await sb.clock.advance(1000);
});
afterAll(async () => {
  await proxy.close();
  await plain404.close();
  await sb.close();
});

const cli = (args: string[], base = proxy.url) => runCli(args, { env: { SOCIALPUB_BASE_URL: base, SOCIALPUB_API_KEY: sb.key('demo') } });

describe('a service without GET /v1/social-accounts', () => {
  it('accounts list derives the accounts from recent results, says so, and never merges two accounts', async () => {
    for (const base of [proxy.url, plain404.url]) {
      const r = await cli(['accounts', 'list', '--json'], base);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('this service has no accounts route');
      expect(r.stderr).toContain('derived from the newest');
      const rows = JSON.parse(r.stdout) as { id: string; platform: string; username: string; status: string | null; health: { lastSuccess: unknown } }[];
      // The oracle: the distinct account ids among the newest 500 results, each with its platform and handle.
      const newest = (await allRows<{ social_account_id: string | null; platform: string; platform_data: { username: string } }>(sb, sb.key('demo'), '/api/v1/post-results')).rows.slice(0, 500);
      const ids = new Set(newest.map((x) => x.social_account_id).filter(Boolean));
      expect(new Set(rows.map((a) => a.id))).toEqual(ids);
      for (const a of rows) {
        const seen = newest.find((x) => x.social_account_id === a.id)!;
        expect([a.platform, a.username, a.status]).toEqual([seen.platform, seen.platform_data.username, null]);
      }
    }
  });

  it('--account resolves against the derived accounts; posts, results, view, wait and retry still work', async () => {
    const create = await cli(['posts', 'create', '--account', 'twitter-x:@socialpub_demo', '--text', 'Via derived', '--json']);
    expect(create.code, create.stderr).toBe(0);
    expect(JSON.parse(create.stdout).payloads['twitter-x'].accounts).toHaveLength(1);
    const list = await cli(['results', 'list', '--account', 'linkedin:@socialpub-demo', '--json', '--limit', '5']);
    expect(list.code, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { platform: string }[]).every((x) => x.platform === 'linkedin')).toBe(true);
    const view = await cli(['posts', 'view', postId]);
    expect(view.code, view.stderr).toBe(0);
    expect(view.stdout).toContain('twitter-x');
    const own = (await as(sb, 'demo').get(`/api/v1/post-results?post_id=${postId}`)).body.data as { success: boolean }[];
    const anyFailed = own.some((x) => !x.success);
    const wait = await cli(['results', 'wait', '--post', postId, '--timeout', '10s']);
    expect(wait.code, wait.stderr).toBe(anyFailed ? 7 : 0);
    const retry = await cli(['results', 'retry', postId, '--dry-run']);
    expect(retry.code, retry.stderr).toBe(anyFailed ? 0 : 2);
    // Not found (exit 4), as an unknown account is where the route exists; the message says where it looked.
    const unknown = await cli(['accounts', 'view', '@nobody']);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toContain('among the accounts seen in recent results');
  });
});
