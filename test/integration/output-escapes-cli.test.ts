// A server that puts terminal escape sequences in every field it can (a clipboard write, a window
// title, a screen clear, colours, a link that shows one URL and opens another, C1 bytes) must not
// drive the user's terminal: tables, TSV, CSV, a rendered object and the error lines on stderr
// show those characters instead of obeying them, while JSON keeps the data exact.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureStream, runCli } from '../helpers/run-cli.js';
import { createOutput } from '../../src/output/output.js';
import { safeLine, visible } from '../../src/output/terminal-safe.js';
import { tsvCell } from '../../src/output/writers.js';
import { readTsv } from '../helpers/tsv-read.js';

const OSC52 = '\u001b]52;c;ZXZpbA==\u0007';
const OSC0 = '\u001b]0;pwned\u0007';
const CLEAR = '\u001b[2J';
const SGR = '\u001b[8m';
const EVIL_LINK = '\u001b]8;;https://evil.example/\u0007https://bsky.app/profile/ok\u001b]8;;\u0007';
const C1 = '\u009b2J\u0085\u009d0;t\u009c';
// Bidirectional controls reorder what is shown ("invoice<RLO>gnp.exe" reads "invoiceexe.png").
const BIDI = 'invoice\u202egnp.exe \u2066x\u2069\u200e\u200f\u202a\u202b\u202c\u202d\u2067\u2068\u061c';
const EVIL = `boom ${OSC52}${OSC0}${CLEAR}${SGR}${EVIL_LINK}${C1}\u0007\u007f ${BIDI} end`;

const rows = [
  {
    id: 'res_1',
    post_id: 'post_1',
    success: false,
    platform: 'bluesky',
    social_account_id: 'acc_1',
    platform_data: { username: `ann${OSC0}` },
    error: { code: `BAD${CLEAR}`, message: EVIL },
    created_at: '2026-12-01T09:00:00.000Z',
  },
  {
    id: 'res_2',
    post_id: 'post_1',
    success: true,
    platform: 'mastodon',
    social_account_id: 'acc_2',
    platform_data: { username: `bob${C1}`, url: `https://example.social/@bob${EVIL_LINK}` },
    error: null,
    created_at: '2026-12-01T09:01:00.000Z',
  },
];

/** Our palette (bold, dim, colours and their resets): the only escapes allowed to reach a terminal. */
const OUR_SGR = /\u001b\[(?:1|2|22|31|32|33|35|36|39|90)m/g;
/** Any control character a terminal acts on, after our colours are taken out (tab, LF and CRLF allowed). */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/;
const clean = (text: string) => !CONTROL.test(text.replace(OUR_SGR, ''));

describe('server text that tries to drive the terminal', () => {
  let server: Server;
  let env: Record<string, string>;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (url.pathname === '/api/v1/post-results' && [...url.searchParams.values()].includes('post_evil')) {
        return json(422, { error: { code: 'VALIDATION_ERROR', message: `bad query ${EVIL}`, issues: [{ path: 'postId', message: EVIL }] }, requestId: `req_${OSC0}${C1}` });
      }
      if (url.pathname === '/api/v1/post-results') return json(200, { data: rows, meta: { offset: 0, limit: 100, total: rows.length } });
      if (url.pathname === '/api/v1/post-results/res_1') return json(200, rows[0]);
      return json(404, { error: { code: 'NOT_FOUND', message: 'not found' } });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    env = { SOCIALPUB_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, SOCIALPUB_API_KEY: 'sk_test_evil_server_key_0000000000' };
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  it('a table on a colour terminal shows the escapes as text; only our colours are live', async () => {
    const r = await runCli(['results', 'list'], { env: { ...env, FORCE_COLOR: '1' }, tty: true, columns: 400 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(OUR_SGR);
    expect(clean(r.stdout)).toBe(true);
    expect(clean(r.stderr)).toBe(true);
    expect(r.stdout).toContain('\\u001b]52;c;ZXZpbA==');
  });

  it('results stats on a colour terminal draws its bars in our colours, not as visible escapes', async () => {
    const r = await runCli(['results', 'stats', '--by', 'platform'], { env: { ...env, FORCE_COLOR: '1' }, tty: true, columns: 120 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\u001b\[3[12]m█+\u001b\[39m/);
    expect(r.stdout).not.toContain('\\u001b');
    expect(clean(r.stdout)).toBe(true);
  });

  it('TSV, and CSV onto a terminal, carry no control characters but their own tab, LF and CRLF (CSV into a file keeps the data exact: csv-exact-and-safe)', async () => {
    for (const format of ['tsv', 'csv']) {
      const r = await runCli(['results', 'list', '-o', format, '--fields', 'id,error.message,platform_data.username'], { env, tty: format === 'csv' });
      expect({ format, code: r.code }).toEqual({ format, code: 0 });
      expect(r.stdout).not.toMatch(OUR_SGR);
      expect(clean(r.stdout)).toBe(true);
      // One visible escape each (\\u001b), never with its backslash escaped again by TSV.
      expect(r.stdout).toContain(format === 'csv' ? visible(EVIL) : tsvCell(EVIL));
      if (format === 'tsv') expect(r.stdout).not.toContain('\\\\u');
    }
  });

  it('every TSV (results list, accounts list, stats, posts check) writes a control character as one escape, and reads back exact', async () => {
    const list = await runCli(['results', 'list', '-o', 'tsv', '--fields', 'id,error.message,platform_data.username'], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(readTsv(list.stdout)[0]).toEqual(['res_1', EVIL, `ann${OSC0}`]);
    // Accounts derived from the results (this server has no accounts route): the usernames.
    const accounts = await runCli(['accounts', 'list', '-o', 'tsv'], { env });
    expect(accounts.code, accounts.stderr).toBe(0);
    expect(accounts.stdout).toContain('ann\\u001b]0;pwned\\u0007');
    expect(readTsv(accounts.stdout).flat()).toEqual(expect.arrayContaining([`ann${OSC0}`, `bob${C1}`]));
    const stats = await runCli(['results', 'stats', '--by', 'code', '-o', 'tsv'], { env });
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.stdout).toContain('BAD\\u001b[2J');
    expect(readTsv(stats.stdout).map((row) => row[0])).toContain(`BAD${CLEAR}`);
    // posts check: a media file whose name holds a BEL, named in its row.
    const media = `/nowhere/clip\u0007.png`;
    const check = await runCli(['posts', 'check', '--platform', 'bluesky', '--text', 'Hi', '--media', media, '-o', 'tsv'], { env });
    expect(check.stdout).toContain('clip\\u0007.png');
    expect(readTsv(check.stdout).some((row) => row.some((cell) => cell.includes(`clip\u0007.png`)))).toBe(true);
    for (const out of [list, accounts, stats, check]) {
      expect(clean(out.stdout)).toBe(true);
      expect(out.stdout).not.toMatch(/\\\\u[0-9a-f]{4}/);
    }
  });

  it('results get on a terminal shows the object with the escapes as text', async () => {
    const r = await runCli(['results', 'get', 'res_1'], { env: { ...env, FORCE_COLOR: '1' }, tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('\\u001b[2J');
    expect(clean(r.stdout)).toBe(true);
  });

  it('error:, hint: and request id: lines on stderr show the escapes as text, the JSON error keeps them exact', async () => {
    // Wide enough that no line wraps: the lines are matched whole.
    const r = await runCli(['results', 'list', '--post', 'post_evil', '--json'], { env: { ...env, FORCE_COLOR: '1' }, tty: true, columns: 1000 });
    expect(r.code, r.stderr).toBe(2);
    const [human, json] = [r.stderr.split('\n').filter((l) => !l.startsWith('{')).join('\n'), r.stderr.split('\n').find((l) => l.startsWith('{'))!];
    expect(human).toMatch(/^\S*error:\S* .*bad query boom \\u001b\]52/m);
    expect(human).toContain(`hint: postId: ${visible(EVIL)}`);
    expect(human).toContain(`request id: ${visible(`req_${OSC0}${C1}`)}`);
    expect(clean(human)).toBe(true);
    const parsed = JSON.parse(json) as { error: { message: string; requestId: string } };
    expect(parsed.error.requestId).toBe(`req_${OSC0}${C1}`);
    expect(parsed.error.message).toContain(EVIL);
    expect(clean(json)).toBe(true);
  });

  it('JSON and NDJSON keep every string exact (and escape C1 and bidirectional controls as JSON may)', async () => {
    const json = await runCli(['results', 'list', '--json'], { env, tty: true });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(rows);
    expect(clean(json.stdout)).toBe(true);
    const nd = await runCli(['results', 'list', '-o', 'ndjson'], { env });
    expect(nd.stdout.trim().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual(rows);
    expect(clean(nd.stdout)).toBe(true);
  });

  it('--jq strings are shown, on a terminal and in a pipe (a CI log obeys escapes too); tojson keeps the data exact', async () => {
    const argv = ['results', 'list', '--jq', '.[0].error.message'];
    const tty = await runCli(argv, { env, tty: true });
    expect(tty.code, tty.stderr).toBe(0);
    expect(tty.stdout).toBe(`${visible(EVIL)}\n`);
    const piped = await runCli(argv, { env });
    expect(piped.stdout).toBe(`${visible(EVIL)}\n`);
    expect(clean(piped.stdout)).toBe(true);
    const exact = await runCli(['results', 'list', '--jq', '.[0].error.message | tojson'], { env });
    expect(JSON.parse(exact.stdout)).toBe(EVIL);
    expect(clean(exact.stdout)).toBe(true);
  });
});

describe('the one place that makes text safe', () => {
  it('a log line made from a row shows its escapes; a message line keeps only our colours and links', async () => {
    const stdout = captureStream(true, 1000);
    const stderr = captureStream(true, 1000);
    const out = createOutput({ stdout, stderr, format: 'table', env: { FORCE_HYPERLINK: '1' } });
    const events = [{ text: EVIL }];
    await out.list(events, { kind: 'log', columns: [{ header: 'text', value: (e) => e.text }], line: (e) => `event ${e.text}`, json: (e) => e });
    expect(stdout.text()).toBe(`event ${visible(EVIL)}\n`);
    expect(clean(stdout.text())).toBe(true);

    const ours = out.link('https://bsky.app/profile/ok');
    out.notice(`${'\u001b[31m'}✗\u001b[39m ${ours} said: ${EVIL}`);
    const line = stderr.text();
    expect(line.startsWith(`\u001b[31m✗\u001b[39m ${ours} said: `)).toBe(true);
    expect(line).not.toContain('\u001b]8;;https://evil.example/');
    expect(clean(line.replace(ours, ''))).toBe(true);
  });

  it('keeps tab, LF and CRLF for the formats to handle, and shows a lone CR', () => {
    expect(visible('a\tb\nc\r\nd\re')).toBe('a\tb\nc\r\nd\\u000de');
    expect(safeLine('\u001b[1mbold\u001b[22m \u001b[5mblink', new Set())).toBe('\u001b[1mbold\u001b[22m \\u001b[5mblink');
  });
});
