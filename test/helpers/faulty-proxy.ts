// A proxy in front of a real service (the sandbox) that turns chosen answers into faults: a
// status of the test's choosing (503 bursts, 429 with a Retry-After), or the service's own answer
// with its body cut short (the work is done, the answer arrives garbled). Everything else passes
// through unchanged. It listens on 127.0.0.1, port 0, and records what it did.
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  | 'pass'
  /** Forward (the service does its work), then cut the client's connection before the answer. */
  | 'lose'
  /** Forward, then send the first half of the service's body, complete as far as HTTP can tell. */
  | 'cut'
  | { status: number; headers?: Record<string, string>; body?: string };

export interface FaultyProxy {
  url: string;
  /** One entry per request: method, path and what was done to it. */
  readonly log: Array<{ method: string; url: string; fault: 'pass' | 'lose' | 'cut' | number }>;
  close(): Promise<void>;
}

export async function faultyProxy(target: string, choose: (req: IncomingMessage, seen: number) => Fault): Promise<FaultyProxy> {
  const upstream = new URL(target);
  const log: FaultyProxy['log'] = [];
  let seen = 0;
  const server = createServer((req, res) => {
    const fault = choose(req, seen++);
    log.push({ method: req.method ?? 'GET', url: req.url ?? '/', fault: typeof fault === 'string' ? fault : fault.status });
    if (typeof fault === 'object') {
      req.resume();
      req.on('end', () => {
        res.writeHead(fault.status, { 'content-type': 'application/json', 'request-id': 'req_proxy', ...fault.headers });
        res.end(fault.body ?? JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'the proxy said so' } }));
      });
      return;
    }
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        if (fault === 'pass') {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        if (fault === 'lose') {
          answer.resume();
          answer.on('end', () => req.socket.destroy());
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          const half = body.subarray(0, Math.floor(body.length / 2));
          const headers = { ...answer.headers, 'content-length': String(half.length) };
          delete headers['transfer-encoding'];
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(half);
        });
      },
    );
    forward.on('error', () => req.socket.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
