// Reads a request body under a byte cap counted as the bytes stream in, so a body without
// Content-Length, or one that lies about it, is stopped at the cap without being buffered
// whole. Deliberately lean (two listeners, no timer, no promise): it runs once per delivery
// and is on the hot path. The deadline for slow bodies is enforced by the listener's sweep, and
// a client that disconnects mid-body simply never calls back; everything is then collected
// with the request.
import type { IncomingMessage } from 'node:http';

export type BodyResult = { ok: true; body: Buffer } | { ok: false; reason: 'body-too-large' };

const EMPTY = Buffer.alloc(0);

export function readBody(req: IncomingMessage, maxBytes: number, done: (result: BodyResult) => void): void {
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  let size = 0;
  let over = false;
  req.on('data', (chunk: Buffer) => {
    if (over) return;
    size += chunk.length;
    if (size > maxBytes) {
      over = true;
      // Stop reading; the listener answers 413 and closes the connection.
      req.pause();
      done({ ok: false, reason: 'body-too-large' });
      return;
    }
    if (first === undefined) first = chunk;
    else (more ??= [first]).push(chunk);
  });
  req.on('end', () => {
    if (!over) done({ ok: true, body: more ? Buffer.concat(more, size) : (first ?? EMPTY) });
  });
}
