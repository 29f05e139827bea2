// The node:http server under the listener: Node's own timeouts as a backstop, answers for what
// never reaches the handler (malformed HTTP, slow headers, odd Expect headers), and binding
// with errors people can act on.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Counters } from './bookkeeping.js';
import { ListenerStartError, type ListenerSettings } from './options.js';
import { reportRejected, type Emit, type Reject } from './outcomes.js';
import type { RejectReason } from './types.js';

export interface ServerDeps {
  settings: ListenerSettings;
  counters: Counters;
  emit: Emit;
  reject: Reject;
  handle(req: IncomingMessage, res: ServerResponse): void;
}

export function createListenerServer(deps: ServerDeps): http.Server {
  const { settings, counters, emit, reject } = deps;
  const { headersTimeoutMs, bodyTimeoutMs } = settings;
  const server = http.createServer(
    {
      headersTimeout: headersTimeoutMs,
      // Node's own whole-request limit is a backstop behind our body deadline.
      requestTimeout: headersTimeoutMs + bodyTimeoutMs + 1000,
      // How often Node checks those timeouts; its default (30 s) would let short limits slip.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeoutMs / 2))),
      keepAliveTimeout: 5000,
    },
    deps.handle,
  );

  // Malformed HTTP and slow headers: Node calls this instead of the handler. Slow headers are
  // timed by Node's parser, on real time: it offers no clock to inject.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || err.code === 'EPIPE' || !socket.writable) {
      socket.destroy();
      return;
    }
    const timeout = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const reason: RejectReason = timeout ? 'headers-timeout' : 'bad-request';
    const detail = timeout ? `request not received within ${headersTimeoutMs} ms` : 'malformed HTTP request';
    reportRejected(counters, emit, reason, detail);
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : timeout ? '408 Request Timeout' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-type: text/plain\r\ncontent-length: ${detail.length + 1}\r\n\r\n${detail}\n`, () => socket.destroy());
  });
  // Node calls this (not the handler) for an Expect header other than 100-continue.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    counters.requests++;
    reject(res, 'expectation-failed', 'only "Expect: 100-continue" is supported', null, true);
  });
  return server;
}

/** Binds and resolves with the bound port; a bind failure becomes a ListenerStartError. */
export function bind(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise<number>((resolve, rejectStart) => {
    const onStartError = (err: NodeJS.ErrnoException) => rejectStart(new ListenerStartError(bindErrorMessage(err, port, host), err.code ?? 'ERROR'));
    server.once('error', onStartError);
    server.listen(port, host, () => {
      server.off('error', onStartError);
      // A server-level error after start (rare: e.g. EMFILE on accept) must not crash the
      // process; the listener keeps serving the connections it has.
      server.on('error', () => {});
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

function bindErrorMessage(err: NodeJS.ErrnoException, port: number, host: string): string {
  switch (err.code) {
    case 'EADDRINUSE':
      return `port ${port} on ${host} is already in use`;
    case 'EACCES':
      return `not allowed to listen on port ${port}`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return `cannot listen on ${host}: no such local address`;
    default:
      return `cannot listen on ${host}:${port}: ${err.message}`;
  }
}
