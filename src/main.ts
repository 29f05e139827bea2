// Composition root: builds the real Context and runs the program.
import type { ContextDeps } from './cli/create-context.js';

/** Kept in step with package.json by a unit test; a constant so `--version` reads no file. */
export const VERSION = '0.1.0';

export async function main(argv: string[], deps: Partial<ContextDeps> = {}): Promise<number> {
  const { runProgram, systemClock, processIo } = await import('./cli/entry.js');
  let controller: AbortController | undefined;
  let onSigint: (() => void) | undefined;
  let onSigterm: (() => void) | undefined;
  // The exit code a signal ends the command with: 130 after Ctrl-C, 143 after SIGTERM (128 + its
  // number, as shells report a process a signal ended), so a CI runner can tell them apart.
  let signalled: 130 | 143 | undefined;
  if (!deps.signal) {
    controller = new AbortController();
    // The first signal aborts waits and requests, so servers close and state files flush; a
    // second one exits at once.
    const stop = (code: 130 | 143) => {
      if (controller!.signal.aborted) process.exit(code);
      signalled = code;
      controller!.abort();
    };
    onSigint = () => stop(130);
    onSigterm = () => stop(143);
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigterm);
  }
  try {
    const code = await runProgram(argv, {
      io: deps.io ?? processIo(),
      env: deps.env ?? process.env,
      clock: deps.clock ?? systemClock,
      signal: deps.signal ?? controller!.signal,
      version: deps.version ?? VERSION,
      ...(deps.prompter ? { prompter: deps.prompter } : {}),
      ...(deps.keyring !== undefined ? { keyring: deps.keyring } : {}),
    });
    return code === 130 && signalled === 143 ? 143 : code;
  } finally {
    if (onSigint) process.off('SIGINT', onSigint);
    if (onSigterm) process.off('SIGTERM', onSigterm);
  }
}
