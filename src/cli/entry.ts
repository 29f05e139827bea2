// The one module main.ts loads: the program runner, the real clock and the process's streams,
// bundled with everything they need statically.
import type { Io } from './context.js';

export { runProgram } from './run.js';
export { VERSION } from '../version.js';
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
    // Whether stdin is a terminal, without creating the stream (or loading tty before it is asked).
    get stdinIsTTY() {
      return process.getBuiltinModule('node:tty').isatty(0);
    },
    pageable: true,
  };
}
