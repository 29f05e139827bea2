// The dashboard over plain HTTP: hostile text is escaped, the door (loopback host names, or the
// token off loopback), actions only from the page, the request log's idempotency columns, and
// the API's answers at "/" unchanged for programs.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOMY_LIMITS, testSandbox, type TestSandbox } from '../helpers/sandbox.js';

const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)>"\'&';

let sb: TestSandbox;
let postId: string;

const page = (path: string, headers: Record<string, string> = {}) => fetch(`${sb.url}${path}`, { headers: { accept: 'text/html', ...headers }, redirect: 'manual' });
const api = (path: string, init: RequestInit = {}) => fetch(`${sb.url}${path}`, { ...init, headers: { authorization: `Bearer ${sb.key('demo')}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });

beforeAll(async () => {
  sb = await testSandbox({ ...ROOMY_LIMITS });
  const res = await api('/v1/posts', { method: 'POST', headers: { 'idempotency-key': 'release-2026-abcd' }, body: JSON.stringify({ title: HOSTILE, payloads: { 'twitter-x': { text: HOSTILE, firstComment: HOSTILE, media: [{ url: `https://e.x/${HOSTILE}`, alt: HOSTILE }] } } }) });
  postId = ((await res.json()) as { id: string }).id;
  await api('/v1/posts', { method: 'POST', headers: { 'idempotency-key': 'release-2026-abcd' }, body: JSON.stringify({ title: HOSTILE, payloads: { 'twitter-x': { text: HOSTILE, firstComment: HOSTILE, media: [{ url: `https://e.x/${HOSTILE}`, alt: HOSTILE }] } } }) });
});
afterAll(() => sb.close());

describe('the dashboard pages', () => {
  it('escapes every string of a post: no markup of the post reaches the page', async () => {
    for (const path of ['/', '/dashboard/posts', `/dashboard/posts/${postId}`, `/preview/${postId}`]) {
      const res = await page(path);
      expect(res.status, path).toBe(200);
      const text = await res.text();
      expect(text, path).not.toContain('<script>alert');
      expect(text, path).not.toContain('<img src=x');
      expect(text, path).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self'/);
    }
  });

  it('a post path with a malformed %-escape is a page saying no such post (404), not a failed sandbox (500)', async () => {
    for (const path of ['/dashboard/posts/post_%E0%A4%A', '/preview/%ZZ']) {
      const res = await page(path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).toContain('Post not found');
    }
  });

  it('shows bidirectional controls as \\u escapes, as the command line does, so an override cannot reverse what is read', async () => {
    const res = await api('/v1/posts', { method: 'POST', body: JSON.stringify({ payloads: { linkedin: { text: 'invoice\u202Egnp.exe \u2067x\u2069', firstComment: 'a\u200Fb' } } }) });
    const id = ((await res.json()) as { id: string }).id;
    const text = await (await page(`/dashboard/posts/${id}`)).text();
    expect(text).toContain('invoice\\u202egnp.exe \\u2067x\\u2069');
    expect(text).toContain('a\\u200fb');
    expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f]/);
  });

  it('the request log shows the idempotency key only as its last four, and the replay', async () => {
    // Service text is isolated in <bdi>: read the page without it.
    const text = (await (await page('/dashboard/requests')).text()).replace(/<\/?bdi>/g, '');
    expect(text).toContain('key …abcd');
    expect(text).not.toContain('release-2026');
    expect(text).toContain('replayed');
  });

  it('programs asking for / still get the JSON description, which names the OpenAPI document', async () => {
    const body = (await (await fetch(`${sb.url}/`)).json()) as { service: string; openapi: string };
    expect(body).toMatchObject({ service: 'socialpub sandbox', openapi: '/openapi.json' });
  });

  it('answers only to a loopback host name on a loopback address (no DNS rebinding)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const u = new URL(sb.url);
      request({ host: u.hostname, port: u.port, path: '/dashboard/posts', headers: { host: 'attacker.example', accept: 'text/html' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on('error', reject).end();
    });
    expect(status).toBe(403);
  });

  it('an action needs the page\'s own header: a cross-site form post is refused', async () => {
    const forged = await fetch(`${sb.url}/dashboard/api/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"chaos":1}' });
    expect(forged.status).toBe(403);
    const cross = await fetch(`${sb.url}/dashboard/api/faults`, { method: 'POST', headers: { 'x-socialpub-dashboard': '1', origin: 'https://attacker.example' }, body: '{"chaos":1}' });
    expect(cross.status).toBe(403);
    const own = await fetch(`${sb.url}/dashboard/api/faults`, { method: 'POST', headers: { 'x-socialpub-dashboard': '1' }, body: '{"failureRate":0.5}' });
    expect(own.status).toBe(200);
    expect(await (await page('/dashboard/faults')).text()).toContain('value="0.5"');
    const bad = await fetch(`${sb.url}/dashboard/api/faults`, { method: 'POST', headers: { 'x-socialpub-dashboard': '1' }, body: '{"chaos":3}' });
    expect(bad.status).toBe(422);
  });

  it("the accounts panel lists the workspace's accounts, and its buttons change them as the sandbox route does", async () => {
    const listed = (await (await api('/v1/social-accounts')).json()) as { data: { id: string; platform: string; status: string }[] };
    const first = listed.data[0]!;
    const html = await (await page('/dashboard/accounts')).text();
    expect(html).not.toContain('No accounts');
    for (const a of listed.data) expect(html).toContain(a.id);
    const act = (id: string, action: string) => fetch(`${sb.url}/dashboard/api/accounts`, { method: 'POST', headers: { 'x-socialpub-dashboard': '1' }, body: JSON.stringify({ ws: 'demo', id, action }) });
    expect((await act(first.id, 'disconnect')).status).toBe(200);
    expect(((await (await api(`/v1/social-accounts/${first.id}`)).json()) as { status: string }).status).toBe('disconnected');
    expect((await act(first.id, 'reconnect')).status).toBe(200);
    expect(((await (await api(`/v1/social-accounts/${first.id}`)).json()) as { status: string }).status).toBe('connected');
    expect((await act('acc_nosuchaccount', 'expire')).status).toBe(404);
  });
});

describe('results filters over many rows', () => {
  it('shows only the code asked for, and says where a scan for a rare one stopped', async () => {
    const big = await testSandbox({ fixtures: 21_000 });
    try {
      const get = async (q: string) => (await (await fetch(`${big.url}/dashboard/results?ws=demo&${q}`, { headers: { accept: 'text/html' } })).text()).replace(/<\/?bdi>/g, '');
      const expired = await get('code=TOKEN_EXPIRED');
      const codes = [...expired.matchAll(/✗ ([A-Z_]+)/g)].map((m) => m[1]);
      expect(codes.length).toBe(50);
      expect(new Set(codes)).toEqual(new Set(['TOKEN_EXPIRED']));
      expect(await get('code=TITLE_REQUIRED')).toContain('Looked at the newest 20,000 rows only');
    } finally {
      await big.close();
    }
  });
});

describe('with a token (a sandbox off loopback)', () => {
  it('a sandbox on a non-loopback address makes a token of its own and asks for it', async () => {
    const open = await testSandbox({ host: '0.0.0.0' });
    try {
      expect(open.dashboardUrl).toMatch(/\/\?token=[\w-]{32}$/);
      const port = new URL(open.url).port;
      expect((await fetch(`http://127.0.0.1:${port}/dashboard/posts`, { headers: { accept: 'text/html' } })).status).toBe(401);
      expect((await fetch(`http://127.0.0.1:${port}/?token=${new URL(open.dashboardUrl).searchParams.get('token')}`, { headers: { accept: 'text/html' }, redirect: 'manual' })).status).toBe(303);
    } finally {
      await open.close();
    }
  });

  it('asks for the token, takes it once as ?token= into a cookie, then serves', async () => {
    const guarded = await testSandbox({ dashboardToken: 'a-token-of-enough-length' });
    try {
      expect(guarded.dashboardUrl).toBe(`${guarded.url}/?token=a-token-of-enough-length`);
      const get = (path: string, headers: Record<string, string> = {}) => fetch(`${guarded.url}${path}`, { headers: { accept: 'text/html', ...headers }, redirect: 'manual' });
      expect((await get('/')).status).toBe(401);
      expect((await get('/?token=wrong-token-of-enough-len')).status).toBe(401);
      const first = await get('/dashboard/posts?ws=demo&token=a-token-of-enough-length');
      expect(first.status).toBe(303);
      expect(first.headers.get('location')).toBe('/dashboard/posts?ws=demo');
      const cookie = first.headers.get('set-cookie')!;
      expect(cookie).toMatch(/HttpOnly; SameSite=Strict/);
      expect((await get('/dashboard/posts?ws=demo', { cookie: cookie.split(';')[0]! })).status).toBe(200);
      // The API itself is unchanged: its key, not the dashboard's token.
      expect((await fetch(`${guarded.url}/v1/posts`, { headers: { authorization: `Bearer ${guarded.key('demo')}` } })).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});
