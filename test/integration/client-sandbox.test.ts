// The client and `socialpub api` against the real sandbox over HTTP on 127.0.0.1: paging equals
// what the service holds (read over plain HTTP as the oracle), idempotent replays, typed errors
// from the service's real answers, media upload, and no duplicate posts under injected faults
// (resets, lost responses, 429s, responses slower than the timeout).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createClient } from '../../src/client/index.js';
import { AddonRequiredError, AuthError, IdempotencyKeyReusedError, NotFoundError, ValidationError } from '../../src/client/errors.js';
import type { ApiClient } from '../../src/client/types.js';
import type { Post, PostResult } from '../../src/wire/schemas.js';
import { runCli } from '../helpers/run-cli.js';

const START = Date.parse('2026-12-01T09:00:00.000Z');
let sb: Sandbox;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 5, clock: createManualClock(START), fixtures: 230, failureRate: 0.25, writeLimit: 100_000, readLimit: 1_000_000 });
});
afterAll(async () => {
  await sb?.close();
});

function clientFor(s: Sandbox, workspace = 'demo', extra: Partial<Parameters<typeof createClient>[0]> = {}): ApiClient {
  return createClient({ baseUrl: s.url, apiKey: s.key(workspace), sleep: async () => {}, now: () => s.clock.now(), ...extra });
}

/** Plain HTTP, without the client under test, retried past injected faults. */
async function oracle<T>(s: Sandbox, path: string): Promise<T> {
  for (let i = 0; i < 50; i++) {
    try {
      const res = await fetch(new URL(path, s.url), { headers: { authorization: `Bearer ${s.key('demo')}` }, signal: AbortSignal.timeout(5000) });
      if (res.status === 200) return (await res.json()) as T;
    } catch {
      // reset or lost response: ask again
    }
  }
  throw new Error(`oracle read of ${path} kept failing`);
}

async function oracleAll<T>(s: Sandbox, path: string): Promise<T[]> {
  const out: T[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await oracle<{ data: T[] }>(s, `${path}${path.includes('?') ? '&' : '?'}offset=${offset}&limit=100`);
    out.push(...page.data);
    if (page.data.length < 100) return out;
  }
}

describe('client against the sandbox', () => {
  it('iterates every result in the service order, with concurrent pages', async () => {
    const expected = await oracleAll<PostResult>(sb, '/api/v1/post-results');
    expect(expected.length).toBe(230);
    const totals: number[] = [];
    const got: PostResult[] = [];
    for await (const row of clientFor(sb).results.iterate({}, { pageSize: 37, concurrency: 4, onTotal: (t) => totals.push(t) })) got.push(row);
    expect(totals).toEqual([230]);
    expect(got.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    expect(got[0]).toEqual(expected[0]); // extra fields (platform, created_at) kept
  });

  it('filters with repeated keys', async () => {
    const expected = await oracleAll<PostResult>(sb, '/api/v1/post-results?platform=bluesky&platform=threads');
    const got: string[] = [];
    for await (const row of clientFor(sb).results.iterate({ platform: ['bluesky', 'threads'] }, { pageSize: 20 })) got.push(row.id);
    expect(got).toEqual(expected.map((r) => r.id));
    expect(new Set(expected.map((r) => r.platform))).toEqual(new Set(['bluesky', 'threads']));
  });

  it('a POST repeated with the same key is replayed, not created twice; another body with it is refused', async () => {
    const client = clientFor(sb);
    const body = { payloads: { bluesky: { text: 'idempotent hello' } }, title: 'idem-1' };
    const first = await client.posts.create(body, { idempotencyKey: 'idem-key-1' });
    const again = await client.posts.create(body, { idempotencyKey: 'idem-key-1' });
    expect(first.status).toBe(201);
    expect(first.replayed).toBe(false);
    expect(again.replayed).toBe(true);
    expect(again.data.id).toBe(first.data.id);
    await expect(client.posts.create({ ...body, title: 'other' }, { idempotencyKey: 'idem-key-1' })).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    const posts = await oracleAll<Post>(sb, '/v1/posts');
    expect(posts.filter((p) => p.title === 'idem-1')).toHaveLength(1);
  });

  it('maps the service\'s real error answers to typed errors with request ids', async () => {
    const nf = await clientFor(sb).results.get('res_does_not_exist').catch((e: unknown) => e);
    expect(nf).toBeInstanceOf(NotFoundError);
    expect((nf as NotFoundError).requestId).toMatch(/^req_\w+$/);
    await expect(clientFor(sb, 'lapsed').results.list({ limit: 1 })).rejects.toBeInstanceOf(AddonRequiredError);
    await expect(createClient({ baseUrl: sb.url, apiKey: 'sk_not_a_real_key_0000000000' }).results.list({ limit: 1 })).rejects.toBeInstanceOf(AuthError);
    const invalid = (await clientFor(sb).posts.create({ payloads: { myspace: { text: 'x' } } }).catch((e: unknown) => e)) as ValidationError;
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid.issues.length).toBeGreaterThan(0);
    // Another workspace's id is not found either.
    const mine = (await oracle<{ data: PostResult[] }>(sb, '/api/v1/post-results?limit=1')).data[0]!;
    await expect(clientFor(sb, 'other').results.get(mine.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('declares media and uploads its bytes to the upload URL', async () => {
    const client = clientFor(sb);
    const bytes = new Uint8Array(Buffer.from('\x89PNG fake image bytes', 'latin1'));
    const media = await client.media.create({ name: 'cat.png', mimeType: 'image/png', sizeBytes: bytes.byteLength });
    const put = await client.media.upload(media.data.uploadUrl, bytes, 'image/png');
    expect(put.status).toBeLessThan(300);
    const object = await client.media.get(media.data.id);
    expect(object.data.url).toBe(media.data.url);
    const res = await fetch(object.data.url);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(Buffer.from(bytes));
  });
});

describe('under injected faults', () => {
  it('every post is created exactly once despite resets, lost responses, 429s and timeouts', async () => {
    const chaotic = await startSandbox({ port: 0, seed: 99, clock: createManualClock(START), chaos: 0.45, chaosSlowMs: 400, writeLimit: 100_000, readLimit: 1_000_000 });
    try {
      const faults: string[] = [];
      const client = clientFor(chaotic, 'demo', { timeoutMs: 150, maxRetries: 12, random: () => 0, onRetry: (n) => faults.push(n.reason) });
      const titles = Array.from({ length: 12 }, (_, i) => `chaos-${i}`);
      const created: Post[] = [];
      for (const title of titles) created.push((await client.posts.create({ payloads: { bluesky: { text: title } }, title })).data);
      const stored = await oracleAll<Post>(chaotic, '/v1/posts');
      for (const title of titles) expect(stored.filter((p) => p.title === title).map((p) => p.id)).toEqual([created.find((p) => p.title === title)!.id]);
      // The run met faults of several kinds (the seed makes it reproducible).
      expect(faults.length).toBeGreaterThan(3);
      expect(chaotic.requests.some((r) => r.fault === 'lost')).toBe(true);
    } finally {
      await chaotic.close();
    }
  });
});

describe('socialpub api against the sandbox', () => {
  it('--paginate prints one JSON array equal to every row the service holds', async () => {
    const expected = await oracleAll<PostResult>(sb, '/api/v1/post-results');
    const r = await runCli(['api', '/api/v1/post-results', '--paginate'], { env: { SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: sb.key('demo') } });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as PostResult[]).map((x) => x.id)).toEqual(expected.map((x) => x.id));
  });

  it('creates a draft from --input on stdin, and a re-run with the same key replays it', async () => {
    const env = { SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: sb.key('demo') };
    const body = JSON.stringify({ payloads: { linkedin: { text: 'from stdin' } }, title: 'api-stdin' });
    const a = await runCli(['api', '-X', 'POST', '/v1/posts', '--input', '-', '--idempotency-key', 'api-stdin-1'], { env, stdin: body });
    const b = await runCli(['api', '-X', 'POST', '/v1/posts', '--input', '-', '--idempotency-key', 'api-stdin-1'], { env, stdin: body });
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(JSON.parse(a.stdout).id).toBe(JSON.parse(b.stdout).id);
    expect(b.stderr).toMatch(/replayed/);
    expect((await oracleAll<Post>(sb, '/v1/posts')).filter((p) => p.title === 'api-stdin')).toHaveLength(1);
  });

  it('exit 3 with the add-on hint for a lapsed workspace, 4 for an unknown id', async () => {
    const lapsed = await runCli(['api', '/api/v1/post-results'], { env: { SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: sb.key('lapsed') } });
    expect(lapsed.code).toBe(3);
    expect(lapsed.stderr).toMatch(/Billing → Add-ons/);
    const missing = await runCli(['api', '/api/v1/post-results/nope'], { env: { SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: sb.key('demo') } });
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/request id: /);
  });
});
