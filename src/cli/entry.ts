// The one module main.ts loads for every command but --version: the program runner and the
// real clock, bundled with everything they need statically.
import type { Io, OutStream } from './context.js';
import { fdWriter } from './fd-writer.js';

export { runProgram } from './run.js';
export { systemClock } from './create-context.js';

/**
 * The process's streams, created only when used: Node builds process.stdin (and stdout/stderr)
 * on first access, which costs milliseconds that `--help` and most commands never need.
 */
export function processIo(): Io {
  let stdout: OutStream | undefined;
  let stderr: OutStream | undefined;
  let guarded = false;
  // `socialpub … | head` closes the pipe early: that is the reader's choice, not an error.
  const readerGone = () => process.exit(process.exitCode ?? 0);
  const stdoutStream = (): OutStream => {
    if (!guarded) {
      guarded = true;
      process.stdout.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'EPIPE') readerGone();
        throw err;
      });
    }
    return process.stdout;
  };
  return {
    get stdout() {
      return (stdout ??= fdWriter(1, stdoutStream, readerGone) ?? stdoutStream());
    },
    get stderr() {
      // Nobody is left to tell when stderr's reader is gone: what follows is dropped.
      return (stderr ??= fdWriter(2, () => process.stderr, () => {}) ?? process.stderr);
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
