// Services that differ from the sandbox in one way, as node:http proxies on 127.0.0.1 that forward
// everything else to a real server (the sandbox): one without some routes, for the client's "this
// service cannot do that" paths (the requests `missing` names are answered with a 405, or a
// framework's plain 404 page), one whose results list answers 404 first, and one that answers a
// read of a post with the post changed (a service whose limits are not the client's).
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RouteAnswer {
  status: number;
  body: string;
  type: string;
}

export async function proxyWithout(target: string, missing: (req: IncomingMessage) => boolean, answer: RouteAnswer): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    if (missing(req)) {
      res.writeHead(answer.status, { 'content-type': answer.type });
      res.end(answer.body);
      return;
    }
    forward(upstream, req, res);
  });
  return listening(server);
}

function forward(upstream: URL, req: IncomingMessage, res: ServerResponse): void {
  const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
    res.writeHead(up.statusCode ?? 502, up.headers);
    up.pipe(res);
  });
  req.pipe(out);
}

async function listening(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * A service whose results list answers 404 NOT_FOUND (as a service may for an id the workspace
 * does not have), in front of a real one. A read of one post is held until the results 404 for
 * that id has gone out, so a client that asks for both at once meets the results failure first,
 * every time. `resultsAsked` lists the post_id of each results request, in order of arrival.
 */
export async function resultsFailFirst(target: string): Promise<{ url: string; resultsAsked: string[]; close(): Promise<void> }> {
  const upstream = new URL(target);
  const gates = new Map<string, { open: Promise<void>; release: () => void }>();
  const gate = (id: string) => {
    let g = gates.get(id);
    if (!g) {
      let release!: () => void;
      const open = new Promise<void>((resolve) => (release = resolve));
      g = { open, release };
      gates.set(id, g);
    }
    return g;
  };
  const resultsAsked: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    if (url.pathname === '/api/v1/post-results') {
      const id = url.searchParams.get('post_id') ?? '';
      resultsAsked.push(id);
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'post results not found' }, requestId: 'req_proxy' }), () => gate(id).release());
      return;
    }
    const postId = req.method === 'GET' ? /^\/v1\/posts\/([^/]+)$/.exec(url.pathname)?.[1] : undefined;
    if (postId === undefined) return forward(upstream, req, res);
    // Taken by this read: the next read of the same id waits for its own results answer.
    void gate(postId).open.then(() => {
      gates.delete(postId);
      forward(upstream, req, res);
    });
  });
  return { ...(await listening(server)), resultsAsked };
}

/** A request for one post (`/v1/posts/{id}`) with one of these methods. */
export const onePost =
  (...methods: string[]) =>
  (req: IncomingMessage): boolean =>
    methods.includes(req.method ?? '') && /^\/v1\/posts\/[^/?]+/.test(req.url ?? '');

/**
 * A service without the accounts route (GET /v1/social-accounts…), in front of a real one: it
 * answers 405, or (`notFoundPage`) a web framework's plain 404 page without the contract's body.
 */
export function withoutAccountsRoute(target: string, notFoundPage = false): Promise<{ url: string; close(): Promise<void> }> {
  const answer = notFoundPage ? { status: 404, body: 'Cannot GET /v1/social-accounts', type: 'text/html' } : { status: 405, body: '{"error":"method not allowed"}', type: 'application/json' };
  return proxyWithout(target, (req) => (req.url ?? '').startsWith('/v1/social-accounts'), answer);
}

/**
 * A service that answers a read of one post (GET /v1/posts/{id}) with the real post as `change`
 * makes it, e.g. a text longer than the client's table allows (a service whose limit differs).
 */
export async function postReadsChanged(target: string, change: (post: Record<string, any>) => Record<string, any>): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    if (!(req.method === 'GET' && /^\/v1\/posts\/[^/?]+$/.test(req.url ?? ''))) return forward(upstream, req, res);
    request({ host: upstream.hostname, port: upstream.port, method: 'GET', path: req.url, headers: req.headers }, (up) => {
      const chunks: Buffer[] = [];
      up.on('data', (c: Buffer) => chunks.push(c));
      up.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const body = up.statusCode === 200 ? JSON.stringify(change(JSON.parse(text) as Record<string, any>)) : text;
        const headers = { ...up.headers, 'content-length': String(Buffer.byteLength(body)) };
        res.writeHead(up.statusCode ?? 502, headers);
        res.end(body);
      });
    }).end();
  });
  return listening(server);
}
