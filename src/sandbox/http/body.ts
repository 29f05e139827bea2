// Request bodies with a ceiling: a declared Content-Length over it is refused before reading,
// and a chunked body stops being collected the moment it passes it, so an oversized upload
// never sits in memory. Past `keep` bytes the rest is counted, not kept: a large upload streams
// through in constant memory. A body that stops arriving (no byte for `idleMs`) ends as 'stalled',
// so a client that never finishes its upload cannot hold the connection. A JSON body's nesting
// is measured too (tooDeep).
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export type BodyResult = { ok: true; body: Buffer; size: number; sha256?: string } | { ok: false; reason: 'too-large' | 'aborted' | 'stalled' };

/**
 * `body` holds the first `keep` bytes (all of them by default); `size` counts every byte received;
 * with `digest`, `sha256` is the hex SHA-256 of every byte, kept or only counted.
 */
export function readBody(req: IncomingMessage, limit: number, idleMs: number, keep = limit, digest = false): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ ok: false, reason: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const hash = digest ? createHash('sha256') : undefined;
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
      hash?.update(chunk);
      if (kept < keep) {
        const part = kept + chunk.length <= keep ? chunk : chunk.subarray(0, keep - kept);
        chunks.push(part);
        kept += part.length;
      }
    };
    const onEnd = () => done({ ok: true, body: Buffer.concat(chunks, kept), size, ...(hash ? { sha256: hash.digest('hex') } : {}) });
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

// How deep a JSON text nests, found by scanning its bytes (no parse, no recursion): JSON.parse
// accepts 5,000 levels that JSON.stringify then cannot write back, so a body nested past the
// limit is refused before anything of it is stored.
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether the text nests objects and arrays deeper than `max` (strings are skipped). */
export function tooDeep(text: Uint8Array, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}
