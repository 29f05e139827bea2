// The MCP server over its stdio transport (in-process pipes, raw JSON-RPC lines) against the real
// sandbox: what a tool returns is the service's data unchanged except the key and secrets.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOMY_LIMITS, testSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startMcpPipe, type McpPipe } from '../helpers/mcp-stdio.js';
import { DATA_NOTICE } from '../../src/mcp/errors.js';

let sb: TestSandbox;
let key: string;
let tmp: string;
beforeAll(async () => {
  sb = await testSandbox({ ...ROOMY_LIMITS });
  key = sb.key('demo');
  tmp = mkdtempSync(join(tmpdir(), 'socialpub-mcp-media-'));
});
afterAll(async () => {
  await sb.close();
  rmSync(tmp, { recursive: true, force: true });
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
        // The text form an older client reads carries the same bytes, as JSON under the data notice.
        const [notice, json] = created.content[0]!.text.split('\n');
        expect(notice).toBe(DATA_NOTICE);
        expect(JSON.parse(json!).post.text).toBe(text);
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
      const badInit = await mcp.request(14, 'initialize', { protocolVersion: 5 });
      expect(error(badInit)).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid params for initialize: params\.\w+: [^\n]+$/) });
      // A method the server does not have is the SDK's own -32601.
      expect(error(await mcp.request(13, 'nope/nothing')).code).toBe(-32601);
    });
  });
});

describe('the session starts with initialize', () => {
  it('refuses tools/list and tools/call before initialize (-32600), answers ping, then serves once initialized', async () => {
    const mcp = startMcpPipe([], env());
    try {
      const from = sb.requests.length;
      const list = await mcp.request(1, 'tools/list');
      expect(list).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'Invalid request: tools/list before initialize; send initialize first' } });
      const call = await mcp.request(2, 'tools/call', { name: 'list_posts', arguments: {} });
      expect((call.error as { code: number }).code).toBe(-32600);
      expect(sb.requests.length).toBe(from);
      expect(await mcp.request(3, 'ping')).toMatchObject({ id: 3, result: {} });
      await mcp.initialize();
      expect(((await mcp.request(4, 'tools/list')).result as { tools: unknown[] }).tools.length).toBeGreaterThan(3);
    } finally {
      expect(await mcp.close()).toBe(0);
    }
  });
});

describe('local media only from the folders given with --media-dir', () => {
  const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]), Buffer.alloc(2048)]);
  let allowed: string;
  let outside: Record<'photo' | 'text' | 'missing' | 'viaLink' | 'viaDotDot' | 'siblingPrefix', string>;
  let inside: { photo: string; missing: string };
  beforeAll(() => {
    allowed = join(tmp, 'allowed');
    mkdirSync(allowed);
    mkdirSync(join(tmp, 'allowed-not'));
    writeFileSync(join(allowed, 'in.jpg'), JPEG);
    writeFileSync(join(tmp, 'secret.jpg'), JPEG);
    writeFileSync(join(tmp, 'notes.txt'), 'just some text, not an image\n');
    writeFileSync(join(tmp, 'allowed-not', 'x.jpg'), JPEG);
    symlinkSync(join(tmp, 'secret.jpg'), join(allowed, 'link.jpg'));
    outside = {
      photo: join(tmp, 'secret.jpg'),
      text: join(tmp, 'notes.txt'),
      missing: join(tmp, 'nothing-here.jpg'),
      viaLink: join(allowed, 'link.jpg'),
      viaDotDot: `${allowed}/../secret.jpg`,
      siblingPrefix: join(tmp, 'allowed-not', 'x.jpg'),
    };
    inside = { photo: join(allowed, 'in.jpg'), missing: join(allowed, 'nope.jpg') };
  });

  const draft = (mcp: McpPipe, id: number, media: string, extra: Record<string, unknown> = {}) =>
    mcp.call(id, 'create_draft', { platforms: ['instagram'], text: 'launch', media: [media], dry_run: true, ...extra }).then(result);

  it('without --media-dir every local path is refused with one message, whether it exists, is text or is missing', async () => {
    await withPipe([], async (mcp) => {
      const replies = [];
      for (const [i, path] of [...Object.values(outside), inside.photo].entries()) replies.push(await draft(mcp, 40 + i, path));
      expect(replies).toHaveLength(7);
      for (const r of replies) expect(r.structuredContent).toEqual(replies[0]!.structuredContent);
      expect(replies[0]!.structuredContent).toMatchObject({ code: 'invalid_input', field: 'media[0]', message: 'media[0]: this server takes no local files: it was started without --media-dir' });
      // URLs are always taken.
      expect((await draft(mcp, 50, 'https://cdn.example/launch.jpg')).isError).toBeFalsy();
    });
  });

  it('with --media-dir, a file inside is taken; links and .. leading out, and near-miss folders, get the one refusal', async () => {
    await withPipe(['--media-dir', allowed], async (mcp) => {
      const ok = await draft(mcp, 60, inside.photo);
      expect(ok.isError, JSON.stringify(ok.structuredContent)).toBeFalsy();
      const refusals = [];
      for (const [i, path] of Object.values(outside).entries()) refusals.push((await draft(mcp, 61 + i, path)).structuredContent);
      expect(refusals).toHaveLength(6);
      for (const r of refusals) expect(r).toEqual(refusals[0]);
      expect(refusals[0]).toMatchObject({ code: 'invalid_input', field: 'media[0]', message: expect.stringContaining('a local file is taken only from the folders this server was started with') });
      // schedule_post is held to the same folders.
      const scheduled = await mcp.call(70, 'schedule_post', { platforms: ['instagram'], text: 'x', media: [outside.viaLink], at: '2027-01-01T09:00:00Z', dry_run: true }).then(result);
      expect(scheduled.structuredContent).toEqual(refusals[0]);
      // Inside an allowed folder the usual, more precise messages apply.
      const missing = await draft(mcp, 71, inside.missing);
      expect(missing.structuredContent.message).not.toEqual(refusals[0]!.message);
      expect(missing.structuredContent.field).toBe('media[0]');
      // In the tools' words: no relative paths (refused here) nor the command's --file.
      expect(missing.structuredContent).toMatchObject({ message: 'media[0]: no such file', hints: ['check the path (it must name a file that exists)'] });
    });
  });

  it('uploads a file from an allowed folder for real', async () => {
    await withPipe(['--media-dir', allowed], async (mcp) => {
      const from = sb.requests.length;
      const res = await draft(mcp, 80, inside.photo, { dry_run: false });
      expect(res.isError, JSON.stringify(res.structuredContent)).toBeFalsy();
      expect(sb.requests.slice(from).map((r) => `${r.method} ${r.path.replace(/med_\w+/, 'ID')}`)).toEqual(['POST /v1/media', 'PUT /v1/media/ID/upload', 'POST /v1/posts']);
    });
  });

  it('refuses to start with a --media-dir that is not a folder (exit 2)', async () => {
    const mcp = startMcpPipe(['--media-dir', join(tmp, 'no-such-folder')], env());
    expect(await mcp.close()).toBe(2);
    expect(mcp.stderr()).toContain('--media-dir');
    expect(mcp.stderr()).toContain('no such folder');
  });
});
