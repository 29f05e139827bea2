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
  return {
    get stdout() {
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
  };
}
