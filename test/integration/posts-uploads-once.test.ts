// Uploads sent once (contract 7.4): the same bytes are not sent again to the same service by the
// same profile, the service is asked first (GET /v1/media/{id}); an edited bulk file sends only
// the rows that changed; and a service that answers POST /v1/media with exactly { id, uploadUrl }
// (the contract to the letter) still works, the URL taken from the media object.
import { statSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { startSdkSession } from '../helpers/mcp-sdk-client.js';
import { png } from '../helpers/media-fixtures.js';
import { START, cliEnv, manualSandbox, sandboxClock, type ManualSandbox } from './posts-support.js';

const dir = mkdtempSync(join(tmpdir(), 'uploads-once-'));
const opened: ManualSandbox[] = [];
afterEach(async () => {
  for (const sb of opened.splice(0)) await sb.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const count = (sb: ManualSandbox, method: string, path: RegExp) => sb.requests.filter((q) => q.method === method && path.test(q.path)).length;
const iso = (minutes: number) => new Date(START + 86_400_000 + minutes * 60_000).toISOString();

describe('uploads sent once', () => {
  it('a second post with the same image asks the service and sends no bytes; the record file is 0600', async () => {
    const sb = await manualSandbox({ failureRate: 0 });
    opened.push(sb);
    const photo = join(dir, 'same.png');
    writeFileSync(photo, png(400, 300));
    const config = tempConfigDir();
    const run = (text: string) => runCli(['posts', 'create', '--platform', 'bluesky', '--text', text, '--media', photo], { env: cliEnv(sb), clock: sandboxClock(sb.clock), configDir: config.dir });
    expect((await run('first')).code).toBe(0);
    expect(count(sb, 'PUT', /^\/v1\/media\/[^/]+\/upload$/)).toBe(1);
    const second = await run('second');
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('not uploaded again');
    expect(count(sb, 'PUT', /^\/v1\/media\/[^/]+\/upload$/)).toBe(1);
    expect(count(sb, 'POST', /^\/v1\/media$/)).toBe(1);
    expect(count(sb, 'GET', /^\/v1\/media\/[^/]+$/)).toBe(1);
    expect(statSync(join(config.dir, 'uploads.json')).mode & 0o777).toBe(0o600);
  });

  it('socialpub mcp --media-dir sends the same bytes once too: create_draft twice, then update_post', async () => {
    const sb = await manualSandbox({ failureRate: 0 });
    opened.push(sb);
    const folder = mkdtempSync(join(dir, 'mcp-'));
    const photo = join(folder, 'same.png');
    writeFileSync(photo, png(400, 300));
    const s = await startSdkSession(['--media-dir', folder], { env: { SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: sb.key('demo') } });
    try {
      const first = await s.call('create_draft', { platforms: ['bluesky'], text: 'first', media: [photo] });
      expect(first.isError, JSON.stringify(first.structuredContent)).toBeFalsy();
      const second = await s.call('create_draft', { platforms: ['bluesky'], text: 'second', media: [photo] });
      expect(second.isError, JSON.stringify(second.structuredContent)).toBeFalsy();
      const edited = await s.call('update_post', { post_id: first.structuredContent.post.id, media: [photo], alt: ['The same photo'] });
      expect(edited.isError, JSON.stringify(edited.structuredContent)).toBeFalsy();
    } finally {
      expect(await s.close()).toBe(0);
    }
    expect(count(sb, 'PUT', /^\/v1\/media\/[^/]+\/upload$/)).toBe(1);
    expect(count(sb, 'POST', /^\/v1\/media$/)).toBe(1);
    expect(count(sb, 'GET', /^\/v1\/media\/[^/]+$/)).toBe(2);
  });

  it('changed bytes under the same name are uploaded again', async () => {
    const sb = await manualSandbox({ failureRate: 0 });
    opened.push(sb);
    const photo = join(dir, 'changing.png');
    const config = tempConfigDir();
    const run = () => runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'x', '--media', photo, '-q'], { env: cliEnv(sb), clock: sandboxClock(sb.clock), configDir: config.dir });
    writeFileSync(photo, png(400, 300));
    expect((await run()).code).toBe(0);
    writeFileSync(photo, png(401, 300));
    expect((await run()).code).toBe(0);
    expect(count(sb, 'PUT', /^\/v1\/media\/[^/]+\/upload$/)).toBe(2);
  });

  it('an edited bulk file sends only its changed row, and its image is not sent again', async () => {
    const sb = await manualSandbox({ failureRate: 0 });
    opened.push(sb);
    writeFileSync(join(dir, 'a.png'), png(400, 300));
    const rows = (edited: string) => ['at,platforms,text,media', ...Array.from({ length: 6 }, (_, i) => `${iso(i * 10)},bluesky,${i === 3 ? edited : `Row ${i}`},a.png`)].join('\n') + '\n';
    const csv = join(dir, 'week.csv');
    const config = tempConfigDir();
    const run = () => runCli(['posts', 'schedule', '--from-file', csv], { env: cliEnv(sb), clock: sandboxClock(sb.clock), configDir: config.dir });
    writeFileSync(csv, rows('Row 3'));
    expect((await run()).code).toBe(0);
    const writesBefore = sb.requests.filter((q) => q.method !== 'GET').length;
    writeFileSync(csv, rows('Row 3 fixed'));
    const again = await run();
    expect(again.code, again.stderr).toBe(0);
    const lines = again.stdout.trim().split('\n').map((l) => l.split('\t')[2]);
    expect(lines.filter((o) => o === 'already-done')).toHaveLength(5);
    expect(lines.filter((o) => o === 'created')).toHaveLength(1);
    // One schedule request, no media declared or uploaded.
    expect(sb.requests.filter((q) => q.method !== 'GET').length - writesBefore).toBe(1);
  });
});

describe('a bulk run beyond the write budget', () => {
  it('says, once the service has reported its budget, how long the run will take at it', async () => {
    const sb = await manualSandbox({ failureRate: 0, writeLimit: 4 });
    opened.push(sb);
    const csv = join(dir, 'budget.csv');
    writeFileSync(csv, ['at,platforms,text', ...Array.from({ length: 9 }, (_, i) => `${iso(i * 10)},bluesky,Budget row ${i}`)].join('\n') + '\n');
    const r = await runCli(['posts', 'schedule', '--from-file', csv], { env: cliEnv(sb), clock: sandboxClock(sb.clock), configDir: tempConfigDir().dir });
    expect(r.code, r.stderr).toBe(0);
    // After the first row: 8 writes to do, 3 left in this window, then 4 a window: two more windows (the run waits twice).
    expect(r.stderr).toMatch(/this run needs up to 8 writes and the service allows 4 an hour \(3 left now\): it will take about 2 h at that budget/);
  });
});

describe('a service that answers POST /v1/media with { id, uploadUrl } only', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  it('takes the URL from GET /v1/media/{id} and references it in the post', async () => {
    const seen: Array<{ method: string; url: string; body: string }> = [];
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('latin1')));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, body });
        const base = `http://127.0.0.1:${(server!.address() as { port: number }).port}`;
        res.setHeader('content-type', 'application/json');
        if (req.method === 'POST' && req.url === '/v1/media') return res.writeHead(201).end(JSON.stringify({ id: 'med_1', uploadUrl: `${base}/v1/media/med_1/upload` }));
        if (req.method === 'PUT') return res.writeHead(200).end('{}');
        if (req.method === 'GET' && req.url === '/v1/media/med_1') return res.writeHead(200).end(JSON.stringify({ id: 'med_1', url: 'https://cdn.example/med_1.png', mimeType: 'image/png', sizeBytes: 1, sha256: null }));
        if (req.method === 'POST' && req.url === '/v1/posts') return res.writeHead(201).end(JSON.stringify({ id: 'post_1', status: 'draft', payloads: JSON.parse(body).payloads, scheduledAt: null }));
        res.writeHead(404).end(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'no' } }));
      });
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const photo = join(dir, 'plain.png');
    writeFileSync(photo, png(300, 300));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const r = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'Hi', '--media', photo, '-q'], { env: { SOCIALPUB_BASE_URL: base, SOCIALPUB_API_KEY: 'sk_test_contract' }, configDir: tempConfigDir().dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('post_1');
    const post = seen.find((q) => q.url === '/v1/posts')!;
    expect(JSON.parse(post.body).payloads.bluesky.media[0].url).toBe('https://cdn.example/med_1.png');
    expect(seen.map((q) => `${q.method} ${q.url}`)).toEqual(['POST /v1/media', 'PUT /v1/media/med_1/upload', 'GET /v1/media/med_1', 'POST /v1/posts']);
  });
});
