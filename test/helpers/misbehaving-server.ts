// A service that answers however the test says: a node:http server on 127.0.0.1, port 0, whose
// every request goes to the test's handler (a 429 asking for a wait of a billion years, an HTML
// page where JSON belongs, a request left unanswered). It records what was asked, in order.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterEach } from 'vitest';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse, seen: number) => void;

export interface MisbehavingServer {
  url: string;
  /** Every request, in order. */
  requests: Array<{ method: string; url: string; headers: IncomingMessage['headers'] }>;
  close(): Promise<void>;
}

export async function startMisbehavingServer(handler: Handler): Promise<MisbehavingServer> {
  const requests: MisbehavingServer['requests'] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers });
    // The body is read first, so that an answer never races the upload.
    req.resume();
    req.on('end', () => handler(req, res, requests.length));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An answer with a JSON body (or a string as it is) and the service's usual Request-Id. */
export function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_hostile', ...headers });
  res.end(text);
}

/**
 * One misbehaving server per test, closed after it: `serve(handler, env)` starts it and gives the
 * CLI's environment pointing at it (its URL and `base`, then `env`); `server` is the running one.
 */
export function misbehavingPerTest(base: Record<string, string>): { serve(handler: Handler, env?: Record<string, string>): Promise<Record<string, string>>; readonly server: MisbehavingServer } {
  let running: MisbehavingServer | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });
  return {
    async serve(handler, env = {}) {
      running = await startMisbehavingServer(handler);
      return { SOCIALPUB_BASE_URL: running.url, ...base, ...env };
    },
    get server() {
      if (!running) throw new Error('no misbehaving server is running: call serve() first');
      return running;
    },
  };
}
