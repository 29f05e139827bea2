// A malicious service for tests of the CLI and the MCP server: it answers the read routes in the
// wire shapes of src/wire/schemas.ts, but every string may carry terminal escapes, a body may
// never end, and pages may repeat the same rows forever. It listens on 127.0.0.1, port 0.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One of each kind of escape a terminal acts on. */
export const ESCAPES = {
  /** OSC 52: writes "evil" to the clipboard. */
  clipboard: '\x1b]52;c;ZXZpbA==\x07',
  /** OSC 0: sets the window title. */
  title: '\x1b]0;pwned\x07',
  /** CSI 2J: clears the screen. */
  clear: '\x1b[2J',
  /** SGR: red on a hidden background, never reset. */
  sgr: '\x1b[31;8m',
  /** OSC 8: a hyperlink whose target is not the text shown. */
  hyperlink: '\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\',
  /** C1 controls: 8-bit CSI and OSC, which some terminals honour like ESC [ and ESC ]. */
  c1: '\x9b2J\x9d0;pwned\x9c',
} as const;

/** All of ESCAPES in one string, appended to every string field in escape mode. */
export const HOSTILE = Object.values(ESCAPES).join('');

/**
 * Header values cannot hold ESC or BEL (Node refuses them), but they can hold C1 bytes, which a
 * client decoding headers as latin1 turns into real control characters.
 */
export const HOSTILE_HEADER = `req${ESCAPES.c1}`;

export interface HostileOptions {
  /** (a) Every string of every JSON object served, and the request-id headers, carry escapes. */
  escapes?: boolean;
  /** (b) Every answer is a 200 (or `failWith`) whose body streams until the client disconnects. */
  endless?: boolean;
  /** (c) Every list page holds the same ids, and `meta.total` grows with each request. */
  repeatPages?: boolean;
  /** Answer every request with this status and an error body (with escapes when `escapes`). */
  failWith?: number;
  /** Rows in the finite data set of a list route (default 3). */
  rows?: number;
}

export interface HostileServer {
  url: string;
  /** What was asked, in order. */
  requests: Array<{ method: string; path: string; headers: IncomingMessage['headers'] }>;
  /** Bytes of body written by the endless mode so far. */
  endlessBytesSent(): number;
  /** Resolves when an endless body stopped because its client went away. */
  endlessClosed(): Promise<void>;
  close(): Promise<void>;
}

const CREATED = '2026-03-20T12:00:00.000Z';

function postResult(id: string, n: number): Record<string, unknown> {
  const success = n % 2 === 1;
  return {
    id,
    post_id: `post_${n}`,
    success,
    social_account_id: `acct_${n}`,
    platform: 'bluesky',
    platform_data: success ? { id: `bsky_${n}`, url: `https://bsky.app/profile/user${n}/post/${n}`, username: `user${n}` } : null,
    error: success ? null : { code: 'API_RATE_LIMIT', message: 'Rate limit reached, try again later', context: { platform: 'bluesky', detail: 'slow down' } },
    created_at: CREATED,
  };
}

function post(id: string, n: number): Record<string, unknown> {
  return {
    id,
    status: 'published',
    title: `Post ${n}`,
    payloads: { bluesky: { text: `Hello from post ${n}`, media: [{ url: `https://cdn.example/${n}.jpg`, type: 'image' }] } },
    scheduledAt: null,
    createdAt: CREATED,
    updatedAt: CREATED,
  };
}

/** Appends HOSTILE to every string, object keys excepted (the client must still find its fields). */
export function poison(value: unknown): unknown {
  if (typeof value === 'string') return value + HOSTILE;
  if (Array.isArray(value)) return value.map(poison);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, poison(v)]));
  return value;
}

function wholeParam(params: URLSearchParams, name: string, fallback: number): number {
  const n = Number(params.get(name));
  return params.has(name) && Number.isInteger(n) && n >= 0 ? n : fallback;
}

export async function startHostileServer(options: HostileOptions = {}): Promise<HostileServer> {
  const requests: HostileServer['requests'] = [];
  let listRequests = 0;
  let endlessBytes = 0;
  let signalClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => (signalClosed = resolve));
  const total = options.rows ?? 3;
  const requestId = (n: number) => (options.escapes ? `${HOSTILE_HEADER}${n}` : `req_${n}`);

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': requestId(requests.length), 'x-request-id': requestId(requests.length) });
    res.end(JSON.stringify(options.escapes ? poison(body) : body));
  };

  const streamForever = (res: ServerResponse) => {
    res.writeHead(options.failWith ?? 200, { 'content-type': 'application/json', 'request-id': requestId(requests.length) });
    res.write('{"data":[');
    const row = JSON.stringify(options.escapes ? poison(postResult('res_1', 1)) : postResult('res_1', 1)) + ',';
    const chunk = Buffer.from(row.repeat(Math.ceil(65_536 / row.length)));
    res.on('close', () => signalClosed());
    // Writes until the socket pushes back, then again on drain; a gone client never drains.
    const pump = () => {
      while (!res.destroyed) {
        endlessBytes += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
    };
    pump();
  };

  const list = (res: ServerResponse, params: URLSearchParams, make: (id: string, n: number) => Record<string, unknown>, prefix: string) => {
    const offset = wholeParam(params, 'offset', 0);
    const limit = wholeParam(params, 'limit', 20);
    listRequests += 1;
    if (options.repeatPages) {
      // Whatever the offset, the same first rows; and always more to come.
      const data = Array.from({ length: Math.max(1, Math.min(limit, total)) }, (_, i) => make(`${prefix}_${i + 1}`, i + 1));
      send(res, 200, { data, meta: { offset, limit, total: offset + limit + listRequests * 1000 } });
      return;
    }
    const data: Array<Record<string, unknown>> = [];
    for (let n = offset + 1; n <= Math.min(total, offset + limit); n++) data.push(make(`${prefix}_${n}`, n));
    send(res, 200, { data, meta: { offset, limit, total } });
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, headers: req.headers });
    if (options.endless) return streamForever(res);
    if (options.failWith !== undefined) {
      send(res, options.failWith, { error: { code: 'HOSTILE', message: `The server refused (${options.failWith})`, issues: [{ path: 'payloads.bluesky.text', message: 'is wrong' }] }, requestId: requestId(requests.length) });
      return;
    }
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const route = parts.join('/');
    const n = (id: string) => Number(/(\d+)$/.exec(id)?.[1] ?? 1);
    if (req.method === 'GET' && route === 'api/v1/post-results') return list(res, url.searchParams, postResult, 'res');
    if (req.method === 'GET' && route === 'v1/posts') return list(res, url.searchParams, post, 'post');
    if (req.method === 'GET' && parts.length === 4 && route.startsWith('api/v1/post-results/')) return send(res, 200, postResult(parts[3]!, n(parts[3]!)));
    if (req.method === 'GET' && parts.length === 3 && route.startsWith('v1/posts/')) return send(res, 200, post(parts[2]!, n(parts[2]!)));
    send(res, 404, { error: { code: 'NOT_FOUND', message: `No route ${req.method} ${url.pathname}` }, requestId: requestId(requests.length) });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    endlessBytesSent: () => endlessBytes,
    endlessClosed: () => closed,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
