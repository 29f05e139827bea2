// The webhook listener: one HTTP server, one path, POST only. Every request is answered
// (never left hanging) and every outcome is an event; nothing a client sends can throw out of
// the handler. Accepted deliveries are emitted synchronously the moment their body is complete
// and verified, so events come out in the order deliveries finished arriving — there is no
// asynchronous step between receipt and emission that could reorder them. The sender is
// answered 204 right after emission; forwarding to a local app happens afterwards, off the
// sender's critical path.
import { EventEmitter } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { HEADER, MAX_BODY_BYTES } from '../wire/headers.js';
import { SECRET_PREFIX, verify } from '../wire/webhook-signing.js';
import { SeenIds } from './dedupe.js';
import { Forwarder, type ForwardOutcome } from './forwarder.js';
import { hostGuard } from './host-guard.js';
import { readBody, type BodyResult } from './read-body.js';
import { REJECT_STATUS, verifyDetail } from './reasons.js';
import type { Listener, ListenerEvents, ListenerOptions, ListenerStats, RejectReason } from './types.js';

export const DEFAULTS = {
  port: 4567,
  host: '127.0.0.1',
  path: '/webhooks',
  forwardTimeoutMs: 10_000,
  forwardRetries: 2,
  forwardBackoffMs: 500,
  forwardConcurrency: 4,
  forwardQueueLimit: 10_000,
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 10_000,
  dedupeWindow: 100_000,
} as const;

/** Bad options or a port that cannot be bound. `code` is EINVAL or the system's (EADDRINUSE…). */
export class ListenerStartError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'ListenerStartError';
  }
}

/** A secret is usable when, without its whsec_ prefix, it is non-empty standard base64. */
export function isUsableSecret(secret: string): boolean {
  const raw = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return raw.length > 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(raw) && Buffer.from(raw, 'base64').length > 0;
}

/** Header values echoed in reasons: one line, printable, short. */
function oneLine(value: string, max = 80): string {
  const clean = value.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > max ? clean.slice(0, max) + '…' : clean;
}

function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(' ') : v;
}

export function startListener(options: ListenerOptions = {}): Promise<Listener> {
  const port = options.port ?? DEFAULTS.port;
  const host = options.host ?? DEFAULTS.host;
  const path = options.path ?? DEFAULTS.path;
  const secret = options.secret === '' ? undefined : options.secret;
  const now = options.now ?? Date.now;
  const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const headersTimeoutMs = options.headersTimeoutMs ?? DEFAULTS.headersTimeoutMs;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULTS.bodyTimeoutMs;
  const forwardTimeoutMs = options.forwardTimeoutMs ?? DEFAULTS.forwardTimeoutMs;
  const platforms = options.platforms?.length ? new Set(options.platforms) : undefined;
  const statuses = options.statuses?.length ? new Set(options.statuses) : undefined;

  if (!Number.isInteger(port) || port < 0 || port > 65535) return Promise.reject(new ListenerStartError(`port ${port} is not a whole number from 0 to 65535`, 'EINVAL'));
  if (!path.startsWith('/')) return Promise.reject(new ListenerStartError(`path "${path}" must start with /`, 'EINVAL'));
  if (secret !== undefined && !isUsableSecret(secret)) {
    return Promise.reject(new ListenerStartError('the webhook secret is not a whsec_ secret (base64 after the prefix)', 'EINVAL'));
  }
  let forwardUrl: URL | undefined;
  if (options.forwardTo !== undefined) {
    try {
      forwardUrl = new URL(options.forwardTo);
    } catch {
      return Promise.reject(new ListenerStartError(`forward URL "${options.forwardTo}" is not a URL`, 'EINVAL'));
    }
    if (forwardUrl.protocol !== 'http:' && forwardUrl.protocol !== 'https:') {
      return Promise.reject(new ListenerStartError(`forward URL "${options.forwardTo}" must be http:// or https://`, 'EINVAL'));
    }
  }

  const emitter = new EventEmitter<ListenerEvents>();
  const seen = new SeenIds(options.dedupeWindow ?? DEFAULTS.dedupeWindow);
  const counts = {
    requests: 0,
    events: 0,
    duplicates: 0,
    filtered: 0,
    rejectedTotal: 0,
    forwarded: 0,
    forwardFailed: 0,
  };
  const rejected: Partial<Record<RejectReason, number>> = {};
  let boundPort = port;
  let hostAllowed: (h: string | undefined) => boolean = () => false;

  // A consumer's exception must not turn into a 500 for the sender or stop the listener.
  const emit = <K extends keyof ListenerEvents>(name: K, arg: ListenerEvents[K][0]) => {
    try {
      (emitter.emit as (n: K, a: ListenerEvents[K][0]) => boolean)(name, arg);
    } catch {
      // ignored on purpose: the listener keeps serving.
    }
  };
  // Deliveries arrive many per millisecond under load; one ISO string per millisecond will do.
  let isoMs = -1;
  let iso = '';
  const receivedAt = () => {
    const t = now();
    if (t !== isoMs) {
      isoMs = t;
      iso = new Date(t).toISOString();
    }
    return iso;
  };

  const onForwardDone = (o: ForwardOutcome) => {
    if (o.error === undefined && o.status !== undefined) {
      counts.forwarded++;
      emit('forwarded', { webhookId: o.webhookId, status: o.status, attempts: o.attempts, ms: o.ms });
    } else {
      counts.forwardFailed++;
      emit('forward-failed', { webhookId: o.webhookId, error: o.error ?? 'unknown', attempts: o.attempts, ...(o.status !== undefined ? { status: o.status } : {}) });
    }
  };
  const forwarder = forwardUrl
    ? new Forwarder({
        url: forwardUrl,
        timeoutMs: forwardTimeoutMs,
        retries: options.forwardRetries ?? DEFAULTS.forwardRetries,
        backoffMs: options.forwardBackoffMs ?? DEFAULTS.forwardBackoffMs,
        concurrency: options.forwardConcurrency ?? DEFAULTS.forwardConcurrency,
        queueLimit: options.forwardQueueLimit ?? DEFAULTS.forwardQueueLimit,
        onDone: onForwardDone,
      })
    : undefined;

  function reject(res: ServerResponse, reason: RejectReason, detail: string, webhookId: string | null, close: boolean, extra?: Record<string, string>) {
    counts.rejectedTotal++;
    rejected[reason] = (rejected[reason] ?? 0) + 1;
    const status = REJECT_STATUS[reason];
    emit('rejected', { reason, status, detail, webhookId });
    if (res.headersSent || res.destroyed) return;
    const body = `${detail}\n`;
    const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), ...extra };
    // A body we did not read is not drained: the connection is closed instead.
    if (close) headers.connection = 'close';
    res.writeHead(status, headers);
    res.end(body);
  }

  function accept(res: ServerResponse) {
    res.writeHead(204);
    res.end();
  }

  function onBody(req: IncomingMessage, res: ServerResponse, result: BodyResult) {
    if (!result.ok) return reject(res, 'body-too-large', `body larger than ${maxBodyBytes} bytes`, null, true);
    const raw = result.body;
    const id = header(req, HEADER.webhookId) ?? null;
    let verified = false;
    if (secret !== undefined) {
      const timestamp = header(req, HEADER.webhookTimestamp);
      const nowSeconds = Math.floor(now() / 1000);
      const check = verify(secret, { id: id ?? undefined, timestamp, signature: header(req, HEADER.webhookSignature) }, raw, nowSeconds);
      if (!check.ok) return reject(res, check.reason, verifyDetail(check.reason, nowSeconds, timestamp), id === null ? null : oneLine(id), false);
      verified = true;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(raw.toString('utf8'));
    } catch {
      return reject(res, 'malformed-json', 'body is not valid JSON', id === null ? null : oneLine(id), false);
    }
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
      return reject(res, 'not-an-object', 'body is JSON but not an object', id === null ? null : oneLine(id), false);
    }
    if (id !== null && seen.checkAndAdd(id)) {
      counts.duplicates++;
      emit('duplicate', { webhookId: id });
      return accept(res);
    }
    const p = payload as Record<string, unknown>;
    if ((platforms && !platforms.has(String(p.platform))) || (statuses && !statuses.has(String(p.status)))) {
      counts.filtered++;
      return accept(res);
    }
    counts.events++;
    emit('event', { payload: p, raw, webhookId: id, receivedAt: receivedAt(), verified, seq: counts.events });
    accept(res);
    if (forwarder) {
      const headers: Record<string, string> = { 'content-type': header(req, 'content-type') ?? 'application/json' };
      for (const name of [HEADER.webhookId, HEADER.webhookTimestamp, HEADER.webhookSignature]) {
        const v = header(req, name);
        if (v !== undefined) headers[name] = v;
      }
      forwarder.enqueue({ webhookId: id, body: raw, headers });
    }
  }

  // Slow bodies: one sweep over the bodies being read, oldest first (a Map keeps insertion
  // order), instead of a timer per request, which costs more than it looks under load.
  const readingSince = new Map<ServerResponse, number>();
  const sweep = setInterval(
    () => {
      const limit = Date.now() - bodyTimeoutMs;
      for (const [res, since] of readingSince) {
        if (since > limit) break;
        readingSince.delete(res);
        // A client that already hung up gets no answer and is not counted.
        if (!res.socket || res.socket.destroyed) continue;
        res.req.pause();
        reject(res, 'body-timeout', `body not received within ${bodyTimeoutMs} ms`, null, true);
      }
    },
    Math.max(10, Math.min(1000, Math.floor(bodyTimeoutMs / 4))),
  );
  sweep.unref();

  function handle(req: IncomingMessage, res: ServerResponse) {
    counts.requests++;
    try {
      const hostHeader = header(req, 'host');
      if (!hostAllowed(hostHeader)) {
        const shown = hostHeader === undefined ? 'no Host header' : `Host "${oneLine(hostHeader)}"`;
        return reject(res, 'forbidden-host', `${shown} is not this listener's loopback address (DNS-rebinding guard)`, null, true);
      }
      const url = req.url ?? '';
      const q = url.indexOf('?');
      const pathname = q < 0 ? url : url.slice(0, q);
      if (pathname !== path) return reject(res, 'not-found', `nothing at ${oneLine(pathname)}; deliveries go to ${path}`, null, true);
      if (req.method !== 'POST') return reject(res, 'method-not-allowed', `${oneLine(req.method ?? '?', 20)} is not allowed; deliveries are POST`, null, true, { allow: 'POST' });
      const declared = req.headers['content-length'];
      if (declared !== undefined && Number(declared) > maxBodyBytes) {
        return reject(res, 'body-too-large', `body of ${oneLine(declared, 20)} bytes is larger than ${maxBodyBytes}`, null, true);
      }
      readingSince.set(res, Date.now());
      readBody(req, maxBodyBytes, (result) => {
        // Gone from the map: the sweep already answered 408.
        if (!readingSince.delete(res)) return;
        try {
          onBody(req, res, result);
        } catch {
          reject(res, 'internal-error', 'internal error while handling the delivery', null, true);
        }
      });
    } catch {
      reject(res, 'internal-error', 'internal error while handling the request', null, true);
    }
  }

  const server = http.createServer(
    {
      headersTimeout: headersTimeoutMs,
      // Node's own whole-request limit is a backstop behind our body timer.
      requestTimeout: headersTimeoutMs + bodyTimeoutMs + 1000,
      // How often Node checks those timeouts; its default (30 s) would let short limits slip.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeoutMs / 2))),
      keepAliveTimeout: 5000,
    },
    handle,
  );

  // Malformed HTTP and slow headers: Node calls this instead of the handler.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || err.code === 'EPIPE' || !socket.writable) {
      socket.destroy();
      return;
    }
    const timeout = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const reason: RejectReason = timeout ? 'headers-timeout' : 'bad-request';
    const detail = timeout ? `request not received within ${headersTimeoutMs} ms` : 'malformed HTTP request';
    counts.rejectedTotal++;
    rejected[reason] = (rejected[reason] ?? 0) + 1;
    emit('rejected', { reason, status: REJECT_STATUS[reason], detail, webhookId: null });
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : timeout ? '408 Request Timeout' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-type: text/plain\r\ncontent-length: ${detail.length + 1}\r\n\r\n${detail}\n`, () => socket.destroy());
  });
  // Node calls this (not the handler) for an Expect header other than 100-continue.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    counts.requests++;
    reject(res, 'expectation-failed', 'only "Expect: 100-continue" is supported', null, true);
  });
  // A server-level error after start (rare: e.g. EMFILE on accept) must not crash the process.
  const onServerError = () => {};

  return new Promise<Listener>((resolve, rejectStart) => {
    const onStartError = (err: NodeJS.ErrnoException) => {
      clearInterval(sweep);
      const code = err.code ?? 'ERROR';
      const message =
        code === 'EADDRINUSE'
          ? `port ${port} on ${host} is already in use`
          : code === 'EACCES'
            ? `not allowed to listen on port ${port}`
            : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND'
              ? `cannot listen on ${host}: no such local address`
              : `cannot listen on ${host}:${port}: ${err.message}`;
      rejectStart(new ListenerStartError(message, code));
    };
    server.once('error', onStartError);
    server.listen(port, host, () => {
      server.off('error', onStartError);
      server.on('error', onServerError);
      const address = server.address();
      boundPort = typeof address === 'object' && address ? address.port : port;
      hostAllowed = hostGuard(host, boundPort);
      const url = `http://${urlHost(host)}:${boundPort}${path}`;
      let closing: Promise<void> | undefined;
      const listener = Object.assign(emitter, {
        url,
        port: boundPort,
        host,
        verifying: secret !== undefined,
        stats(): ListenerStats {
          return {
            requests: counts.requests,
            received: counts.events + counts.duplicates + counts.filtered,
            events: counts.events,
            duplicates: counts.duplicates,
            filtered: counts.filtered,
            rejected: { ...rejected },
            rejectedTotal: counts.rejectedTotal,
            forwarded: counts.forwarded,
            forwardFailed: counts.forwardFailed,
            forwardPending: forwarder?.pending ?? 0,
          };
        },
        close(): Promise<void> {
          return (closing ??= (async () => {
            clearInterval(sweep);
            const stopped = new Promise<void>((done) => server.close(() => done()));
            server.closeIdleConnections();
            if (forwarder) await forwarder.close(forwardTimeoutMs);
            server.closeAllConnections();
            await stopped;
          })());
        },
      }) as Listener;
      resolve(listener);
      // Emitted after the caller had a chance to subscribe to it.
      setImmediate(() => emit('ready', { url }));
    });
  });
}
