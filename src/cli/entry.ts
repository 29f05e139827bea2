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
  let stdin: Io['stdin'] | undefined;
  const lazyStdin = new Proxy({} as Io['stdin'], {
    get(_target, key) {
      if (key === 'isTTY' && !stdin) return isatty(0);
      stdin ??= process.stdin;
      const value = Reflect.get(stdin, key, stdin) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(stdin) : value;
    },
  });
  return {
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
    stdin: lazyStdin,
  };
}

