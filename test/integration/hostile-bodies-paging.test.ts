// The CLI and the MCP server against a service that never stops talking: an endless body is
// refused once it passes 16 MiB (and the connection is dropped, so nothing more is read), and
// paging that brings nothing new stops with an error instead of looping until killed.
import { afterEach, describe, expect, it } from 'vitest';
import { startHostileServer, type HostileServer } from '../helpers/hostile-server.js';
import { startMcpPipe } from '../helpers/mcp-stdio.js';
import { runCli } from '../helpers/run-cli.js';

const KEY = 'sk_test_hostile0123456789abcdef';
const MiB = 1024 * 1024;

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const env = () => ({ SOCIALPUB_BASE_URL: server!.url, SOCIALPUB_API_KEY: KEY });

describe('an endless body', () => {
  it('is refused past 16 MiB: exit 1, naming the request, its path and request id, and the connection is dropped', async () => {
    server = await startHostileServer({ endless: true });
    const r = await runCli(['results', 'list'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/refused the response to GET \/api\/v1\/post-results \(status 200\): its body is larger than 16 MiB/);
    expect(r.stderr).toContain('request id req_1');
    expect(r.stdout).toBe('');
    // Not retried, and the server saw its client go away.
    expect(server.requests).toHaveLength(1);
    await server.endlessClosed();
    // What the server wrote before noticing is bounded by the cap plus what the socket buffers held.
    expect(server.endlessBytesSent()).toBeLessThan(48 * MiB);
  });

  it('is refused in an error answer too', async () => {
    server = await startHostileServer({ endless: true, failWith: 500 });
    const r = await runCli(['results', 'get', 'res_1'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/refused the response to GET \/api\/v1\/post-results\/res_1 \(status 500\): its body is larger than 16 MiB/);
    expect(server.requests).toHaveLength(1);
  });

  it('ends an MCP call with a tool error, and the server keeps serving', async () => {
    server = await startHostileServer({ endless: true });
    const mcp = startMcpPipe([], env());
    await mcp.initialize();
    const first = (await mcp.call(1, 'list_results', {})).result as { isError: boolean; structuredContent: { code: string; message: string } };
    expect(first.isError).toBe(true);
    expect(first.structuredContent).toMatchObject({ code: 'error', message: expect.stringContaining('its body is larger than 16 MiB') });
    const second = (await mcp.call(2, 'results_stats', {})).result as { isError: boolean; structuredContent: { message: string } };
    expect(second.structuredContent.message).toContain('larger than 16 MiB');
    expect(await mcp.close()).toBe(0);
    expect(server.requests).toHaveLength(2);
  });
});

describe('paging that makes no progress', () => {
  it('stops `results list --all` when pages keep repeating the same rows', async () => {
    server = await startHostileServer({ repeatPages: true, rows: 100 });
    const r = await runCli(['results', 'list', '--all', '--json', '--concurrency', '1'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/stopped paging \/api\/v1\/post-results: 3 pages in a row \(up to offset \d+\) held only rows already read/);
    // The first page, then three pages of repeats.
    expect(server.requests).toHaveLength(4);
  });

  it('stops `posts list --all`, `results list --failed --limit N` and `results stats` the same way', async () => {
    server = await startHostileServer({ repeatPages: true, rows: 100 });
    const posts = await runCli(['posts', 'list', '--all', '--json'], { env: env() });
    expect(posts.code).toBe(1);
    expect(posts.stderr).toContain('stopped paging /v1/posts');
    // Half of each page failed: 60 failures need a second page, which only repeats the first.
    const failed = await runCli(['results', 'list', '--failed', '--limit', '60', '--json'], { env: env() });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('stopped paging /api/v1/post-results');
    const stats = await runCli(['results', 'stats'], { env: env() });
    expect(stats.code).toBe(1);
    expect(stats.stderr).toContain('stopped paging /api/v1/post-results');
    expect(server.requests.length).toBeLessThan(30);
  });

  it('stops the MCP results_stats walk instead of counting the same rows again', async () => {
    server = await startHostileServer({ repeatPages: true, rows: 100 });
    const mcp = startMcpPipe([], env());
    await mcp.initialize();
    const reply = (await mcp.call(1, 'results_stats', {})).result as { isError: boolean; structuredContent: { message: string } };
    expect(reply.isError).toBe(true);
    expect(reply.structuredContent.message).toMatch(/stopped paging \/api\/v1\/post-results: 3 pages in a row/);
    expect(await mcp.close()).toBe(0);
    expect(server.requests).toHaveLength(4);
  });
});
