// A service without some routes, for the client's "this service cannot do that" paths: a node:http
// proxy on 127.0.0.1 that forwards everything to a real server (the sandbox) except the requests
// `missing` names, which it answers itself (405, or a framework's plain 404 page).
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
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
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A request for one post (`/v1/posts/{id}`) with one of these methods. */
export const onePost =
  (...methods: string[]) =>
  (req: IncomingMessage): boolean =>
    methods.includes(req.method ?? '') && /^\/v1\/posts\/[^/?]+/.test(req.url ?? '');
