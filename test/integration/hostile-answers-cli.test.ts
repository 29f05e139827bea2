// Answers no honest service gives, end to end through the in-process CLI over real HTTP: a wait
// asked for that no date can hold, bodies that are not JSON carrying escape sequences, a live-post
// URL with escapes, a 201 whose body cannot be read. Each ends in a clear message and the
// contract's exit code; nothing a server sent drives the terminal.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { startMcpPipe } from '../helpers/mcp-stdio.js';
import { freePort } from '../helpers/ports.js';
import { PNG_HEAD } from './posts-support.js';
import { answer, misbehavingPerTest, type Handler } from '../helpers/misbehaving-server.js';
import { advancingClock } from '../helpers/advancing-clock.js';
import { createManualClock } from '../../src/sandbox/index.js';

const KEY = 'sk_test_hostile_answers_0000000000';
const ESCAPES = '\u001b]52;c;ZXZpbA==\u0007\u001b]0;pwned\u0007\u001b[2J\u009b2J';
/** Any control character a terminal acts on (tab, line feed and CRLF are text). */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/;

const service = misbehavingPerTest({ SOCIALPUB_API_KEY: KEY });
const serve = (handler: Handler) => service.serve(handler);

const result = (url: string) => ({
  id: 'res_1',
  post_id: 'post_1',
  success: true,
  social_account_id: 'acc_1',
  platform: 'bluesky',
  platform_data: { id: 'p1', url, username: 'ann' },
  error: null,
  created_at: '2026-11-20T12:00:00.000Z',
});

describe('a rate limit that asks for a wait no date can hold', () => {
  it('Retry-After of a billion years: exit 5 with the wait it asked for, not a crash', async () => {
    const env = await serve((_req, res) => answer(res, 429, { error: { code: 'RATE_LIMITED', message: 'slow down' } }, { 'retry-after': '99999999999999' }));
    const r = await runCli(['results', 'get', 'res_1', '--json'], { env });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: rate limited; the service asks to wait more than a year/m);
    expect(r.stderr).not.toMatch(/RangeError|Invalid time value/);
    const json = JSON.parse(r.stderr.trim().split('\n').pop()!) as { error: Record<string, unknown> };
    expect(json.error).toMatchObject({ code: 'RATE_LIMITED', status: 429, exitCode: 5 });
    expect(json.error).not.toHaveProperty('retryAt');
  });

  it('RateLimit-Reset of 1e300 seconds without Retry-After: exit 5 once the retries are spent', async () => {
    const env = await serve((_req, res) => answer(res, 429, { error: { code: 'RATE_LIMITED', message: 'slow down' } }, { 'ratelimit-reset': '1e300' }));
    const r = await runCli(['posts', 'list', '--max-retries', '0'], { env });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/^error: rate limited/m);
    expect(r.stderr).not.toMatch(/RangeError|Invalid time value/);
  });

  it('the MCP server answers it as a rate_limited tool error, not a protocol error', async () => {
    const env = await serve((_req, res) => answer(res, 429, { error: { code: 'RATE_LIMITED', message: 'slow down' } }, { 'retry-after': '99999999999999' }));
    const mcp = startMcpPipe([], env);
    await mcp.initialize();
    const reply = (await mcp.call(2, 'get_result', { result_id: 'res_1' })) as { result?: { isError?: boolean; structuredContent?: { code?: string } }; error?: unknown };
    expect(reply.error).toBeUndefined();
    expect(reply.result?.isError).toBe(true);
    expect(reply.result?.structuredContent?.code).toBe('rate_limited');
    expect(await mcp.close()).toBe(0);
  });
});

describe('a Retry-After of days', () => {
  it('is told in days, and when to retry with its date and zone, not as a clock time alone', async () => {
    const env = await serve((_req, res) => answer(res, 429, { error: { code: 'RATE_LIMITED', message: 'slow down' } }, { 'retry-after': String(100 * 86_400) }));
    const r = await runCli(['posts', 'list'], { env });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/^error: rate limited; the service asks to wait 100 days, longer than the 1 min the client waits/m);
    expect(r.stderr).toMatch(/^ {2}hint: retry after \S+Z \(\d{4}-\d{2}-\d{2} \d{2}:\d{2} \S+ local, in 100 days\), or raise --max-wait$/m);
    expect(r.stderr).not.toMatch(/\d{3,} h\b/);
  });
});

describe('a 503 whose Retry-After is beyond --max-wait', () => {
  it('is not retried, and the message says why (exit 1)', async () => {
    const env = await serve((_req, res) => answer(res, 503, { error: { code: 'UNAVAILABLE', message: 'down for maintenance' } }, { 'retry-after': '86400' }));
    const r = await runCli(['posts', 'list'], { env });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^error: the service failed \(503 Service Unavailable\); it asks to retry in 1 day, longer than the 1 min the client waits \(--max-wait\): down for maintenance/m);
    expect(service.server.requests).toHaveLength(1);
  });
});

describe('server text outside JSON is shown, not obeyed', () => {
  it('`api`: an HTML page where JSON belongs reaches stdout with its escapes made visible', async () => {
    const env = await serve((_req, res) => answer(res, 200, `<html>hi${ESCAPES}</html>`, { 'content-type': 'text/html' }));
    const r = await runCli(['api', '/v1/posts'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('<html>hi\\u001b]52;c;ZXZpbA==\\u0007\\u001b]0;pwned\\u0007\\u001b[2J\\u009b2J</html>\n');
  });

  it('`api`: the plain-text body of a failure too (a framework 404 page), on stdout and stderr', async () => {
    const env = await serve((_req, res) => answer(res, 404, `Cannot GET /v1/posts${ESCAPES}`, { 'content-type': 'text/plain' }));
    const r = await runCli(['api', '/v1/posts'], { env });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stdout).toContain('Cannot GET /v1/posts\\u001b]52;c;');
    expect(r.stdout).not.toMatch(CONTROL);
    expect(r.stderr).not.toMatch(CONTROL);
  });

  it('`results get --web` without a browser prints the live URL with its escapes made visible', async () => {
    const env = await serve((_req, res) => answer(res, 200, result(`https://bsky.app/p/1${ESCAPES}`)));
    const r = await runCli(['results', 'get', 'res_1', '--web'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('https://bsky.app/p/1\\u001b]52;c;ZXZpbA==\\u0007\\u001b]0;pwned\\u0007\\u001b[2J\\u009b2J\n');
  });

  it('`results get --web` hands no URL with control characters to the browser: it prints it instead', async () => {
    const env = await serve((_req, res) => answer(res, 200, result(`https://bsky.app/p/1${ESCAPES}`)));
    // A "browser" that would succeed: had it been run, the URL would not be printed.
    const browser = `${process.execPath} -e process.exit(0)`;
    const r = await runCli(['results', 'get', 'res_1', '--web'], { env: { ...env, SOCIALPUB_BROWSER: browser } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('opened');
    expect(r.stdout).toContain('https://bsky.app/p/1\\u001b]52');
    expect(r.stdout).not.toMatch(CONTROL);
  });

  it('the MCP server log on stderr shows the escapes of a service message', async () => {
    const env = await serve((_req, res) => answer(res, 404, { error: { code: 'NOT_FOUND', message: `no such thing${ESCAPES}` } }));
    const mcp = startMcpPipe([], env);
    await mcp.initialize();
    const reply = (await mcp.call(2, 'list_posts', {})) as { result?: { isError?: boolean } };
    expect(reply.result?.isError).toBe(true);
    expect(await mcp.close()).toBe(0);
    expect(mcp.stderr()).toContain('no such thing\\u001b]52;c;');
    expect(mcp.stderr()).not.toMatch(CONTROL);
  });
});

describe('escapes in the keys of an answer', () => {
  // A post's platforms are its payloads' keys: a row made safe for a terminal keeps its keys as they came.
  const post = {
    id: 'post_1',
    status: 'scheduled',
    title: `Launch\u009b2J`,
    payloads: { [`bluesky${ESCAPES}`]: { text: 'hello' } },
    scheduledAt: '2027-01-01T09:00:00.000Z',
    createdAt: '2026-11-20T12:00:00.000Z',
    updatedAt: '2026-11-20T12:00:00.000Z',
  };
  const list = (): Handler => (_req, res) => answer(res, 200, { data: [post], meta: { offset: 0, limit: 20, total: 1 } });

  // CSV onto a terminal: into a file it keeps the exact data (contract 7.6, csv-exact-and-safe.test.ts).
  it.each([['tsv'], ['csv'], ['ics'], ['table']])('posts list -o %s shows them, not obeys them', async (format) => {
    const env = await serve(list());
    const r = await runCli(['posts', 'list', '-o', format], { env, tty: format === 'table' || format === 'csv' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(format === 'ics' ? /CATEGORIES:bluesky\]52/ : /bluesky\\+u001b\]52/);
    // CSV and iCalendar end their lines with CRLF; a table on a terminal has our own colours.
    expect(r.stdout.replace(/\u001b\[\d+m/g, '')).not.toMatch(CONTROL);
  });
});

describe('a text of 100,000 characters of emoji and accents', () => {
  // The grapheme segmenter takes over a minute on a text this long in one piece.
  const long = '🎉e\u0301'.repeat(32_000);
  const post = { id: 'post_1', status: 'published', payloads: { bluesky: { text: long } }, scheduledAt: null, createdAt: '2026-11-20T12:00:00.000Z', updatedAt: '2026-11-20T12:00:00.000Z' };
  const failure = { ...result('https://x.example/1'), success: false, platform_data: { id: 'p1', url: null, username: 'ann' }, error: { code: 'TOO_LONG', message: long, context: {} } };
  const handler: Handler = (req, res) => {
    if (req.url!.startsWith('/v1/posts?')) answer(res, 200, { data: [post], meta: { offset: 0, limit: 20, total: 1 } });
    else if (req.url!.startsWith('/v1/posts/')) answer(res, 200, post);
    else if (req.url!.startsWith('/api/v1/post-results/')) answer(res, 200, failure);
    else answer(res, 200, { data: [failure], meta: { offset: 0, limit: 100, total: 1 } });
  };

  it.each([[['posts', 'list']], [['posts', 'view', 'post_1']], [['results', 'get', 'res_1']]])('%s on a terminal shows it in time', async (argv) => {
    const env = await serve(handler);
    const r = await runCli(argv, { env: { ...env, SOCIALPUB_PAGER: 'cat' }, tty: true, columns: 100 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('🎉e\u0301🎉');
  });
});

describe('a write whose answer cannot be read', () => {
  it('a 201 with an HTML body every time: asked again with the same key for ~30 s, then exit 1 and the key that makes a re-run safe', async () => {
    const env = await serve((_req, res) => answer(res, 201, '<html>created</html>', { 'content-type': 'text/html' }));
    const r = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'hello'], { env, clock: advancingClock(createManualClock(Date.parse('2026-12-01T09:00:00.000Z'))) });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: unexpected response from POST \/v1\/posts: the body is not JSON/m);
    const posts = service.server.requests.filter((q) => q.method === 'POST');
    expect(posts.length).toBeGreaterThan(1);
    expect(new Set(posts.map((q) => q.headers['idempotency-key'])).size).toBe(1);
    const sentKey = posts[0]!.headers['idempotency-key'];
    expect(sentKey).toMatch(/\S/);
    expect(r.stderr).toContain(`the post may have been created before the failure: re-run with --idempotency-key ${String(sentKey)}`);
  });
});

describe('a local service that resets the connection', () => {
  it('is not called one where nothing answers: exit 6, and the hint for a connection that failed', async () => {
    const env = await serve((req) => req.socket.destroy());
    const r = await runCli(['posts', 'list', '--max-retries', '0'], { env });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/^error: could not reach http:\/\/127\.0\.0\.1:\d+: socket hang up/m);
    expect(r.stderr).not.toContain('nothing answers at');
    expect(r.stderr).toContain('hint: check the base URL and your connection');
  });
});

describe('an upload URL where nothing answers', () => {
  it('the error names the upload host, not the service, and does not say to start the service', async () => {
    const closed = await freePort();
    const env = await serve((req, res) => {
      if (req.method === 'POST' && req.url === '/v1/media') answer(res, 201, { id: 'med_1', uploadUrl: `http://127.0.0.1:${closed}/up`, url: 'https://cdn.example/m.png' });
      else answer(res, 404, { error: { code: 'NOT_FOUND', message: 'no route' } });
    });
    const { dir } = tempConfigDir();
    const png = join(dir, 'pic.png');
    writeFileSync(png, Buffer.concat([PNG_HEAD, Buffer.alloc(512)]));
    const r = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'hi', '--media', png, '--max-retries', '0'], { env, configDir: dir });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(new RegExp(`^error: could not reach http://127\\.0\\.0\\.1:${closed}: `, 'm'));
    // The service itself answered: no advice to start it.
    expect(r.stderr).not.toContain('nothing answers at');
    expect(service.server.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['POST /v1/media']);
  });
});

describe('`results wait` against a service that hangs', () => {
  it('ends at its own --timeout with one request cut short, not after every retry of a 30 s request', async () => {
    // Takes the request and never answers.
    const env = await serve(() => undefined);
    const r = await runCli(['--timeout', '30s', 'results', 'wait', '--post', 'post_1', '--timeout', '500ms'], { env });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: the service did not answer before the wait ended \(--timeout 500ms\)/m);
    expect(service.server.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['GET /v1/posts/post_1']);
  });
});

describe('a bulk run told to wait beyond reason', () => {
  const limited = (headers: Record<string, string>): Handler => (_req, res) => answer(res, 429, { error: { code: 'RATE_LIMITED', message: 'slow down' } }, headers);

  async function bulk(headers: Record<string, string>, extra: string[] = []) {
    const env = await serve(limited(headers));
    const { dir } = tempConfigDir();
    const file = join(dir, 'posts.ndjson');
    const row = (text: string, at: string) => JSON.stringify({ payloads: { bluesky: { text } }, scheduledAt: at });
    writeFileSync(file, `${row('one', '2027-01-01T09:00:00Z')}\n${row('two', '2027-01-01T10:00:00Z')}\n`);
    return runCli(['posts', 'schedule', '--from-file', file, ...extra], { env, configDir: dir });
  }
  const posts = () => service.server.requests.filter((q) => q.method === 'POST').length;

  it('a Retry-After in the year 9999, without --max-wait: the run stops at once (exit 5) instead of spinning', async () => {
    const r = await bulk({ 'retry-after': 'Fri, 31 Dec 9999 23:59:59 GMT' });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain('beyond a week, the longest a bulk run waits without --max-wait');
    expect(posts()).toBe(1);
  });

  it('a Retry-After of a billion years: stopped the same way, with no date to print', async () => {
    const r = await bulk({ 'retry-after': '99999999999999' });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain('rate limited: the next write is allowed no time soon, beyond a week');
    expect(posts()).toBe(1);
  });

  it('a RateLimit-Reset of 1e300 seconds once the retries are spent: exit 5, not "Invalid time value"', async () => {
    const r = await bulk({ 'ratelimit-reset': '1e300' }, ['--max-retries', '0']);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).not.toContain('Invalid time value');
    expect(posts()).toBe(1);
  });
});

describe('an answer nested too deeply to walk', () => {
  it('a result whose platform_data nests 100,000 levels: exit 1 with a message that says so, not a bare RangeError', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const env = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"data":[{"id":"res_1","post_id":"post_1","success":true,"platform":"bluesky","platform_data":{"x":${deep}},"created_at":"2026-11-20T12:00:00.000Z"}],"meta":{"total":1,"limit":20,"offset":0}}`);
    });
    const r = await runCli(['results', 'list', '--json'], { env });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: could not handle a value nested too deeply/m);
    expect(r.stderr).not.toMatch(/Maximum call stack/);
    const json = JSON.parse(r.stderr.trim().split('\n').pop()!) as { error: Record<string, unknown> };
    expect(json.error).toMatchObject({ code: 'TOO_DEEP', exitCode: 1 });
  });
});
