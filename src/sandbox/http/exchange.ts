// One request/response pair on its way through the pipeline, and the ways it can end: a JSON
// response (with Request-Id and the RateLimit headers of its window, after the configured
// latency) or a cut connection (chaos). Every ending writes the request log entry.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_CODE, HEADER } from '../../wire/protocol.js';
import type { Dialect } from '../../wire/dialects.js';
import type { Fault } from '../chaos.js';
import type { SandboxCore } from '../core.js';
import type { RollingWindow } from '../rate-limit.js';
import type { RequestLogEntry } from '../types.js';
import { StorageError } from '../db/errors.js';
import { errorBody, HttpError, storageHttpError } from './reply.js';
import { spErrorBody } from '../syncpostly/dialect.js';

export interface Exchange {
  core: SandboxCore;
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  /** Whose answers: this contract's, or SyncPostly's (by the path, syncpostly/dialect.ts). */
  dialect: Dialect;
  entry: RequestLogEntry;
  window: RollingWindow | undefined;
  delayed: boolean;
  fault: Fault | undefined;
}

export function rateLimited(x: Exchange, window: RollingWindow, kind: 'read' | 'write' | 'unauthenticated'): HttpError {
  const seconds = window.retryAfterSeconds(x.core.clock.now());
  const what = kind === 'unauthenticated' ? 'rate limit for requests without a valid key' : `${kind} rate limit`;
  return new HttpError(429, ERROR_CODE.rateLimited, `${what} of ${window.limit} requests per hour reached; retry in ${seconds} s`, undefined, {
    [HEADER.retryAfter]: String(seconds),
  });
}

/** A request refused after it counted against the window. */
export function counted(x: Exchange, err: HttpError): Promise<void> {
  x.window?.take(x.core.clock.now());
  return sendError(x, err);
}

export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export async function delayOnce(x: Exchange): Promise<void> {
  if (x.delayed) return;
  x.delayed = true;
  await x.core.clockDelay(x.core.config.latencyMs);
}

/** The error body of the request's dialect. */
function errorText(x: Exchange, err: HttpError): string {
  return JSON.stringify(x.dialect === 'syncpostly' ? spErrorBody(err) : errorBody(err.code, err.message, x.requestId, err.issues));
}

export function sendError(x: Exchange, err: HttpError): Promise<void> {
  return send(x, err.status, errorText(x, err), err.headers);
}

export async function send(x: Exchange, status: number, text: string, headers: Record<string, string> = {}): Promise<void> {
  await delayOnce(x);
  // Nothing is answered before the changes it may reveal (and the write it counts) are committed.
  const committed = x.core.store.committed();
  if (committed) {
    try {
      await committed;
    } catch (err) {
      if (!(err instanceof StorageError)) throw err;
      const e = storageHttpError(err);
      status = e.status;
      text = errorText(x, e);
      headers = {};
    }
  }
  const { res } = x;
  if (res.destroyed || res.headersSent) return;
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  if (status === 429) res.setHeader(HEADER.rateLimitRemaining, '0');
  finish(x, status);
  res.end(text);
}

/** Request-Id and RateLimit headers, and the log entry. */
export function finish(x: Exchange, status: number): void {
  const { res, core } = x;
  const now = core.clock.now();
  res.setHeader(HEADER.requestId, x.requestId);
  if (x.window) {
    res.setHeader(HEADER.rateLimitLimit, String(x.window.limit));
    if (!res.hasHeader(HEADER.rateLimitRemaining)) res.setHeader(HEADER.rateLimitRemaining, String(x.window.remaining(now)));
    res.setHeader(HEADER.rateLimitReset, String(x.fault === 'rate-limited' ? 1 : x.window.resetSeconds(now)));
  }
  x.entry.status = status;
  x.entry.at = now;
  core.log(x.entry);
}

export function cut(x: Exchange): void {
  x.entry.status = 0;
  x.entry.at = x.core.clock.now();
  x.core.log(x.entry);
  x.req.socket.destroy();
}
