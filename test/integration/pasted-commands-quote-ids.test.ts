// The commands socialpub prints to paste next (`details: socialpub results get …`, `socialpub
// results retry …`) name ids the service sent. Over real HTTP to a service on 127.0.0.1 whose ids
// hold shell syntax: each id is one quoted word of the command, so pasting it runs nothing else.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { answer, misbehavingPerTest } from '../helpers/misbehaving-server.js';

const KEY = 'sk_test_pasted_commands_quote_ids_0';
const POST = 'post_1;reboot';
const RESULT = 'res_1$(reboot)';

const service = misbehavingPerTest({ SOCIALPUB_API_KEY: KEY, NO_COLOR: '1' });

const post = { id: POST, status: 'failed', payloads: { linkedin: { text: 'Hello' } }, scheduledAt: '2026-03-20T12:00:00.000Z', createdAt: '2026-03-20T11:00:00.000Z', updatedAt: '2026-03-20T12:00:00.000Z' };
const failure = {
  id: RESULT,
  post_id: POST,
  success: false,
  platform: 'linkedin',
  social_account_id: null,
  platform_data: null,
  error: { code: 'API_DOWN', message: 'down' },
  created_at: '2026-03-20T12:00:01.000Z',
};

const serve = () =>
  service.serve((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (path === `/v1/posts/${POST}`) return answer(res, 200, post);
    if (path === `/api/v1/post-results/${RESULT}`) return answer(res, 200, failure);
    if (path === '/api/v1/post-results') return answer(res, 200, { data: [failure], meta: { offset: 0, limit: 100, total: 1 } });
    answer(res, 200, { data: [], meta: { offset: 0, limit: 100, total: 0 } });
  });

/** The lines of `text` that hold a command to paste, after the last `socialpub`. */
const commands = (text: string) => text.split('\n').flatMap((l) => (l.includes('socialpub ') ? [l.slice(l.lastIndexOf('socialpub '))] : []));

describe('commands to paste quote the ids the service sent', () => {
  it('posts view: the details of a failed target', async () => {
    const env = await serve();
    const r = await runCli(['posts', 'view', POST, '-o', 'table'], { env, columns: 200 });
    expect(r.code, r.stderr).toBe(0);
    expect(commands(r.stdout)).toContain(`socialpub results get '${RESULT}'`);
  });

  it('results get: all results of its post', async () => {
    const env = await serve();
    const r = await runCli(['results', 'get', RESULT], { env, columns: 200 });
    expect(r.code, r.stderr).toBe(0);
    expect(commands(r.stderr)).toContain(`socialpub results list --post '${POST}'`);
  });

  it('results wait: the details of each failure and the retry of its post', async () => {
    const env = await serve();
    const r = await runCli(['results', 'wait', '--post', POST, '--timeout', '5s'], { env, columns: 200 });
    expect(r.code, r.stderr).toBe(7);
    const pasted = commands(r.stderr);
    expect(pasted).toContain(`socialpub results get '${RESULT}'`);
    expect(pasted).toContain(`socialpub results retry '${POST}'`);
  });
});
