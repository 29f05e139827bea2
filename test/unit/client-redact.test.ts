// Secrets never leave the client in full: redact() itself, and the --debug trace it guards.
import { describe, expect, it } from 'vitest';
import { displayUrl, mayHoldEchoes, maskEchoed, maskEchoedValue, maskSecret, redact, redactHeaders, secretsOf } from '../../src/client/redact.js';
import { BASE, fakeService, json, KEY, sampleResult, testClient } from './client-kit.js';

const WHSEC = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe('redact', () => {
  it('masks the key wherever it appears, Bearer tokens, whsec_ secrets and key-like fields', () => {
    const text = `Authorization: Bearer ${KEY} url=${BASE}/x?api_key=${KEY}&limit=5 {"webhookSecret":"${WHSEC}","apiKey":"abc123def456ghi789"} token=zzzzzzzzzzzzzzzz`;
    const out = redact(text, [KEY]);
    expect(out).not.toContain(KEY);
    expect(out).not.toContain(WHSEC);
    expect(out).not.toContain('abc123def456ghi789');
    expect(out).not.toContain('zzzzzzzzzzzzzzzz');
    expect(out).toContain('Bearer …WXYZ');
    expect(out).toContain('limit=5');
    // A key redact() was told about is masked anywhere, not only after "Bearer".
    expect(redact('body echoed sk_live_unknownformat_1234 back', ['sk_live_unknownformat_1234'])).toBe('body echoed …1234 back');
  });

  it('a Bearer token is masked even when the key is not known to redact()', () => {
    expect(redact('authorization: Bearer some-other-secret-token-value')).toBe('authorization: Bearer …alue');
    expect(redact('Bearer short')).toBe('Bearer ***');
  });

  it('masks Authorization in header maps, leaves the rest readable', () => {
    const headers = redactHeaders({ authorization: `Bearer ${KEY}`, 'idempotency-key': 'k1', 'user-agent': 'socialpub/1' }, [KEY]);
    expect(headers).toEqual({ authorization: 'Bearer …WXYZ', 'idempotency-key': 'k1', 'user-agent': 'socialpub/1' });
    expect(maskSecret('tiny')).toBe('***');
  });
});

describe('what a server echoes', () => {
  it('masks the key in use (after Bearer too), whsec_ secrets and URL credentials, and nothing else', () => {
    const text = `you sent Bearer ${KEY} to http://user:hunter2@proxy.test/x with ${WHSEC}; token=plain stays`;
    expect(maskEchoed(text, [KEY])).toBe('you sent Bearer …WXYZ to http://***@proxy.test/x with whsec_***; token=plain stays');
    expect(maskEchoed(`key ${KEY} alone`, [KEY])).toBe('key …WXYZ alone');
    expect(maskEchoed('Bearer of good news; secret: SPRING25', [KEY])).toBe('Bearer of good news; secret: SPRING25');
  });

  it('walks parsed JSON: values and keys, arrays and nesting; the input is not changed', () => {
    const body = { error: { message: `bad ${KEY}`, issues: [{ path: WHSEC, message: 'x' }] }, [KEY]: 1, n: 3, ok: true, none: null };
    const masked = maskEchoedValue(body, [KEY]);
    expect(masked).toEqual({ error: { message: 'bad …WXYZ', issues: [{ path: 'whsec_***', message: 'x' }] }, '…WXYZ': 1, n: 3, ok: true, none: null });
    expect(body.error.message).toContain(KEY);
  });

  it('skips the walk only for a body that cannot hold an echo, even behind JSON escapes', () => {
    expect(mayHoldEchoes('{"data":[{"id":"res_1","url":"https://x.test/1"}]}', [KEY])).toBe(false);
    expect(mayHoldEchoes(`{"m":"${KEY}"}`, [KEY])).toBe(true);
    expect(mayHoldEchoes('{"m":"\\u0073k_test_…"}', [KEY])).toBe(true);
    expect(mayHoldEchoes('{"m":"Bearer of good news"}')).toBe(false);
    expect(mayHoldEchoes('{"u":"http://a:b@h"}')).toBe(true);
    expect(mayHoldEchoes('{"s":"whsec_x"}')).toBe(true);
  });

  it('skips the walk for links to @handles, but not for credentials behind any escape', () => {
    // A page of results: every row links to a profile or post under an @handle.
    expect(mayHoldEchoes('{"data":[{"url":"https://www.tiktok.com/@socialpub.demo/video/1","username":"@Demo"}]}', [KEY])).toBe(false);
    expect(mayHoldEchoes('{"u":"see\\nhttp://a:b@h"}')).toBe(true);
    expect(mayHoldEchoes('{"u":"http:\\/\\/a:b@h"}')).toBe(true);
    // A base URL's password with a character JSON escapes is found as the body spells it.
    const password = 'pa"ss\\word';
    const body = JSON.stringify({ m: `echoed ${password}` });
    expect(mayHoldEchoes(body, [password])).toBe(true);
    expect(maskEchoedValue(JSON.parse(body), [password])).toEqual({ m: `echoed ${maskSecret(password)}` });
  });

  it('takes the password of a base URL as a secret, and shows URLs without credentials', () => {
    expect(secretsOf(KEY, 'http://user:p%40ss-word@127.0.0.1:9')).toEqual([KEY, 'p%40ss-word', 'p@ss-word']);
    expect(secretsOf(undefined, 'not a url')).toEqual([]);
    expect(displayUrl('http://user:hunter2@127.0.0.1:9/v1?x=1')).toBe('http://127.0.0.1:9/v1?x=1');
  });
});

describe('the debug trace', () => {
  it('one line per attempt with method, URL, status, duration, attempt and rate limits; the key never in full', async () => {
    const rl = { 'ratelimit-limit': '100', 'ratelimit-remaining': '97', 'ratelimit-reset': '1800', 'request-id': 'req_dbg' };
    const svc = fakeService().once(
      'GET',
      (p) => p.startsWith('/api/v1/post-results/res_1'),
      { status: 503, body: `upstream said: Bearer ${KEY}`, headers: rl },
      { status: 200, body: sampleResult('res_1'), headers: { ...json, ...rl } },
    );
    const lines: string[] = [];
    const { client } = testClient(svc, { debug: (l) => lines.push(l) });
    await client.request({ method: 'GET', path: `/api/v1/post-results/res_1?secret=${WHSEC}&api_key=${KEY}` });
    const attempts = lines.filter((l) => l.startsWith('GET '));
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toMatch(/^GET http:\/\/api\.test\/api\/v1\/post-results\/res_1\?.* → 503 · \d+ms · attempt 1\/4 · ratelimit 97\/100 reset 1800s · request-id req_dbg · authorization Bearer …WXYZ$/);
    expect(attempts[1]).toMatch(/→ 200 · \d+ms · attempt 2\/4/);
    expect(lines.some((l) => /^retrying in \d+ms \(attempt 2\): 503/.test(l))).toBe(true);
    const all = lines.join('\n');
    expect(all).not.toContain(KEY);
    expect(all).not.toContain(WHSEC);
    expect(all).not.toContain(KEY.slice(0, 12));
  });

  it('no debug option, no trace (and nothing is written anywhere else)', async () => {
    const svc = fakeService().once('GET', '/api/v1/post-results/res_1', { status: 200, body: sampleResult('res_1'), headers: json });
    const { client } = testClient(svc);
    const res = await client.results.get('res_1');
    expect(res.status).toBe(200);
  });
});
