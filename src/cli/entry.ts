// The one module main.ts loads for every command but --version: the program runner and the
// real clock, bundled with everything they need statically.
import { isatty } from 'node:tty';
import type { Io } from './context.js';

export { runProgram } from './run.js';
export { systemClock } from './create-context.js';

/**
 * The process's streams, created only when used: Node builds process.stdin (and stdout/stderr)
 * on first access, which costs milliseconds that `--help` and most commands never need.
 */
export function processIo(): Io {
  let guarded = false;
  return {
    get stdout() {
      if (!guarded) {
        guarded = true;
        // `socialpub … | head` closes the pipe early: that is the reader's choice, not an error.
        process.stdout.on('error', (err: NodeJS.ErrnoException) => {
          if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
          throw err;
        });
      }
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    // Whether stdin is a terminal, without creating the stream.
    get stdinIsTTY() {
      return isatty(0);
    },
    pageable: true,
  };
}
