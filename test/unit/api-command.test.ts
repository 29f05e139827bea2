// `socialpub api` in-process (runCli) against a tiny real HTTP server on 127.0.0.1: queries from
// -f, JSON bodies, --input, --paginate, --dry-run, retries with one idempotency key, error bodies
// and exit codes, and the key kept out of every output.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const KEY = 'sk_test_api_cmd_7d1e0c93b5a2WXYZ';

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let server: Server;
let baseUrl: string;
let seen: Seen[] = [];
const flaky = new Map<string, number>();

const ROWS = Array.from({ length: 5 }, (_, i) => ({ id: `res_${i}`, post_id: 'post_1', success: i % 2 === 0, extra_field: i }));

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': typeof body === 'string' ? 'text/plain' : 'application/json',
    'request-id': `req_${seen.length}`,
    'ratelimit-limit': '100',
    'ratelimit-remaining': '99',
    'ratelimit-reset': '3600',
    ...headers,
  });
  res.end(text);
}

function handle(req: IncomingMessage, res: ServerResponse, body: string) {
  const url = new URL(req.url ?? '/', 'http://x');
  if (req.headers.authorization !== `Bearer ${KEY}`) return send(res, 401, { error: { code: 'UNAUTHORIZED', message: 'invalid API key' } });
  if (req.method === 'GET' && url.pathname === '/api/v1/post-results') {
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 10);
    return send(res, 200, { data: ROWS.slice(offset, offset + limit), meta: { offset, limit, total: ROWS.length } });
  }
  if (req.method === 'GET' && url.pathname === '/api/v1/post-results/missing') {
    return send(res, 404, { error: { code: 'NOT_FOUND', message: 'no post result missing' }, requestId: 'req_body_404' }, { 'request-id': 'req_404' });
  }
  if (req.method === 'GET' && url.pathname === '/limited') return send(res, 429, { error: { code: 'RATE_LIMITED', message: 'read limit' } }, { 'retry-after': '3600' });
  if (req.method === 'GET' && url.pathname === '/text') return send(res, 200, 'plain answer');
  if (req.method === 'POST' && url.pathname === '/v1/posts') {
    const key = String(req.headers['idempotency-key']);
    if (url.searchParams.get('flaky') === '1' && !flaky.has(key)) {
      flaky.set(key, 1);
      return send(res, 503, '<html><title>503 Service Unavailable</title></html>', { 'content-type': 'text/html', 'retry-after': '0' });
    }
    const replayed: Record<string, string> = key === 'seen-before' ? { 'idempotent-replayed': 'true' } : {};
    return send(res, 201, { id: 'post_1', status: 'draft', payloads: {}, received: body ? JSON.parse(body) : null }, replayed);
  }
  if (req.method === 'PUT' && url.pathname === '/raw') return send(res, 200, { bytes: Buffer.byteLength(body) });
  return send(res, 404, { error: { code: 'NOT_FOUND', message: 'no route' } });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handle(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen = [];
});

const env = () => ({ SOCIALPUB_API_KEY: KEY, SOCIALPUB_BASE_URL: baseUrl });
const api = (args: string[], options: Parameters<typeof runCli>[1] = {}) => runCli(['api', ...args], { ...options, env: { ...env(), ...options.env } });

function expectNoKey(r: { stdout: string; stderr: string }) {
  expect(r.stdout + r.stderr).not.toContain(KEY);
}

describe('socialpub api', () => {
  it('GET with -f: query parameters (repeated keys for arrays), compact JSON when piped', async () => {
    const r = await api(['/api/v1/post-results', '-f', 'limit=2', '-f', 'platform=bluesky', '-f', 'platform=threads']);
    expect(r.code).toBe(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe('/api/v1/post-results?limit=2&platform=bluesky&platform=threads');
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(seen[0]!.headers['user-agent']).toMatch(/^socialpub\//);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toEqual({ data: ROWS.slice(0, 2), meta: { offset: 0, limit: 2, total: 5 } });
    expectNoKey(r);
  });

  it('pretty JSON on a terminal and with --json', async () => {
    const tty = await api(['/api/v1/post-results', '-f', 'limit=1'], { tty: true, env: { NO_COLOR: '1' } });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toContain('\n  "data": [');
    const js = await api(['/api/v1/post-results', '-f', 'limit=1', '--json']);
    expect(js.stdout).toContain('\n  "meta": {');
    expect(JSON.parse(js.stdout)).toEqual(JSON.parse(tty.stdout));
  });

  it('POST with -f: a JSON body (JSON values parsed, the rest strings), an Idempotency-Key', async () => {
    const r = await api(['-X', 'post', '/v1/posts', '-f', 'title=launch day', '-f', 'count=5', '-f', 'payloads={"bluesky":{"text":"hi"}}', '-f', 'tag=a', '-f', 'tag=b', '-f', 'quoted="5"']);
    expect(r.code).toBe(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(String(seen[0]!.headers['idempotency-key'])).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(seen[0]!.body)).toEqual({ title: 'launch day', count: 5, payloads: { bluesky: { text: 'hi' } }, tag: ['a', 'b'], quoted: '5' });
    expect(JSON.parse(r.stdout).received.count).toBe(5);
  });

  it('--input FILE and --input - send the bytes as they are; -f then become query parameters', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'socialpub-api-'));
    const file = join(dir, 'post.json');
    const text = '{ "payloads": { "bluesky": { "text": "from a file" } } }';
    writeFileSync(file, text);
    const r = await api(['-X', 'POST', '/v1/posts', '--input', file, '-f', 'flaky=0']);
    expect(r.code).toBe(0);
    expect(seen[0]!.body).toBe(text);
    expect(seen[0]!.url).toBe('/v1/posts?flaky=0');
    const s = await api(['-X', 'PUT', '/raw', '--input', '-'], { stdin: 'not json at all' });
    expect(s.code).toBe(0);
    expect(seen[1]!.headers['content-type']).toBe('application/octet-stream');
    expect(JSON.parse(s.stdout)).toEqual({ bytes: 15 });
  });

  it('an empty --input (stdin or file, or only blank space) is exit 2 naming --input and the fix, before any request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'socialpub-api-'));
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, '');
    for (const [args, stdin] of [
      [['-X', 'POST', '/v1/posts', '--input', '-'], ''],
      [['-X', 'POST', '/v1/posts', '--input', '-'], ' \n'],
      [['-X', 'PATCH', '/v1/posts/post_1', '--input', '-', '--dry-run'], ''],
      [['-X', 'POST', '/v1/posts', '--input', empty], 'ignored'],
    ] as const) {
      const r = await api([...args], { stdin });
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr).toMatch(/^error: --input (-|\S+empty\.json): (stdin|the file) (was|is) empty/m);
      expect(r.stderr).toMatch(/--input (FILE|-) < |leave --input out/);
      expect(r.stdout).toBe('');
    }
    expect(seen).toHaveLength(0);
  });

  it('--paginate follows offset/limit to the end and prints one JSON array of every row', async () => {
    const r = await api(['/api/v1/post-results', '--paginate', '-f', 'limit=2']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(ROWS);
    const offsets = seen.map((s) => new URL(s.url, 'http://x').searchParams.get('offset')).sort();
    expect(offsets).toEqual(['0', '2', '4']);
  });

  it('--paginate starts at -f offset and streams NDJSON with --output ndjson', async () => {
    const r = await api(['/api/v1/post-results?limit=2', '--paginate', '-f', 'offset=1', '--output', 'ndjson']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l))).toEqual(ROWS.slice(1));
  });

  it('--dry-run prints the exact request with the key masked and sends nothing', async () => {
    const r = await api(['-X', 'POST', '/v1/posts', '-f', 'title=x', '--idempotency-key', 'dry-1', '--dry-run']);
    expect(r.code).toBe(0);
    expect(seen).toHaveLength(0);
    expect(r.stdout).toContain(`POST ${baseUrl}/v1/posts\n`);
    expect(r.stdout).toContain('authorization: Bearer …WXYZ');
    expect(r.stdout).toContain('idempotency-key: dry-1');
    expect(r.stdout).toContain('content-type: application/json');
    expect(r.stdout.trimEnd().endsWith('{"title":"x"}')).toBe(true);
    expect(r.stderr).toMatch(/nothing was sent/);
    expectNoKey(r);
    const js = await api(['-X', 'POST', '/v1/posts', '-f', 'title=x', '--dry-run', '--json']);
    expect(JSON.parse(js.stdout)).toMatchObject({ method: 'POST', url: `${baseUrl}/v1/posts`, headers: { authorization: 'Bearer …WXYZ' }, body: { title: 'x' } });
    expect(seen).toHaveLength(0);
  });

  it('retries a 503 with the same Idempotency-Key and body, and says so on stderr', async () => {
    const r = await api(['-X', 'POST', '/v1/posts?flaky=1', '-f', 'title=retry me']);
    expect(r.code).toBe(0);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.headers['idempotency-key']).toBe(seen[0]!.headers['idempotency-key']);
    expect(seen[1]!.body).toBe(seen[0]!.body);
    expect(r.stderr).toMatch(/retrying in \d+s \(attempt 2\): 503/);
  });

  it('uses the caller\'s --idempotency-key and reports a replay', async () => {
    const r = await api(['-X', 'POST', '/v1/posts', '-f', 'title=again', '--idempotency-key', 'seen-before']);
    expect(r.code).toBe(0);
    expect(seen[0]!.headers['idempotency-key']).toBe('seen-before');
    expect(r.stderr).toMatch(/replayed/);
  });

  it('an error: the body on stdout, a readable message with the request id on stderr, exit 4', async () => {
    const r = await api(['/api/v1/post-results/missing']);
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toEqual({ error: { code: 'NOT_FOUND', message: 'no post result missing' }, requestId: 'req_body_404' });
    expect(r.stderr).toMatch(/^error: not found: GET \/api\/v1\/post-results\/missing: no post result missing$/m);
    expect(r.stderr).toMatch(/request id: req_404/);
  });

  it('a Retry-After beyond --max-wait: exit 5 with when to retry', async () => {
    const r = await runCli(['--max-wait', '1s', 'api', '/limited'], { env: env() });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/rate limited; the service asks to wait 1 h, longer than the 1s the client waits/);
    expect(r.stderr).toMatch(/hint: retry after \d{4}-\d\d-\d\dT.*in 1 h/);
    expect(seen).toHaveLength(1);
  });

  it('a body that is not JSON is printed as it came', async () => {
    const r = await api(['/text']);
    expect(r.stdout).toBe('plain answer\n');
  });

  it('--debug traces every attempt with the key redacted', async () => {
    const r = await runCli(['--debug', 'api', '/api/v1/post-results', '-f', 'limit=1'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/debug: GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/post-results\?limit=1 → 200 · \d+ms · attempt 1\/4 · ratelimit 99\/100 reset 3600s/);
    expect(r.stderr).toContain('Bearer …WXYZ');
    expectNoKey(r);
  });

  it('usage errors exit 2 and send nothing', async () => {
    for (const args of [
      ['-X', 'FETCH', '/v1/posts'],
      ['-X', 'POST', '/v1/posts', '--paginate'],
      ['/v1/posts', '-f', 'novalue'],
      ['/v1/posts', '--input', '-'],
      ['-X', 'POST', '/v1/posts', '--input', '/nonexistent/file.json'],
    ]) {
      const r = await api(args);
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr).toMatch(/^error: /m);
    }
    expect(seen).toHaveLength(0);
  });

  it('no key: exit 3 with the fix; a wrong key: exit 3 from the 401', async () => {
    const none = await runCli(['api', '/api/v1/post-results'], { env: { SOCIALPUB_BASE_URL: baseUrl } });
    expect(none.code).toBe(3);
    expect(none.stderr).toMatch(/auth login/);
    const wrong = await runCli(['api', '/api/v1/post-results'], { env: { SOCIALPUB_BASE_URL: baseUrl, SOCIALPUB_API_KEY: 'sk_wrong_key_000000000000' } });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(/the API key was not accepted: invalid API key/);
    expect(wrong.stdout + wrong.stderr).not.toContain('sk_wrong_key_000000000000');
  });
});
