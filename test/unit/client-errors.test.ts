// Every outcome maps to its typed error (status, code, message, request id, body) and, through the
// CLI's one mapping function, to the contract's exit code; odd error bodies still read well; a
// response that breaks its schema names the field and the request id.
import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../src/client/errors.js';
import {
  AddonRequiredError,
  AuthError,
  BadRequestError,
  ConflictError,
  IdempotencyKeyReusedError,
  NetworkError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitError,
  ResponseShapeError,
  ServerError,
  TimeoutError,
  ValidationError,
} from '../../src/client/errors.js';
import { describeErrorBody } from '../../src/client/error-mapping.js';
import { exitCodeFor, hintsFor, reportError } from '../../src/cli/errors.js';
import { fakeService, json, sampleResult, testClient } from './client-kit.js';
import { postSchema } from '../../src/wire/schemas.js';

const body = (code: string, message: string, extra: Record<string, unknown> = {}) => ({ error: { code, message, ...extra }, requestId: 'req_body' });

interface Case {
  status: number;
  body: unknown;
  cls: new (...args: never[]) => ApiError;
  kind: string;
  exit: number;
  code?: string;
  message: RegExp;
}

const cases: Case[] = [
  { status: 400, body: body('BAD_REQUEST', 'limit must be 1..100'), cls: BadRequestError, kind: 'bad-request', exit: 2, code: 'BAD_REQUEST', message: /malformed: limit must be 1\.\.100/ },
  { status: 401, body: body('UNAUTHORIZED', 'invalid API key'), cls: AuthError, kind: 'auth', exit: 3, code: 'UNAUTHORIZED', message: /key was not accepted: invalid API key/ },
  { status: 403, body: body('ADDON_REQUIRED', 'the API add-on is required'), cls: AddonRequiredError, kind: 'addon-required', exit: 3, code: 'ADDON_REQUIRED', message: /add-on is not active/ },
  { status: 403, body: body('FORBIDDEN', 'nope'), cls: AuthError, kind: 'auth', exit: 3, code: 'FORBIDDEN', message: /access denied/ },
  { status: 404, body: body('NOT_FOUND', 'no such result'), cls: NotFoundError, kind: 'not-found', exit: 4, code: 'NOT_FOUND', message: /not found: POST \/v1\/posts: no such result/ },
  { status: 409, body: body('IDEMPOTENCY_KEY_IN_FLIGHT', 'still processing'), cls: ConflictError, kind: 'conflict', exit: 1, code: 'IDEMPOTENCY_KEY_IN_FLIGHT', message: /conflict after 2 attempts/ },
  { status: 413, body: body('PAYLOAD_TOO_LARGE', 'body over 1 MiB'), cls: PayloadTooLargeError, kind: 'payload-too-large', exit: 2, code: 'PAYLOAD_TOO_LARGE', message: /too large/ },
  {
    status: 422,
    body: body('VALIDATION_ERROR', 'invalid post', { issues: [{ path: 'payloads.twitter-x.text', message: 'longer than 280 characters' }] }),
    cls: ValidationError,
    kind: 'validation',
    exit: 2,
    code: 'VALIDATION_ERROR',
    message: /refused the request: invalid post/,
  },
  { status: 422, body: body('IDEMPOTENCY_KEY_REUSED', 'key reused'), cls: IdempotencyKeyReusedError, kind: 'idempotency-key-reused', exit: 2, code: 'IDEMPOTENCY_KEY_REUSED', message: /idempotency key k-1 was already used/ },
  { status: 429, body: body('RATE_LIMITED', 'slow down'), cls: RateLimitError, kind: 'rate-limited', exit: 5, code: 'RATE_LIMITED', message: /rate limited/ },
  { status: 500, body: body('INTERNAL_ERROR', 'boom'), cls: ServerError, kind: 'server', exit: 1, code: 'INTERNAL_ERROR', message: /service failed \(500 Internal Server Error\) after 2 attempts: boom/ },
  { status: 504, body: '', cls: ServerError, kind: 'server', exit: 1, message: /service failed \(504 Gateway Timeout\)/ },
];

describe('error mapping', () => {
  for (const c of cases) {
    it(`${c.status} ${c.code ?? '(no body)'} → ${c.cls.name}, exit ${c.exit}`, async () => {
      const svc = fakeService().always('POST', '/v1/posts', { status: c.status, body: c.body, headers: { ...json, 'request-id': 'req_hdr', 'retry-after': '1' } });
      const { client } = testClient(svc, { maxRetries: 1 });
      const err = (await client.posts.create({ payloads: {} }, { idempotencyKey: 'k-1' }).catch((e: unknown) => e)) as ApiError;
      expect(err).toBeInstanceOf(c.cls);
      expect(err.kind).toBe(c.kind);
      expect(err.status).toBe(c.status);
      expect(err.code).toBe(c.code);
      expect(err.requestId).toBe('req_hdr'); // the header wins over the body's copy
      expect(err.message).toMatch(c.message);
      if (c.body !== '') expect(err.body).toEqual(c.body);
      expect(exitCodeFor(err)).toBe(c.exit);
    });
  }

  it('422 issues travel with the error and become hints', async () => {
    const svc = fakeService();
    svc.once('POST', '/v1/posts', { status: 422, body: body('VALIDATION_ERROR', 'invalid post', { issues: [{ path: 'payloads.twitter-x.text', message: 'too long' }] }), headers: json });
    const { client } = testClient(svc);
    const err = (await client.posts.create({ payloads: {} }).catch((e: unknown) => e)) as ValidationError;
    expect(err.issues).toEqual([{ path: 'payloads.twitter-x.text', message: 'too long' }]);
    expect(err.requestId).toBe('req_body'); // no header: the body's request id
    expect(hintsFor(err, Date.now())).toEqual(['payloads.twitter-x.text: too long']);
  });

  it('network failure and timeout map to NetworkError / TimeoutError, exit 6', async () => {
    const svc = fakeService();
    svc.once('GET', '/api/v1/post-results/x', { error: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    svc.route({ method: 'GET', path: '/api/v1/post-results/y', delayMs: 1000 }, { status: 200, body: {} });
    const { client } = testClient(svc, { maxRetries: 0, timeoutMs: 20 });
    const net = await client.results.get('x').catch((e: unknown) => e);
    expect(net).toBeInstanceOf(NetworkError);
    expect((net as Error).message).toMatch(/socket hang up/);
    expect(exitCodeFor(net)).toBe(6);
    const slow = await client.results.get('y').catch((e: unknown) => e);
    expect(slow).toBeInstanceOf(TimeoutError);
    expect(exitCodeFor(slow)).toBe(6);
  });

  it('reportError prints one readable line, the hints and the request id; --json adds an object', async () => {
    const svc = fakeService();
    svc.once('GET', '/api/v1/post-results/r', { status: 401, body: body('UNAUTHORIZED', 'invalid API key'), headers: { ...json, 'request-id': 'req_401' } });
    const { client } = testClient(svc);
    const err = await client.results.get('r').catch((e: unknown) => e);
    let text = '';
    const code = reportError(err, { stderr: { write: (s: string) => ((text += s), true) }, json: true, now: Date.now() });
    expect(code).toBe(3);
    expect(text).toMatch(/^error: the API key was not accepted: invalid API key\n/);
    expect(text).toMatch(/hint: run `socialpub auth login`/);
    expect(text).toMatch(/request id: req_401/);
    const last = JSON.parse(text.trim().split('\n').pop()!) as { error: Record<string, unknown> };
    expect(last.error).toMatchObject({ code: 'UNAUTHORIZED', status: 401, requestId: 'req_401', exitCode: 3 });
    expect(text).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describe('odd error bodies still give a readable message', () => {
  const odd: Array<[string, string, RegExp]> = [
    ['plain text', 'upstream connect error or disconnect/reset before headers\nmore detail', /: upstream connect error or disconnect\/reset before headers$/],
    ['an HTML page', '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>nginx</p></body></html>', /\(502 Bad Gateway\)(: 502 Bad Gateway)?$/],
    ['empty', '', /\(502 Bad Gateway\)$/],
    ['JSON of another shape', '{"message":"gateway exploded","statusCode":502}', /: gateway exploded$/],
    ['a string error', '{"error":"Gateway went away"}', /: Gateway went away$/],
    ['an errors array', '{"errors":[{"message":"first problem"},{"message":"second"}]}', /: first problem$/],
    ['a JSON array', '[1,2,3]', /\(502 Bad Gateway\)$/],
    ['JSON null', 'null', /\(502 Bad Gateway\)$/],
  ];
  for (const [name, text, expected] of odd) {
    it(name, async () => {
      const svc = fakeService();
      svc.once('GET', '/api/v1/post-results/r', { status: 502, body: text });
      const { client } = testClient(svc, { maxRetries: 0 });
      const err = (await client.results.get('r').catch((e: unknown) => e)) as ServerError;
      expect(err).toBeInstanceOf(ServerError);
      expect(err.message).toMatch(expected);
      expect(err.message).not.toMatch(/\[object Object\]|<html|<body|undefined/);
    });
  }

  it('describes bodies directly: HTML entities, long text clipped, issue paths as arrays', () => {
    expect(describeErrorBody('<html><body><h1>Service &amp; co. down</h1></body></html>').message).toBe('Service & co. down');
    expect(describeErrorBody('x'.repeat(1000)).message!.length).toBeLessThanOrEqual(300);
    expect(describeErrorBody('{"error":{"code":"VALIDATION_ERROR","issues":[{"path":["payloads","bluesky","text"],"message":"empty"}]}}').issues).toEqual([
      { path: 'payloads.bluesky.text', message: 'empty' },
    ]);
    expect(describeErrorBody('{"error":"not_found","message":"no such post"}')).toMatchObject({ code: 'not_found', message: 'no such post' });
  });
});

describe('responses are validated at the boundary', () => {
  it('a schema break names the field path and the request id, without a stack trace', async () => {
    const svc = fakeService();
    svc.once('GET', '/api/v1/post-results/res_9', { status: 200, body: sampleResult('res_9', { success: 'yes' }), headers: { ...json, 'request-id': 'req_shape' } });
    const { client } = testClient(svc);
    const err = (await client.results.get('res_9').catch((e: unknown) => e)) as ResponseShapeError;
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err.message).toMatch(/^unexpected response from GET \/api\/v1\/post-results\/res_9: success: expected boolean, got string \(request id req_shape\)$/);
    expect(err.requestId).toBe('req_shape');
    expect(err.issues[0]!.path).toBe('success');
    expect(exitCodeFor(err)).toBe(1);
  });

  it('names nested paths inside a list page', async () => {
    const svc = fakeService();
    const rows = [sampleResult('a'), sampleResult('b', { platform_data: { url: 42 } })];
    svc.once('GET', (p) => p.startsWith('/api/v1/post-results'), { status: 200, body: { data: rows, meta: { offset: 0, limit: 10, total: 2 } }, headers: { ...json, 'request-id': 'req_list' } });
    const { client } = testClient(svc);
    const err = (await client.results.list().catch((e: unknown) => e)) as ResponseShapeError;
    expect(err.message).toMatch(/data\.1\.platform_data\.url: expected string, got number/);
    expect(err.message).toMatch(/request id req_list/);
  });

  it('a 200 that is not JSON is a ResponseShapeError too, once the retries (it may have been cut on the way) are spent', async () => {
    const svc = fakeService();
    svc.always('GET', '/api/v1/post-results/r', { status: 200, body: '<html>captive portal</html>', headers: { 'request-id': 'req_html' } });
    const { client } = testClient(svc, { maxRetries: 2 });
    await expect(client.results.get('r')).rejects.toThrow(/not JSON \(request id req_html\)/);
    expect(svc.requests).toHaveLength(3);
  });

  it('a body that is not JSON is asked again: a GET, and a write with its same idempotency key; never a write without one', async () => {
    const good = { id: 'r', post_id: 'p', success: true };
    const svc = fakeService().once('GET', '/api/v1/post-results/r', { status: 200, body: '{"id":"r","po' }, { status: 200, body: good, headers: json });
    const { client, clock } = testClient(svc);
    expect((await client.results.get('r')).data).toEqual(good);
    expect(clock.sleeps).toHaveLength(1);
    const post = { id: 'post_1', status: 'draft', payloads: { bluesky: { text: 'hi' } }, scheduledAt: null, createdAt: '2026-03-01T12:00:00.000Z', updatedAt: '2026-03-01T12:00:00.000Z' };
    const writes = fakeService().once('POST', '/v1/posts', { status: 201, body: '' }, { status: 201, body: post, headers: json });
    const { client: w } = testClient(writes);
    expect((await w.posts.create({ payloads: { bluesky: { text: 'hi' } } }, { idempotencyKey: 'k-1' })).data.id).toBe('post_1');
    expect(writes.requests.map((r) => r.headers['idempotency-key'])).toEqual(['k-1', 'k-1']);
    // PUT (an upload) carries no key: a garbled answer is not a reason to send the bytes again.
    const put = fakeService().always('PUT', '/upload/1', { status: 200, body: '<html>' });
    const { client: u } = testClient(put);
    await u.request({ method: 'PUT', path: '/upload/1', rawBody: new Uint8Array([1]), schema: postSchema }).catch(() => undefined);
    expect(put.requests).toHaveLength(1);
  });

  it('unknown fields are kept; missing optional fields are fine', async () => {
    const svc = fakeService();
    svc.once('GET', '/api/v1/post-results/r', { status: 200, body: { id: 'r', post_id: 'p', success: false, brand_new_field: { nested: true } }, headers: json });
    const { client } = testClient(svc);
    const res = await client.results.get('r');
    expect(res.data).toEqual({ id: 'r', post_id: 'p', success: false, brand_new_field: { nested: true } });
  });

  it('without a schema, request() returns parsed JSON, raw text, or undefined for an empty body', async () => {
    const svc = fakeService();
    svc.once('GET', '/a', { status: 200, body: { x: 1 }, headers: json });
    svc.once('GET', '/b', { status: 200, body: 'plain words' });
    svc.once('DELETE', '/c', { status: 204, body: '' });
    const { client } = testClient(svc);
    expect((await client.request({ method: 'GET', path: '/a' })).data).toEqual({ x: 1 });
    expect((await client.request({ method: 'GET', path: '/b' })).data).toBe('plain words');
    const del = await client.request({ method: 'DELETE', path: '/c' });
    expect(del.status).toBe(204);
    expect(del.data).toBeUndefined();
  });

  it('does not follow redirects (the key stays with the base URL); says where it pointed', async () => {
    const svc = fakeService();
    svc.once('GET', '/api/v1/post-results/r', { status: 301, body: '', headers: { location: 'https://elsewhere.example/api/v1/post-results/r' } });
    const { client } = testClient(svc);
    const err = await client.results.get('r').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as Error).message).toMatch(/301.*redirect to https:\/\/elsewhere\.example.*check the base URL/);
  });
});

describe('shape messages', () => {
  it('says when a required field is missing', async () => {
    const svc = fakeService();
    svc.once('GET', '/api/v1/post-results/r', { status: 200, body: { id: 'r', success: true }, headers: json });
    const { client } = testClient(svc);
    await expect(client.results.get('r')).rejects.toThrow(/post_id: expected string, got nothing \(the field is missing\)/);
  });
});

describe('problems the client sees before sending', () => {
  it('refuses a bad base URL, a GET with a body, a bad idempotency key or key, without a request (exit 2)', async () => {
    const svc = fakeService();
    const { client } = testClient(svc);
    const bad = [
      testClient(svc, { baseUrl: 'localhost:8787' }).client.results.get('x'),
      testClient(svc, { baseUrl: 'not a url' }).client.results.get('x'),
      client.request({ method: 'GET', path: '/v1/posts', body: { a: 1 } }),
      client.posts.create({ payloads: {} }, { idempotencyKey: 'has space' }),
      testClient(svc, { apiKey: 'sk_test_with_newline_123456\n' }).client.results.get('x'),
    ];
    for (const p of bad) {
      const err = await p.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BadRequestError);
      expect(exitCodeFor(err)).toBe(2);
      expect((err as Error).message).not.toContain('sk_test_with_newline');
    }
    expect(svc.requests).toEqual([]);
  });
});
