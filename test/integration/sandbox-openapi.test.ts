// GET /openapi.json: a valid OpenAPI 3.1 document (checked by an independent validator), naming
// every route of the router, and describing the sandbox's real answers: each answer below is
// validated against the document's own schemas, so a field added to or dropped from the sandbox
// without the schemas (or the other way round) fails here.
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchRoute, ROUTES, SANDBOX_PREFIX } from '../../src/sandbox/routes.js';
import { SP_ROUTES } from '../../src/sandbox/syncpostly/routes.js';
import { OPERATIONS } from '../../src/sandbox/openapi/operations.js';
import { ROOMY_LIMITS, testSandbox, type TestSandbox } from '../helpers/sandbox.js';

type Doc = { openapi: string; paths: Record<string, Record<string, { description?: string; parameters?: { $ref?: string; name?: string }[]; responses: Record<string, unknown> }>>; components: { schemas: Record<string, unknown> } };

let sb: TestSandbox;
let doc: Doc;
let ajv: Ajv2020;

beforeAll(async () => {
  sb = await testSandbox({ ...ROOMY_LIMITS, fixtures: 50 });
  doc = (await (await fetch(`${sb.url}/openapi.json`)).json()) as Doc;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('date-time', { validate: (s: string) => !Number.isNaN(Date.parse(s)) });
  ajv.addSchema({ $id: 'doc', components: doc.components });
});
afterAll(() => sb.close());

const api = (path: string, init: RequestInit = {}) => fetch(`${sb.url}${path}`, { ...init, headers: { authorization: `Bearer ${sb.key('demo')}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });

/** The answer's body against a component schema of the document. */
async function conforms(res: Response, schema: string): Promise<unknown> {
  const body = await res.json();
  const validate = ajv.getSchema(`doc#/components/schemas/${schema}`)!;
  expect(validate(body), `${schema}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(body).slice(0, 400)}`).toBe(true);
  return body;
}

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    // The validator does refuse a broken document (a parameter without its place).
    const broken = structuredClone(doc);
    delete (broken.paths['/v1/posts/{id}']!.get!.parameters![0] as { in?: string }).in;
    expect((await new Validator().validate(broken as unknown as Parameters<Validator['validate']>[0])).valid).toBe(false);
  });

  it('names every route the router serves, and nothing the router does not serve', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => [m.toUpperCase(), path] as const));
    // The sandbox's own routes (/sandbox/…: an account expired on purpose) are not the service's: left out.
    const sandboxOnly = ROUTES.filter((r) => r.pattern.source.replaceAll('\\/', '/').startsWith(`^${SANDBOX_PREFIX}/`));
    expect(sandboxOnly.length).toBeGreaterThan(0);
    expect(documented.filter(([, path]) => path.startsWith(`${SANDBOX_PREFIX}/`))).toEqual([]);
    const served = ROUTES.filter((r) => !sandboxOnly.includes(r));
    for (const route of served) {
      const hit = documented.filter(([m, path]) => m === route.method && route.pattern.test(path.replace(/\{[^}]+\}/g, 'x')));
      expect(hit, `${route.method} ${route.pattern}`).toHaveLength(1);
    }
    const api = documented.filter(([, path]) => path.startsWith('/v1') || path.startsWith('/api/v1'));
    expect(api).toHaveLength(served.length);
    // The table covers the router: a new route without an entry has no operation at all.
    expect(Object.keys(OPERATIONS).length).toBeGreaterThanOrEqual(served.length);
  });

  it('leaves out the SyncPostly dialect\'s routes (served, but not this contract\'s)', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => [m.toUpperCase(), path.replace(/\{[^}]+\}/g, 'x')] as const));
    expect(SP_ROUTES.length).toBeGreaterThan(0);
    for (const route of SP_ROUTES) {
      expect(documented.some(([m, path]) => m === route.method && route.pattern.test(path)), `${route.method} ${route.pattern}`).toBe(false);
      // The router does serve it (the exception is real), and no route of this contract shadows it.
      const sample = route.pattern.source.replaceAll('\\/', '/').replace('([^/]+)', 'x').slice(1, -1);
      const match = matchRoute(route.method, sample);
      expect(match.route).toBe(route);
    }
  });

  it('describes the headers, bearer authentication, the error body, and says where the contract fills a gap', () => {
    const text = JSON.stringify(doc);
    for (const h of ['Idempotency-Key', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'Request-Id', 'Idempotent-Replayed']) expect(text).toContain(`"${h}"`);
    expect(text).toContain('"scheme":"bearer"');
    expect(doc.paths['/v1/posts']!.post!.description).toMatch(/document shows neither the body nor the response/);
    expect(doc.paths['/v1/posts/{id}']!.patch!.parameters!.some((p) => p.$ref?.endsWith('IdempotencyKey'))).toBe(true);
    expect(doc.paths['/v1/posts']!.get!.responses['429']).toEqual({ $ref: '#/components/responses/E429' });
  });

  it('is listed in the RFC 9727 API catalog', async () => {
    const res = await fetch(`${sb.url}/.well-known/api-catalog`);
    expect(res.headers.get('content-type')).toBe('application/linkset+json');
    const catalog = (await res.json()) as { linkset: { 'service-desc': { href: string }[] }[] };
    expect(catalog.linkset[0]!['service-desc'][0]!.href).toBe(`${sb.url}/openapi.json`);
  });
});

describe("the sandbox's answers match the document", () => {
  it('posts: create, get, list, change, schedule', async () => {
    const created = (await conforms(await api('/v1/posts', { method: 'POST', body: JSON.stringify({ title: 'T', payloads: { bluesky: { text: 'hello', media: [{ url: 'https://e.x/a.png', type: 'image' }] } } }) }), 'Post')) as { id: string };
    await conforms(await api(`/v1/posts/${created.id}`), 'Post');
    await conforms(await api('/v1/posts?status=draft&limit=5'), 'PostList');
    await conforms(await api(`/v1/posts/${created.id}`, { method: 'PATCH', body: JSON.stringify({ title: null }) }), 'Post');
    await conforms(await api('/v1/schedule', { method: 'POST', body: JSON.stringify({ postId: created.id, scheduledAt: '2026-12-02T09:00:00Z' }) }), 'Post');
  });

  it('results: a page with successes and failures, and one result', async () => {
    const page = (await conforms(await api('/api/v1/post-results?limit=100'), 'PostResultList')) as { data: { id: string; success: boolean }[] };
    expect(page.data.some((r) => !r.success)).toBe(true);
    await conforms(await api(`/api/v1/post-results/${page.data.find((r) => !r.success)!.id}`), 'PostResult');
  });

  it('media: declare, upload, read back', async () => {
    const media = (await conforms(await api('/v1/media', { method: 'POST', body: JSON.stringify({ name: 'a.png', mimeType: 'image/png', sizeBytes: 3 }) }), 'Media')) as { id: string };
    await conforms(await api(`/v1/media/${media.id}/upload`, { method: 'PUT', body: 'abc', headers: { 'content-type': 'application/octet-stream' } }), 'Media');
    await conforms(await api(`/v1/media/${media.id}`), 'Media');
  });

  it('errors: 404, 422 with issues, 401', async () => {
    await conforms(await api('/v1/posts/post_nope'), 'Error');
    await conforms(await api('/v1/posts', { method: 'POST', body: JSON.stringify({ payloads: { bluesky: { text: '' } } }) }), 'Error');
    await conforms(await fetch(`${sb.url}/v1/posts`), 'Error');
  });

  it('the schemas are strict enough to notice a drift', () => {
    const validate = ajv.getSchema('doc#/components/schemas/PostResult')!;
    const row = { id: 'r', post_id: 'p', success: true, social_account_id: null, platform_data: { id: 'x', url: null, username: 'u' }, error: null, platform: 'bluesky', created_at: '2026-12-01T09:00:00.000Z' };
    expect(validate(row)).toBe(true);
    expect(validate({ ...row, surprise: 1 })).toBe(false);
    expect(validate({ ...row, platform: 'myspace' })).toBe(false);
  });
});
