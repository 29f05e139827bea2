// Composition root: builds the real Context and runs the program.
import type { ContextDeps } from './cli/create-context.js';

/** Kept in step with package.json by a unit test; a constant so `--version` reads no file. */
export const VERSION = '0.1.0';

export async function main(argv: string[], deps: Partial<ContextDeps> = {}): Promise<number> {
  const { runProgram, systemClock, processIo } = await import('./cli/entry.js');
  let controller: AbortController | undefined;
  let onSigint: (() => void) | undefined;
  if (!deps.signal) {
    controller = new AbortController();
    // First Ctrl-C (or a SIGTERM) aborts waits and requests, so servers close and state files
    // flush (exit 130); a second one exits at once.
    onSigint = () => {
      if (controller!.signal.aborted) process.exit(130);
      controller!.abort();
    };
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigint);
  }
  try {
    return await runProgram(argv, {
      io: deps.io ?? processIo(),
      env: deps.env ?? process.env,
      clock: deps.clock ?? systemClock,
      signal: deps.signal ?? controller!.signal,
      version: deps.version ?? VERSION,
      ...(deps.prompter ? { prompter: deps.prompter } : {}),
      ...(deps.keyring !== undefined ? { keyring: deps.keyring } : {}),
    });
  } finally {
    if (onSigint) {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigint);
    }
  }
}
