// What stands between the sandbox and a client that misbehaves at the HTTP level, so that no
// single client can break it or go unanswered in the contract's shape:
// - malformed requests (garbage request line, unknown method, Content-Length with
//   Transfer-Encoding, oversized headers or URL) and stalled headers get the contract's error
//   body and a Request-Id instead of Node's bare answers (the server's `clientError` event);
// - headers must arrive within `headersTimeoutMs`, a whole request within `requestTimeoutMs`
//   (Node checks both every `checkIntervalMs`, by default far more often than its 30 s);
// - at most `maxConnections` connections are open, shared fairly: when all are taken, a new one
//   replaces a connection of whoever holds the most of a kind (see evictionVictim), so hundreds
//   of connections trickling their headers from one address, or stalling their bodies with one
//   workspace's key, cannot lock another client out; the stalled ones still get their 408.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ERROR_CODE } from '../../wire/protocol.js';
import type { SandboxCore } from '../core.js';
import { errorBody } from './reply.js';

export interface GuardLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  maxConnections: number;
}

/** Codes for the HTTP-level refusals the service's API document leaves unnamed. */
export const HTTP_ERROR_CODE = { requestTimeout: 'REQUEST_TIMEOUT', headersTooLarge: 'REQUEST_HEADERS_TOO_LARGE' } as const;

type ParserError = Error & { code?: string };

/** Status, code and message for an error Node's HTTP parser (or its timers) reported. */
export function describeClientError(err: ParserError, limits: GuardLimits): { status: number; code: string; message: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: HTTP_ERROR_CODE.headersTooLarge, message: 'the request line and headers are larger than 16 KB; send a shorter URL or fewer, shorter headers' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: HTTP_ERROR_CODE.requestTimeout, message: `the request did not arrive in time (headers within ${limits.headersTimeoutMs} ms, all of it within ${limits.requestTimeoutMs} ms); send it again` };
    case 'HPE_INVALID_METHOD':
      return { status: 400, code: ERROR_CODE.badRequest, message: 'malformed request line or unknown HTTP method; send "METHOD /path HTTP/1.1" with GET, POST, PUT or HEAD' };
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return { status: 400, code: ERROR_CODE.badRequest, message: 'Transfer-Encoding is invalid or comes with Content-Length; send either Content-Length or Transfer-Encoding: chunked' };
    default:
      return { status: 400, code: ERROR_CODE.badRequest, message: `malformed HTTP request (${err.code ?? err.message}); send a well-formed HTTP/1.1 request` };
  }
}

interface Tracked {
  socket: Socket;
  /** Requests being answered on this connection. */
  busy: number;
  /** The client's address: whom the connection counts against while it has no request. */
  address: string;
  /** The latest request on it: while its body is arriving, it counts against the request's API key. */
  request: IncomingMessage | undefined;
}

export function guardServer(server: Server, core: SandboxCore, limits: GuardLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;

  // The response being written on each connection, from the public 'request' event.
  const responding = new WeakMap<Duplex, ServerResponse>();
  server.on('clientError', (err: ParserError, socket: Duplex) => {
    const inFlight = responding.get(socket);
    // A reset peer hears nothing; a response already under way must not be corrupted.
    if (err.code === 'ECONNRESET' || !socket.writable || (inFlight?.headersSent && !inFlight.writableFinished)) {
      socket.destroy();
      return;
    }
    const { status, code, message } = describeClientError(err, limits);
    const requestId = core.nextRequestId();
    const body = JSON.stringify(errorBody(code, message, requestId));
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      'content-type: application/json; charset=utf-8',
      `content-length: ${Buffer.byteLength(body)}`,
      'cache-control: no-store',
      `request-id: ${requestId}`,
      'connection: close',
    ].join('\r\n');
    core.log({ method: '', path: '', query: '', workspace: null, status, at: core.clock.now(), requestId, malformed: err.code ?? 'error' });
    socket.end(`${head}\r\n\r\n${body}`, () => socket.destroy());
  });

  // Our own accounting rather than server.maxConnections, which refuses the NEWEST connection.
  const open = new Map<Socket, Tracked>();
  server.on('connection', (socket: Socket) => {
    if (open.size >= limits.maxConnections) {
      const victim = evictionVictim(open);
      if (!victim) {
        socket.destroy();
        return;
      }
      victim.socket.destroy();
      open.delete(victim.socket);
    }
    open.set(socket, { socket, busy: 0, address: socket.remoteAddress ?? '?', request: undefined });
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (req, res: ServerResponse) => {
    responding.set(req.socket, res);
    res.once('close', () => {
      if (responding.get(req.socket) === res) responding.delete(req.socket);
    });
    const t = open.get(req.socket);
    if (!t) return;
    t.busy++;
    t.request = req;
    res.once('close', () => t.busy--);
  });
}

/**
 * The connection a newcomer replaces when every slot is taken. First one with no request being
 * answered (idle, or still sending its headers), counted per client address: the oldest of the
 * address holding the most. Failing that, one whose request body is still arriving (a stalled
 * upload holds its slot until the body idle time answers it 408), counted per API key: the oldest
 * of the key holding the most, unless every key holds one. A request already received and being
 * answered is never cut. Undefined when nothing may go: the newcomer is refused.
 */
function evictionVictim(open: Map<Socket, Tracked>): Tracked | undefined {
  const idle = largestHolder(open, (t) => (t.busy === 0 ? t.address : undefined));
  if (idle) return idle.oldest;
  const receiving = largestHolder(open, (t) => (t.request && !t.request.complete ? bodyHolder(t) : undefined));
  return receiving && receiving.count > 1 ? receiving.oldest : undefined;
}

/** Whom a request body counts against: its API key, or its address when it names none. */
function bodyHolder(t: Tracked): string {
  const auth = t.request?.headers.authorization;
  const key = auth === undefined ? undefined : /^Bearer\s+(\S+)/i.exec(auth)?.[1];
  return key === undefined ? `address ${t.address}` : `key ${key}`;
}

/** The holder with the most connections that `holder` assigns (none: not counted), and its oldest. */
function largestHolder(open: Map<Socket, Tracked>, holder: (t: Tracked) => string | undefined): { oldest: Tracked; count: number } | undefined {
  const held = new Map<string, { oldest: Tracked; count: number }>();
  let largest: { oldest: Tracked; count: number } | undefined;
  // Map order is connection order, so a holder's first connection seen is its oldest.
  for (const t of open.values()) {
    const h = holder(t);
    if (h === undefined) continue;
    let entry = held.get(h);
    if (!entry) held.set(h, (entry = { oldest: t, count: 0 }));
    entry.count++;
    if (!largest || entry.count > largest.count) largest = entry;
  }
  return largest;
}
