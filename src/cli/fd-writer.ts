// stdout or stderr when it is a pipe or a file: written with writeSync on the descriptor. Node's
// own streams for pipes and files are synchronous on Linux and macOS too, but creating one loads
// net, stream and tty (about 4 ms of a start-up that is 30); a terminal keeps the real stream.
import { fstatSync, writeSync } from 'node:fs';
import type { OutStream } from './context.js';

/** A writer for fd, or undefined when fd is a terminal (or any character device), closed, or on Windows. */
export function fdWriter(fd: number, fallback: () => OutStream, onClosed: () => void): OutStream | undefined {
  // Windows pipes are not written this way (libuv's stream handles them).
  if (process.platform === 'win32') return undefined;
  try {
    if (fstatSync(fd).isCharacterDevice()) return undefined;
  } catch {
    return undefined;
  }
  // Once the descriptor answers EAGAIN (a non-blocking pipe shared with a parent), the rest goes
  // through the stream, which waits for the reader; everything before it was written in order.
  let stream: OutStream | undefined;
  return {
    isTTY: false,
    write(chunk: string): boolean {
      if (stream) return stream.write(chunk);
      const bytes = Buffer.from(chunk);
      let done = 0;
      while (done < bytes.length) {
        try {
          done += writeSync(fd, bytes, done);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          // The reader left (`socialpub … | head`): its choice, not an error.
          if (code === 'EPIPE') {
            onClosed();
            return true;
          }
          if (code !== 'EAGAIN') throw err;
          stream = fallback();
          return stream.write(bytes.subarray(done).toString());
        }
      }
      return true;
    },
    once(event: 'drain', listener: () => void) {
      if (stream?.once) stream.once(event, listener);
      else queueMicrotask(listener);
      return this;
    },
  };
}
