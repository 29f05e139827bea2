// A server (or a proxy) that echoes the key back must not make the CLI print it (a key is
// never printed in full): a real HTTP server on 127.0.0.1 puts the bearer token, a whsec_ secret and URL
// credentials in every field it can (message, issues, requestId, Request-Id and other headers,
// status text, body), and the in-process CLI runs against it in text, --json and --debug.
// The sandbox never echoes keys, so a small node:http server stands in here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli } from '../helpers/run-cli.js';

const KEY = 'sk_test_echoed_0123456789SECRETKEY';
const WHSEC = 'whsec_EchoedWebhookSecret0123456789abcdef';
const PASSWORD = 'hunter2';

let server: Server;
let port: number;

/** Everything the server saw, echoed: the Authorization header, a whsec_ and a credentialed URL. */
function echo(authorization: string): string {
  return `${authorization} ${WHSEC} http://user:${PASSWORD}@proxy.test/`;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    const said = echo(auth);
    // Header values must be plain ASCII on one line: the same echo fits.
    const headers = {
      'content-type': 'application/json',
      'request-id': `req_${auth}`,
      'x-echo': said,
      location: `http://user:${PASSWORD}@elsewhere.test/${auth.replace(/\s/g, '_')}`,
      'ratelimit-limit': '100',
      'ratelimit-remaining': '99',
      'ratelimit-reset': '60',
    };
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/ok') {
      res.writeHead(200, headers);
      res.end(JSON.stringify({ id: 'ok_1', echoed: said, nested: [{ token: auth, escaped: auth.replace(/s/g, '\\u0073') }] }).replace(/\\\\u0073/g, '\\u0073'));
      return;
    }
    const status = url.pathname === '/invalid' ? 422 : url.pathname === '/gone' ? 401 : 500;
    res.writeHead(status, `Echo ${auth}`, headers);
    res.end(
      JSON.stringify({
        error: { code: 'ECHO', message: `you sent ${said}`, issues: [{ path: 'authorization', message: said }] },
        requestId: `req_body_${auth}`,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function run(args: string[]) {
  return runCli(['--base-url', `http://user:${PASSWORD}@127.0.0.1:${port}`, '--max-retries', '0', ...args], { env: { SOCIALPUB_API_KEY: KEY } });
}

function expectNothingLeaked(out: { stdout: string; stderr: string }): void {
  const all = out.stdout + out.stderr;
  expect(all).not.toContain(KEY);
  // Not even most of it: a clipped message must not keep a prefix.
  expect(all).not.toContain(KEY.slice(0, 16));
  expect(all).not.toContain(WHSEC);
  expect(all).not.toContain(PASSWORD);
}

describe('what a server echoes is masked before it is printed', () => {
  const cases: Array<[string, string[]]> = [
    ['a refused key (401), text', ['api', '/gone']],
    ['a 422 with issues, --json', ['--json', 'api', '/invalid']],
    ['a 500, --json --debug', ['--json', '--debug', 'api', '-X', 'POST', '/broken']],
    ['a typed command failing, --debug', ['--debug', 'results', 'get', 'res_1']],
    ['a 200 body printed by `api`, --debug', ['--debug', 'api', '/ok']],
  ];
  for (const [name, args] of cases) {
    it(name, async () => {
      const out = await run(args);
      expectNothingLeaked(out);
    });
  }

  it('the error still carries the masked forms, so the user sees what the server said', async () => {
    const out = await run(['--json', 'api', '/invalid']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(`Bearer …${KEY.slice(-4)}`);
    expect(out.stderr).toContain('whsec_***');
    expect(out.stderr).toContain('http://***@proxy.test/');
    const json = JSON.parse(out.stderr.trim().split('\n').pop()!) as { error: { requestId: string; message: string } };
    expect(json.error.requestId).toBe(`req_Bearer …${KEY.slice(-4)}`);
    // The issues come as hints.
    expect(out.stderr).toMatch(/hint: authorization: Bearer …/);
  });

  it('a 200 body keeps its shape; the key escaped in JSON is masked too', async () => {
    const out = await run(['--json', 'api', '/ok']);
    expect(out.code).toBe(0);
    const body = JSON.parse(out.stdout) as { id: string; nested: Array<{ token: string; escaped: string }> };
    expect(body.id).toBe('ok_1');
    expect(body.nested[0]!.token).toBe(`Bearer …${KEY.slice(-4)}`);
    expect(body.nested[0]!.escaped).toBe(`Bearer …${KEY.slice(-4)}`);
  });

  it('--debug shows the base URL without its credentials', async () => {
    const out = await run(['--debug', 'api', '/ok']);
    expect(out.stderr).toContain(`GET http://127.0.0.1:${port}/ok → 200`);
    expect(out.stderr).toContain(`request-id req_Bearer …${KEY.slice(-4)}`);
  });
});
