// A create that fails before its own request goes out (the account lookup SyncPostly needs, a media
// upload) created no post: the error must not send the user looking for one, nor advise a re-run
// "so that the service shows it". Over real HTTP to a service on 127.0.0.1 that fails that step.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { answer, misbehavingPerTest, type Handler } from '../helpers/misbehaving-server.js';
import { png } from '../helpers/media-fixtures.js';

const KEY = 'sk_test_fails_before_write_000000000';
const dir = mkdtempSync(join(tmpdir(), 'socialpub-before-write-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const service = misbehavingPerTest({ SOCIALPUB_API_KEY: KEY });
const serve = (handler: Handler, api: 'socialpub' | 'syncpostly') => service.serve(handler, { SOCIALPUB_API: api });

const failed = (res: Parameters<Handler>[1]) => answer(res, 500, { error: { code: 'INTERNAL', message: 'the database is down' } });
const posts = () => service.server.requests.filter((q) => q.method === 'POST' && /\/posts$|\/schedule$/.test(new URL(q.url, 'http://x').pathname));

describe('posts create that fails before the create request', () => {
  it("SyncPostly: the account lookup fails (500): exit 1, no post was sent, and no advice to look for one", async () => {
    const env = await serve((_req, res) => failed(res), 'syncpostly');
    const r = await runCli(['--max-retries', '0', 'posts', 'create', '--platform', 'linkedin', '--text', 'hello'], { env });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/GET \/api\/v1\/social-accounts|the database is down/);
    expect(posts()).toEqual([]);
    expect(r.stderr).not.toContain('may have been created');
  });

  it('socialpub: the media upload fails (500): exit 1, no post was sent, and no advice to re-run with the key', async () => {
    const file = join(dir, 'photo.png');
    writeFileSync(file, png(400, 300));
    const env = await serve((_req, res) => failed(res), 'socialpub');
    const r = await runCli(['--max-retries', '0', 'posts', 'create', '--platform', 'bluesky', '--text', 'hello', '--media', file], { env });
    expect(r.code, r.stderr).toBe(1);
    expect(service.server.requests.map((q) => `${q.method} ${new URL(q.url, 'http://x').pathname}`)).toContain('POST /v1/media');
    expect(posts()).toEqual([]);
    expect(r.stderr).not.toContain('may have been created');
  });

  it('the create request itself failing still says the post may exist (the control)', async () => {
    const env = await serve((_req, res) => failed(res), 'socialpub');
    const r = await runCli(['--max-retries', '0', 'posts', 'create', '--platform', 'bluesky', '--text', 'hello'], { env });
    expect(r.code, r.stderr).toBe(1);
    expect(posts()).toHaveLength(1);
    expect(r.stderr).toContain('the post may have been created before the failure');
  });
});
