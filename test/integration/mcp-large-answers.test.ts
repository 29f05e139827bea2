// The MCP server against a service whose fields are huge (each a few MiB, the body still under the
// client's 16 MiB limit): an answer larger than one message to an assistant may hold is refused
// as a tool error saying what to do, and the session goes on. The official SDK client drops the
// whole connection on a message over 10 MiB, so sending it would end every later call too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../src/mcp/server.js';
import { MAX_TEXT } from '../../src/mcp/tools/fields.js';
import { startMcpPipe } from '../helpers/mcp-stdio.js';
import { answer, startMisbehavingServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';

const BIG = 'A'.repeat(1_500_000);
const CREATED = '2026-03-20T12:00:00.000Z';
const hugeResult = { id: 'res_1', post_id: 'post_1', success: false, social_account_id: BIG, platform: 'bluesky', platform_data: { username: BIG, url: BIG }, error: { code: 'X', message: BIG, context: { detail: BIG } }, created_at: CREATED };
const hugePost = (n: number) => ({ id: `post_${n}`, status: 'draft', title: BIG, payloads: { bluesky: { text: 'hi' } }, scheduledAt: null, createdAt: CREATED, updatedAt: CREATED });

type Reply = { result: { isError?: boolean; structuredContent: Record<string, unknown> } };

let server: MisbehavingServer;
beforeAll(async () => {
  server = await startMisbehavingServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/api/v1/post-results/res_1') return answer(res, 200, hugeResult);
    if (path === '/api/v1/post-results/res_small') return answer(res, 200, { ...hugeResult, id: 'res_small', social_account_id: 'acct', platform_data: null, error: { code: 'X', message: 'small' } });
    if (path === '/v1/posts') return answer(res, 200, { data: [1, 2, 3].map(hugePost), meta: { offset: 0, limit: 20, total: 3 } });
    answer(res, 404, { error: { code: 'NOT_FOUND', message: 'no such thing' } });
  });
});
afterAll(() => server.close());

describe('an answer too large for one message', () => {
  it('is a tool error with what to do, no line over the limit, and the next call still answers', async () => {
    const lines: number[] = [];
    const mcp = startMcpPipe([], { SOCIALPUB_BASE_URL: server.url, SOCIALPUB_API_KEY: 'sk_test_large_answers_0001', TZ: 'UTC' });
    await mcp.initialize();
    const one = (await mcp.call(1, 'get_result', { result_id: 'res_1' })) as Reply;
    lines.push(JSON.stringify(one).length);
    expect(one.result.isError).toBe(true);
    expect(one.result.structuredContent).toMatchObject({ code: 'error', message: expect.stringMatching(/^get_result: the answer is \d+\.\d MiB, more than one message to an assistant may hold \(4\.0 MiB\)/), hints: [expect.stringContaining('--json')] });

    const list = (await mcp.call(2, 'list_posts', { limit: 3 })) as Reply;
    lines.push(JSON.stringify(list).length);
    expect(list.result.isError).toBe(true);
    expect(list.result.structuredContent.hints).toEqual(['call again with a smaller limit']);

    const small = (await mcp.call(3, 'get_result', { result_id: 'res_small' })) as Reply;
    expect(small.result.isError).toBeFalsy();
    expect(small.result.structuredContent).toMatchObject({ result: { id: 'res_small' } });
    expect(Math.max(...lines)).toBeLessThan(MAX_ANSWER_BYTES);
    expect(await mcp.close()).toBe(0);
  });

  it('from check_post, which sends nothing, blames the arguments and says how to make them smaller', async () => {
    const mcp = startMcpPipe([], { SOCIALPUB_BASE_URL: server.url, SOCIALPUB_API_KEY: 'sk_test_large_answers_0001', TZ: 'UTC' });
    await mcp.initialize();
    // Thousands of thread parts marked by hand, each judged with its source, on every platform
    // that takes threads: an answer far over the limit from a text under the longest taken.
    const text = 'A sentence.\n---\n'.repeat(7_000);
    expect(text.length).toBeLessThan(MAX_TEXT);
    const reply = (await mcp.call(1, 'check_post', { platforms: ['twitter-x', 'bluesky', 'threads'], text, thread: true })) as Reply;
    expect(reply.result.isError).toBe(true);
    expect(reply.result.structuredContent).toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/^check_post: the answer is \d+\.\d MiB, more than one message to an assistant may hold \(4\.0 MiB\): the arguments make it so/),
      hints: ['shorten the text, or give fewer platforms at a time'],
    });
    expect(JSON.stringify(reply.result.structuredContent)).not.toContain('service');
    expect(await mcp.close()).toBe(0);
  });
});
