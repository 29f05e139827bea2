// The first look at a request, before its body: the Host guard, browsers turned away, path,
// method and declared size. Each failure is answered at once and the connection closed,
// without reading the body; a request that passes has its body read under the byte cap and
// the slow-body deadline, then goes to the delivery handler.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Counters } from './bookkeeping.js';
import type { DeliveryHandler } from './delivery.js';
import type { ListenerSettings } from './options.js';
import type { Reject } from './outcomes.js';
import type { Reading, SlowBodies } from './slow-bodies.js';
import { isLoopbackHost } from '../wire/protocol.js';

export interface RequestDeps {
  settings: ListenerSettings;
  counters: Counters;
  reject: Reject;
  slowBodies: SlowBodies;
  onDelivery: DeliveryHandler;
  /** Set once the port is bound (the guard needs the port). */
  hostAllowed(hostHeader: string | undefined): boolean;
}

export function requestHandler(deps: RequestDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { settings, counters, reject, slowBodies, onDelivery } = deps;
  const { path, maxBodyBytes } = settings;

  const turnedAway = (req: IncomingMessage, res: ServerResponse): boolean => {
    const headers = req.headers;
    const hostHeader = headers.host;
    if (!deps.hostAllowed(hostHeader)) {
      const shown = hostHeader === undefined ? 'no Host header' : `Host "${oneLine(hostHeader)}"`;
      reject(res, 'forbidden-host', `${shown} is not this listener's loopback address (DNS-rebinding guard)`, null, true);
      return true;
    }
    // A web page can make the user's browser POST here (a form or fetch to 127.0.0.1); browsers
    // always say so with Origin or Sec-Fetch-Site, and webhook senders never send either.
    const origin = headers.origin;
    const fetchSite = headers['sec-fetch-site'];
    if (origin !== undefined || fetchSite !== undefined) {
      const shown = origin !== undefined ? `Origin "${oneLine(origin)}"` : `Sec-Fetch-Site "${oneLine(String(fetchSite), 20)}"`;
      reject(res, 'browser-request', `a request with ${shown} comes from a web browser; webhook senders never send Origin or Sec-Fetch-Site`, null, true);
      return true;
    }
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const pathname = q < 0 ? url : url.slice(0, q);
    if (pathname !== path) {
      reject(res, 'not-found', `nothing at ${oneLine(pathname)}; deliveries go to ${path}`, null, true);
      return true;
    }
    if (req.method !== 'POST') {
      reject(res, 'method-not-allowed', `${oneLine(req.method ?? '?', 20)} is not allowed; deliveries are POST`, null, true, { allow: 'POST' });
      return true;
    }
    const declared = headers['content-length'];
    if (declared !== undefined && Number(declared) > maxBodyBytes) {
      reject(res, 'body-too-large', `body of ${oneLine(declared, 20)} bytes is larger than ${maxBodyBytes}`, null, true);
      return true;
    }
    return false;
  };

  // One callback for every body, handed the body's slow-body record (which holds its response),
  // rather than a closure made per request.
  const bodyDone = (reading: Reading, body: Buffer | undefined): void => {
    const res = reading.res;
    if (res === undefined || !slowBodies.finished(reading)) return; // the sweep already answered 408
    try {
      if (body === undefined) return reject(res, 'body-too-large', `body larger than ${maxBodyBytes} bytes`, null, true);
      onDelivery(res.req, res, body);
    } catch {
      // Nothing a client sends may throw out of the handler: a bug here answers 500, and the
      // listener keeps serving. (Consumers' exceptions never get here; see safeEmitter.)
      reject(res, 'internal-error', 'internal error while handling the delivery', null, true);
    }
  };

  return (req, res) => {
    counters.requests++;
    try {
      if (turnedAway(req, res)) return;
      readBody(req, maxBodyBytes, slowBodies.started(res), bodyDone);
    } catch {
      reject(res, 'internal-error', 'internal error while handling the request', null, true);
    }
  };
}

const EMPTY = Buffer.alloc(0);

/**
 * Reads a request body under a byte cap counted as the bytes stream in, so a body without
 * Content-Length, or one that lies about it, is stopped at the cap without being buffered
 * whole. Calls `done(context, body)` once, with undefined for a body over the cap. Deliberately
 * lean (one listener, no timer, no promise, no result object): it runs once per delivery.
 * 'readable' and read() rather than 'data' and 'end': a body that came with its headers is then
 * taken in one event, the one that finds the request complete (IncomingMessage.complete is set
 * before the stream's end is pushed), without switching the stream to flowing mode and without
 * waiting a tick more for 'end'. The deadline for slow bodies is the listener's sweep, and a
 * client that disconnects mid-body simply never calls back; everything is then collected with
 * the request.
 */
export function readBody<C>(req: IncomingMessage, maxBytes: number, context: C, done: (context: C, body: Buffer | undefined) => void): void {
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  let size = 0;
  // Finished: the listener stays (removing the last 'readable' listener costs a tick of its own).
  let finished = false;
  req.on('readable', () => {
    if (finished) return;
    let chunk: Buffer | null;
    while ((chunk = req.read() as Buffer | null) !== null) {
      size += chunk.length;
      if (size > maxBytes) {
        // Stop reading (what is unread stays below the stream's high-water mark); the listener
        // answers 413 and closes the connection.
        finished = true;
        done(context, undefined);
        return;
      }
      if (first === undefined) first = chunk;
      else (more ??= [first]).push(chunk);
    }
    if (!req.complete) return;
    finished = true;
    done(context, more ? Buffer.concat(more, size) : (first ?? EMPTY));
  });
}

/**
 * The DNS-rebinding guard: a web page on evil.example can resolve its own name to 127.0.0.1 and
 * make the browser POST to the listener; the browser still sends `Host: evil.example`. For a
 * loopback bind only 127.0.0.1:port, localhost:port and [::1]:port are accepted, and the name
 * bound when it is another (127.0.0.2, app.localhost); the port may be left out only when it is 80. For any other bind the user chose to be reachable by other
 * names, so every Host is accepted.
 */
export function hostGuard(boundHost: string, port: number): (hostHeader: string | undefined) => boolean {
  if (!isLoopbackHost(boundHost)) return () => true;
  const allowed = new Set<string>();
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  const bound = boundHost.toLowerCase();
  if ((/^127\./.test(bound) && bound !== '127.0.0.1') || bound.endsWith('.localhost')) names.push(bound);
  for (const name of names) {
    allowed.add(`${name}:${port}`);
    if (port === 80) allowed.add(name);
  }
  return (hostHeader) => hostHeader !== undefined && (allowed.has(hostHeader) || allowed.has(hostHeader.toLowerCase()));
}

/** A header as one string (repeated headers joined), or undefined. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(' ') : v;
}

/** Header values echoed in reasons: one line, printable, short. */
export function oneLine(value: string, max = 80): string {
  const clean = value.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > max ? clean.slice(0, max) + '…' : clean;
}

/** host:port for a URL, with IPv6 addresses in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
