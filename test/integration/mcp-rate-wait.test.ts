// A rate limit whose Retry-After is longer than a call can wait: the SDK client gives up on a
// request after 60 s and every call answers within 50 s, so the server sleeps through at most
// 30 s (less with --max-wait). Beyond that it answers rate_limited with retryAt at once, rather
// than sleeping into its own deadline and calling the service "not answering".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RATE_WAIT_MS } from '../../src/mcp/errors.js';
import { startMcpPipe } from '../helpers/mcp-stdio.js';
import { answer, startMisbehavingServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';

type Reply = { result: { isError?: boolean; structuredContent: Record<string, unknown> } };

let server: MisbehavingServer;
beforeAll(async () => {
  // Within the default --max-wait (1 min), past what one call can sleep through.
  server = await startMisbehavingServer((_req, res) => answer(res, 429, { error: { code: 'RATE_LIMITED', message: 'slow down' } }, { 'retry-after': String((MAX_RATE_WAIT_MS + 15_000) / 1000) }));
});
afterAll(() => server.close());

describe('a Retry-After longer than a call can sleep', () => {
  it('is answered at once as rate_limited with when to retry, after a single request', async () => {
    const mcp = startMcpPipe([], { SOCIALPUB_BASE_URL: server.url, SOCIALPUB_API_KEY: 'sk_test_rate_wait_00001', TZ: 'UTC' });
    await mcp.initialize();
    const before = server.requests.length;
    const reply = (await mcp.call(1, 'list_posts', {})) as Reply;
    expect(reply.result.isError).toBe(true);
    expect(reply.result.structuredContent).toMatchObject({ code: 'rate_limited', retryAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), hints: [expect.stringContaining(`up to ${MAX_RATE_WAIT_MS / 1000} s`)] });
    expect(server.requests.length - before).toBe(1);
    expect(await mcp.close()).toBe(0);
  });
});
