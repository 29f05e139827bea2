// `socialpub listen` started in-process, and the moment it is ready: its own ready line on stderr
// ("Listening for webhook deliveries on URL"), written once the port accepts connections. No
// polling of the port with a deadline: a loaded machine that takes seconds to start the command
// still gets there, and a command that ends before it is ready fails the wait at once, with its
// output.
import { runCli, type RunOptions, type RunResult } from './run-cli.js';

// Matched on the text without colour, across a line break (a narrow terminal wraps the line).
const READY = /Listening\s+for\s+webhook\s+deliveries\s+on\s+(\S+)/;

export interface RunningListen {
  /** The URL the listener announced. */
  ready: Promise<string>;
  /** The command's end. */
  done: Promise<RunResult>;
}

export function startListenCli(argv: string[], options: RunOptions = {}): RunningListen {
  let seen = '';
  let announced: (url: string) => void = () => {};
  const ready = new Promise<string>((resolve) => (announced = resolve));
  const done = runCli(['listen', ...argv], {
    ...options,
    onStderr: (text) => {
      options.onStderr?.(text);
      seen += text;
      const m = READY.exec(seen.replace(/\u001b\[[0-9;]*m/g, ''));
      if (m) announced(m[1]!);
    },
  });
  const ended = done.then((r) => {
    throw new Error(`listen ended (exit ${r.code}) before it was ready:\n${r.stderr}`);
  });
  return { ready: Promise.race([ready, ended]), done };
}
