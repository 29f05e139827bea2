// The two ways a request ends: accepted (204, no body) or turned away with a status and a
// one-line reason, each counted and reported as a 'rejected' event.
import type { ServerResponse } from 'node:http';
import type { Counters } from './counters.js';
import { REJECT_STATUS } from './reasons.js';
import type { Emit } from './safe-emit.js';
import type { RejectReason } from './types.js';

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
