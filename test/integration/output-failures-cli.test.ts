// After a failure stdout must not hold a document that looks complete: nothing when nothing was
// read, an unclosed JSON array when rows were streamed, no whole-list --jq result. And -o csv as
// RFC 4180 has it. End to end through the in-process CLI against the sandbox over HTTP.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { allResults, api, cliEnv, keyOf, sandboxFor, type Sandbox } from './results-support.js';
import type { ManualClock } from '../../src/sandbox/clock.js';

type Sb = Sandbox & { clock: ManualClock };
const badKey = (sb: Sandbox) => ({ ...cliEnv(sb), SOCIALPUB_API_KEY: 'sk_test_not_a_real_key_000000000000' });

/** A stdout that a JSON reader accepts is a failure here. */
const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('a failed list leaves no complete-looking document', () => {
  let sb: Sb;
  beforeAll(async () => (sb = await sandboxFor({ fixtures: 300, failureRate: 0.3, seed: 3 })));
  afterAll(async () => sb?.close());

  it('a bad key prints nothing on stdout (exit 3), in every list format and with --jq', async () => {
    const runs = [
      ['results', 'list', '--failed', '--all', '--json'],
      ['results', 'list', '--all', '--json', '--jq', 'length'],
      ['results', 'list', '-o', 'ndjson'],
      ['results', 'list', '-o', 'csv'],
      ['posts', 'list', '--json'],
      ['posts', 'list', '-o', 'ics'],
    ];
    for (const argv of runs) {
      const r = await runCli(argv, { env: badKey(sb), clock: sb.clock });
      expect({ argv, code: r.code, stdout: r.stdout }).toEqual({ argv, code: 3, stdout: '' });
      expect(r.stderr).toMatch(/^error: /m);
    }
    expect(runs).toHaveLength(6);
  });

  it('an unknown --fields name prints nothing on stdout (exit 2), JSON and TSV alike', async () => {
    for (const format of ['json', 'tsv', 'csv']) {
      const r = await runCli(['results', 'list', '--all', '-o', format, '--fields', 'id,nope'], { env: cliEnv(sb), clock: sb.clock });
      expect({ format, code: r.code, stdout: r.stdout }).toEqual({ format, code: 2, stdout: '' });
      expect(r.stderr).toContain('unknown field "nope"');
      // A misspelt field is a usage error: the JSON error carries the usage code.
      if (format === 'json') expect(r.stderr).toContain('"code":"USAGE"');
    }
  });

  it('a service that cannot be reached prints nothing on stdout (exit 6)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const r = await runCli(['results', 'list', '--all', '--json', '--max-retries', '0'], {
      env: { ...cliEnv(sb), SOCIALPUB_BASE_URL: `http://127.0.0.1:${port}` },
      clock: sb.clock,
    });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stdout).toBe('');
  });

  it('an empty list that succeeded is still a valid empty document', async () => {
    const r = await runCli(['results', 'list', '--post', 'post_doesNotExist', '--json'], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('[]\n');
  });
});

/**
 * A proxy in front of the sandbox that answers the first `goodPages` result pages in full, and
 * for every later one sends the status line and half the body, then resets the connection.
 */
async function cuttingProxy(target: string, goodPages: number): Promise<{ url: string; pagesCut: () => number; close(): Promise<void> }> {
  const upstream = new URL(target);
  let served = 0;
  let cut = 0;
  const server: Server = createServer((req, res) => {
    const isPage = req.url?.includes('post-results') ?? false;
    const forward = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
      const chunks: Buffer[] = [];
      up.on('data', (c: Buffer) => chunks.push(c));
      up.on('end', () => {
        const body = Buffer.concat(chunks);
        if (isPage && up.statusCode === 200 && served++ >= goodPages) {
          cut++;
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
          res.write(body.subarray(0, body.length >> 1), () => res.socket?.resetAndDestroy());
          return;
        }
        res.writeHead(up.statusCode ?? 502, up.headers);
        res.end(body);
      });
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/$/, '')}`,
    pagesCut: () => cut,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a 20,000-row list cut by a connection reset', () => {
  let sb: Sb;
  let proxy: Awaited<ReturnType<typeof cuttingProxy>>;
  beforeAll(async () => {
    sb = await sandboxFor({ fixtures: 20_000, failureRate: 0.2, seed: 9 });
    proxy = await cuttingProxy(sb.url, 30);
  }, 60_000);
  afterAll(async () => {
    await proxy?.close();
    await sb?.close();
  });
  const env = () => ({ ...cliEnv(sb), SOCIALPUB_BASE_URL: proxy.url });

  it('--json: the rows read stay, the array is left open (no JSON reader accepts it), exit 6', async () => {
    const r = await runCli(['results', 'list', '--all', '--json', '--max-retries', '0', '--concurrency', '1'], { env: env(), clock: sb.clock });
    expect(r.code, r.stderr).toBe(6);
    expect(proxy.pagesCut()).toBeGreaterThan(0);
    expect(parses(r.stdout)).toBe(false);
    expect(r.stdout.startsWith('[\n')).toBe(true);
    expect(r.stdout.trimEnd().endsWith(']')).toBe(false);
    // Every row before the cut is there, whole and in order.
    const rows = r.stdout.split('\n').slice(1).map((l) => JSON.parse(l.replace(/,$/, '').trim()) as { id: string });
    const oracle = await allResults(sb, keyOf(sb, 'demo'));
    expect(oracle).toHaveLength(20_000);
    expect(rows.length).toBe(3_000);
    expect(rows.map((x) => x.id)).toEqual(oracle.slice(0, rows.length).map((x) => x.id));
  }, 60_000);

  it('--jq over the whole list does not run over the part that was read', async () => {
    const r = await runCli(['results', 'list', '--all', '--jq', 'length', '--max-retries', '0', '--concurrency', '1'], { env: env(), clock: sb.clock });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stdout).toBe('');
  }, 60_000);
});

describe('-o csv', () => {
  let sb: Sb;
  beforeAll(async () => (sb = await sandboxFor({ fixtures: 50, failureRate: 0.3, seed: 4 })));
  afterAll(async () => sb?.close());

  it('a header row of field names, CRLF line ends, one record per row', async () => {
    const r = await runCli(['results', 'list', '--limit', '5', '-o', 'csv', '--fields', 'id,platform,error.code'], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code, r.stderr).toBe(0);
    const oracle = (await allResults(sb, keyOf(sb, 'demo'))).slice(0, 5);
    expect(r.stdout).toBe(['id,platform,error.code', ...oracle.map((x) => `${x.id},${x.platform},${x.error?.code ?? ''}`)].join('\r\n') + '\r\n');
  });

  it('quotes fields holding commas, quotes and line breaks, doubling the quotes', async () => {
    const text = 'Launch, "v2"\nsee notes';
    const made = await api<{ id: string }>(sb, keyOf(sb, 'demo'), 'POST', '/v1/posts', { payloads: { bluesky: { text } } });
    expect(made.status).toBe(201);
    const r = await runCli(['posts', 'list', '--limit', '1', '-o', 'csv', '--fields', 'id,payloads.bluesky.text'], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`id,payloads.bluesky.text\r\n${made.body.id},"Launch, ""v2""\nsee notes"\r\n`);
  });

  it('an empty list is the header alone', async () => {
    const r = await runCli(['results', 'list', '--post', 'post_none', '-o', 'csv'], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^[a-z_.]+(,[a-z_.]+)+\r\n$/);
  });
});
