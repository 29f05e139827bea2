// results retry of a thread that failed at a later part (THREAD_PART_FAILED, contract 7.3): the
// parts before it are live, so the retry sends the failed part and those after it, not the whole
// thread again (which would publish the live parts twice). Over real HTTP to the sandbox, the
// failure made certain by a GIF past X's frame limit in the third part.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, call, manualSandbox, START, type TestSandbox } from './sandbox-support.js';
import { cliEnv } from '../helpers/sandbox.js';
import { runCli } from '../helpers/run-cli.js';
import { gif } from '../helpers/media-fixtures.js';

let sb: TestSandbox;
let postId: string;
let gifUrl: string;
beforeAll(async () => {
  sb = await manualSandbox({ failureRate: 0 });
  const demo = as(sb, 'demo');
  const bytes = gif(10, 10, 351);
  const created = await demo.post('/v1/media', { name: 'many.gif', mimeType: 'image/gif', sizeBytes: bytes.length });
  expect(created.status).toBe(201);
  const put = await call(sb, 'PUT', new URL(created.body.uploadUrl).pathname, { key: demo.key, raw: bytes, headers: { 'content-type': 'image/gif' } });
  expect(put.status).toBe(200);
  gifUrl = created.body.url;
  const at = Math.max(START, sb.clock.now()) + 60_000;
  const scheduled = await demo.post('/v1/schedule', {
    payloads: { 'twitter-x': { text: 'One', thread: [{ text: 'Two' }, { text: 'Three', media: [{ url: gifUrl }] }, { text: 'Four' }], firstComment: 'Thanks for reading' } },
    scheduledAt: new Date(at).toISOString(),
  });
  expect(scheduled.status, scheduled.text).toBe(201);
  postId = scheduled.body.id;
  await sb.clock.advance(at - sb.clock.now());
  const results = await demo.get(`/api/v1/post-results?post_id=${postId}`);
  expect(results.body.data[0]).toMatchObject({ success: false, error: { code: 'THREAD_PART_FAILED', context: { part: 1 } } });
});
afterAll(() => sb.close());

describe('results retry of a thread that failed at a later part', () => {
  it('sends the failed part and those after it, and says the earlier parts are live', async () => {
    const r = await runCli(['results', 'retry', postId, '--dry-run', '--json'], { env: cliEnv(sb) });
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout).requests.at(-1).body as { payloads: Record<string, unknown> };
    expect(body.payloads['twitter-x']).toEqual({ text: 'Three', media: [{ url: gifUrl }], thread: [{ text: 'Four' }], firstComment: 'Thanks for reading', accounts: expect.any(Array) });
    expect(r.stderr).toContain('parts 1–2 are live: only parts 3–4 of 4 sent, as a new post');
  });
});
