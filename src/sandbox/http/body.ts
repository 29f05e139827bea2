// Request bodies with a ceiling: a declared Content-Length over it is refused before reading,
// and a chunked body stops being collected the moment it passes it, so an oversized upload
// never sits in memory. Past `keep` bytes the rest is counted, not kept: a large upload streams
// through in constant memory. A body that stops arriving (no byte for `idleMs`) ends as 'stalled',
// so a client that never finishes its upload cannot hold the connection.
import type { IncomingMessage } from 'node:http';

export type BodyResult = { ok: true; body: Buffer; size: number } | { ok: false; reason: 'too-large' | 'aborted' | 'stalled' };

/** `body` holds the first `keep` bytes (all of them by default); `size` counts every byte received. */
export function readBody(req: IncomingMessage, limit: number, idleMs: number, keep = limit): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ ok: false, reason: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let kept = 0;
    let timer: NodeJS.Timeout | undefined;
    // Refreshed, not replaced, on each chunk: a large upload arrives in tens of thousands of them.
    const idle = () => {
      if (timer) timer.refresh();
      else timer = setTimeout(() => done({ ok: false, reason: 'stalled' }), idleMs);
    };
    const done = (result: BodyResult) => {
      if (timer) clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      idle();
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        done({ ok: false, reason: 'too-large' });
        return;
      }
      if (kept < keep) {
        const part = kept + chunk.length <= keep ? chunk : chunk.subarray(0, keep - kept);
        chunks.push(part);
        kept += part.length;
      }
    };
    const onEnd = () => done({ ok: true, body: Buffer.concat(chunks, kept), size });
    const onAbort = () => done({ ok: false, reason: 'aborted' });
    const onClose = () => {
      if (!req.complete) onAbort();
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onClose);
    idle();
  });
}

/**
 * After refusing an oversized body: throw the rest away (never kept) so that the client, still
 * sending, can read the refusal; past `cap` further bytes the connection is cut instead.
 */
export function discardRest(req: IncomingMessage, cap: number): void {
  let seen = 0;
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > cap) req.socket.destroy();
  });
  req.resume();
}
