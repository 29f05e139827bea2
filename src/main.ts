// Composition root: builds the real Context and runs the program.
import type { ContextDeps } from './cli/create-context.js';

export async function main(argv: string[], deps: Partial<ContextDeps> = {}): Promise<number> {
  const { runProgram, systemClock, processIo, VERSION } = await import('./cli/entry.js');
  let controller: AbortController | undefined;
  let onSigint: (() => void) | undefined;
  let onSigterm: (() => void) | undefined;
  let onSighup: (() => void) | undefined;
  // Shells report death by signal N as 128 + N: Ctrl-C (SIGINT) 130, a CI cancel (SIGTERM) 143,
  // a closed terminal (SIGHUP) 129.
  let signalled: 129 | 130 | 143 | undefined;
  if (!deps.signal) {
    controller = new AbortController();
    // The first signal aborts waits and requests, so servers close and state files flush; a
    // second one exits at once.
    const stop = (code: 129 | 130 | 143) => () => {
      if (controller!.signal.aborted) process.exit(signalled ?? code);
      signalled = code;
      controller!.abort();
    };
    onSigint = stop(130);
    onSigterm = stop(143);
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigterm);
    // A closed terminal ends the command as SIGTERM does (a sandbox removes its key file). Node
    // resets an ignored SIGHUP (nohup) at start, so this takes nothing away from nohup.
    onSighup = stop(129);
    process.on('SIGHUP', onSighup);
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
    // The command ended as interrupted; SIGTERM and SIGHUP say so with their own codes.
    return code === 130 && signalled !== undefined ? signalled : code;
  } finally {
    if (onSigint) process.off('SIGINT', onSigint);
    if (onSigterm) process.off('SIGTERM', onSigterm);
    if (onSighup) process.off('SIGHUP', onSighup);
  }
}
