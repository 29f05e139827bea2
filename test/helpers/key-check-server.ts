// A tiny stand-in for the service's key check (GET /api/v1/post-results), on 127.0.0.1 port 0,
// answering as CONTRACT section 2 says: 200 with a list page, 401 UNAUTHORIZED, 403 ADDON_REQUIRED.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export const GOOD_KEY = 'sk_test_good_0123456789wxyz';
export const OTHER_GOOD_KEY = 'sk_test_other_0123456789abcd';
export const LAPSED_KEY = 'sk_test_lapsed_0123456789lpsd';
export const BAD_KEY = 'sk_test_bad_0123456789nope';

export interface SeenRequest {
  method: string;
  url: string;
  authorization: string | undefined;
}

export interface KeyCheckServer {
  baseUrl: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

let counter = 0;

export async function startKeyCheckServer(): Promise<KeyCheckServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    const requestId = `req_test_${++counter}`;
    const send = (status: number, body: unknown) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': requestId,
        'ratelimit-limit': '10000',
        'ratelimit-remaining': '9999',
        'ratelimit-reset': '3600',
      });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', 'http://x');
    const key = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (key !== GOOD_KEY && key !== OTHER_GOOD_KEY && key !== LAPSED_KEY) {
      return send(401, { error: { code: 'UNAUTHORIZED', message: 'missing or invalid API key' }, requestId });
    }
    if (key === LAPSED_KEY) {
      return send(403, { error: { code: 'ADDON_REQUIRED', message: 'the API add-on is not active for this workspace' }, requestId });
    }
    if (req.method === 'GET' && url.pathname === '/api/v1/post-results') {
      const limit = Number(url.searchParams.get('limit') ?? '10');
      const row = {
        id: 'res_1',
        post_id: 'post_1',
        success: true,
        social_account_id: 'acc_1',
        platform_data: { id: 'tw_1', url: 'https://example.test/tw_1', username: 'demo' },
        error: null,
        platform: 'twitter-x',
        created_at: '2026-01-01T09:00:00.000Z',
      };
      return send(200, { data: limit > 0 ? [row] : [], meta: { offset: 0, limit, total: 1 } });
    }
    send(404, { error: { code: 'NOT_FOUND', message: `no route for ${req.method} ${url.pathname}` }, requestId });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
