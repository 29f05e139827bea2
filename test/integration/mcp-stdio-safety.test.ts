// The MCP server over its stdio transport (in-process pipes, raw JSON-RPC lines) against the real
// sandbox: what a tool returns is the service's data unchanged except the key and secrets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOMY_LIMITS, testSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startMcpPipe, type McpPipe } from '../helpers/mcp-stdio.js';

let sb: TestSandbox;
let key: string;
beforeAll(async () => {
  sb = await testSandbox({ ...ROOMY_LIMITS });
  key = sb.key('demo');
});
afterAll(async () => {
  await sb.close();
});

const env = (extra: Record<string, string> = {}) => ({ SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: key, TZ: 'UTC', ...extra });

async function withPipe<T>(argv: string[], run: (mcp: McpPipe) => Promise<T>): Promise<T> {
  const mcp = startMcpPipe(argv, env());
  await mcp.initialize();
  try {
    return await run(mcp);
  } finally {
    expect(await mcp.close()).toBe(0);
  }
}

type ToolReply = { isError?: boolean; structuredContent: Record<string, unknown>; content: Array<{ text: string }> };
const result = (m: Record<string, unknown>) => m.result as ToolReply;

describe('post text round-trips exactly', () => {
  const ORDINARY = ['Reset your password: https://example.com/reset?token=abc123XYZ', 'secret: SPRING25', 'Bearer of good news'];

  it('through create_draft and list_posts, ordinary words such as token, secret and Bearer untouched', async () => {
    await withPipe([], async (mcp) => {
      for (const [i, text] of ORDINARY.entries()) {
        const created = result(await mcp.call(10 + i, 'create_draft', { platforms: ['bluesky'], text }));
        expect(created.isError, JSON.stringify(created)).toBeFalsy();
        const post = created.structuredContent.post as { id: string; text: string };
        expect(post.text).toBe(text);
        // The text form an older client reads carries the same bytes.
        expect(JSON.parse(created.content[0]!.text).post.text).toBe(text);
      }
      const listed = result(await mcp.call(20, 'list_posts', { limit: 3 })).structuredContent.posts as Array<{ text: string }>;
      expect(listed.map((p) => p.text).sort()).toEqual([...ORDINARY].sort());
    });
  });

  it('while the key, whsec_ secrets and URL credentials the service echoes are still masked', async () => {
    // Written around the MCP server (which refuses the key in arguments), read back through it.
    const text = `key ${key} hook whsec_c2VjcmV0c2VjcmV0c2VjcmV0 at https://bob:hunter2@example.com/x`;
    const res = await fetch(`${sb.url}/v1/posts`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ payloads: { bluesky: { text } } }) });
    expect(res.status).toBe(201);
    await withPipe([], async (mcp) => {
      const raw = JSON.stringify(await mcp.call(30, 'list_posts', { limit: 1 }));
      expect(raw).toContain(`key …${key.slice(-4)} hook whsec_*** at https://***@example.com/x`);
      for (const secret of [key, 'whsec_c2Vj', 'hunter2', 'bob:']) expect(raw).not.toContain(secret);
    });
  });
});

describe('JSON-RPC lines a well-behaved client never sends get the answer the spec prescribes', () => {
  const error = (m: Record<string, unknown>) => m.error as { code: number; message: string };

  it('-32700 with id null for a line that is not JSON, -32600 for one that is not JSON-RPC, and the session goes on', async () => {
    await withPipe([], async (mcp) => {
      mcp.write('{not json');
      const parse = await mcp.next();
      expect(parse).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the message is not valid JSON' } });
      mcp.write({ id: 7 });
      expect(await mcp.next()).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'Invalid request: "jsonrpc" must be "2.0"' } });
      mcp.write({ jsonrpc: '2.0', id: 8 });
      expect(await mcp.next()).toMatchObject({ id: 8, error: { code: -32600, message: 'Invalid request: "method" is missing' } });
      mcp.write('[{"jsonrpc":"2.0","id":9,"method":"tools/list"}]');
      expect(await mcp.next()).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('batches are not supported') } });
      const list = await mcp.request(10, 'tools/list');
      expect((list.result as { tools: unknown[] }).tools.length).toBeGreaterThan(3);
      expect(mcp.stderr()).toContain('protocol error: Parse error: the message is not valid JSON');
    });
  });

  it('-32602 in one line for params that do not fit the method', async () => {
    await withPipe([], async (mcp) => {
      const badArgs = await mcp.request(11, 'tools/call', { name: 'list_posts', arguments: 'oops' });
      expect(error(badArgs).code).toBe(-32602);
      expect(error(badArgs).message).toMatch(/^Invalid params for tools\/call: params\.arguments: .+$/);
      const noName = await mcp.request(12, 'tools/call', { arguments: {} });
      expect(error(noName)).toMatchObject({ code: -32602, message: expect.stringContaining('params.name') });
      for (const m of [badArgs, noName]) expect(error(m).message).not.toContain('\n');
      // A method the server does not have is the SDK's own -32601.
      expect(error(await mcp.request(13, 'nope/nothing')).code).toBe(-32601);
    });
  });
});
