// How each outcome leaves the engine: an event for the consumers (emitted so that a consumer's
// exception cannot escape into the request handler) and, for a request, the HTTP answer:
// accepted (204, no body) or turned away with a status and a one-line reason, each counted and
// reported as a 'rejected' event.
import type { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { VerifyFailure } from '../wire/webhook-signing.js';
import type { Counters } from './bookkeeping.js';
import type { ListenerEvents, RejectReason } from './types.js';

export const REJECT_STATUS: Record<RejectReason, number> = {
  'forbidden-host': 403,
  'browser-request': 403,
  'not-found': 404,
  'method-not-allowed': 405,
  'body-too-large': 413,
  'headers-timeout': 408,
  'body-timeout': 408,
  'bad-request': 400,
  'expectation-failed': 417,
  'missing-headers': 401,
  'bad-timestamp': 401,
  'timestamp-too-old': 401,
  'timestamp-too-new': 401,
  'no-matching-signature': 401,
  'malformed-json': 400,
  'not-an-object': 400,
  'internal-error': 500,
};

/** Short labels for summaries ("rejected 3: bad signature 2, wrong method 1"). */
export const REJECT_LABEL: Record<RejectReason, string> = {
  'forbidden-host': 'foreign Host header',
  'browser-request': 'browser request',
  'not-found': 'wrong path',
  'method-not-allowed': 'not POST',
  'body-too-large': 'body too large',
  'headers-timeout': 'headers too slow',
  'body-timeout': 'body too slow',
  'bad-request': 'malformed HTTP',
  'expectation-failed': 'unsupported Expect',
  'missing-headers': 'missing signature headers',
  'bad-timestamp': 'bad timestamp',
  'timestamp-too-old': 'timestamp too old',
  'timestamp-too-new': 'timestamp in the future',
  'no-matching-signature': 'bad signature',
  'malformed-json': 'malformed JSON',
  'not-an-object': 'not a JSON object',
  'internal-error': 'internal error',
};

export function verifyDetail(reason: VerifyFailure, nowSeconds: number, timestamp: string | undefined): string {
  switch (reason) {
    case 'missing-headers':
      return 'missing webhook-id, webhook-timestamp or webhook-signature header';
    case 'bad-timestamp':
      return 'webhook-timestamp is not a number of seconds';
    case 'timestamp-too-old':
      return `webhook-timestamp is ${Number(timestamp) > 0 ? nowSeconds - Number(timestamp) : '?'} s old (more than 5 min): a replay, or this machine's clock is wrong`;
    case 'timestamp-too-new':
      return `webhook-timestamp is ${Number(timestamp) - nowSeconds} s in the future (more than 5 min): check the clocks`;
    case 'no-matching-signature':
      return 'no v1 signature matches: wrong secret, or the body was altered';
  }
}

export type Reject = (res: ServerResponse, reason: RejectReason, detail: string, webhookId: string | null, close: boolean, extra?: Record<string, string>) => void;

export function accept(res: ServerResponse): void {
  res.writeHead(204);
  res.end();
}

/** Counts and reports a rejection that has no response object (malformed HTTP, slow headers). */
export function reportRejected(counters: Counters, emit: Emit, reason: RejectReason, detail: string): void {
  counters.countRejected(reason);
  emit('rejected', { reason, status: REJECT_STATUS[reason], detail, webhookId: null });
}

export function rejecter(counters: Counters, emit: Emit): Reject {
  return (res, reason, detail, webhookId, close, extra) => {
    counters.countRejected(reason);
    const status = REJECT_STATUS[reason];
    emit('rejected', { reason, status, detail, webhookId });
    if (res.headersSent || res.destroyed) return;
    const body = `${detail}\n`;
    const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), ...extra };
    // A body we did not read is not drained: the connection is closed instead.
    if (close) headers.connection = 'close';
    res.writeHead(status, headers);
    res.end(body);
  };
}

export type Emit = <K extends Exclude<keyof ListenerEvents, 'error'>>(name: K, arg: ListenerEvents[K][0]) => void;

/**
 * Hands events to the listener's consumers without letting a consumer's exception escape into
 * the request handler (it would turn into a 500 for the sender, or stop the forward queue).
 * The exception is not swallowed, though: a renderer bug would otherwise drop events without a
 * word. It is re-emitted as 'error' when someone listens for that (the `listen` command stops
 * and reports it), and otherwise thrown on the next tick, where it fails loudly like any bug.
 */
export function safeEmitter(emitter: EventEmitter<ListenerEvents>): Emit {
  const raise = (err: unknown) => {
    const error = err instanceof Error ? err : new Error(String(err));
    if (emitter.listenerCount('error') === 0) {
      process.nextTick(() => {
        throw error;
      });
      return;
    }
    try {
      emitter.emit('error', error);
    } catch (again) {
      // The error handler itself failed: nothing is left to report to but the process.
      process.nextTick(() => {
        throw again;
      });
    }
  };
  return (name, arg) => {
    try {
      (emitter.emit as (n: typeof name, a: typeof arg) => boolean)(name, arg);
    } catch (err) {
      raise(err);
    }
  };
}
