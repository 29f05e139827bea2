// Runs the CLI in-process with captured streams, a temporary config folder and a clean env.
import { StringDecoder } from 'node:string_decoder';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { main } from '../../src/main.js';
import type { Clock } from '../../src/cli/context.js';
import type { Prompter } from '../../src/cli/prompter.js';
import type { Keyring } from '../../src/config/types.js';

export interface CapturedStream extends PassThrough {
  isTTY?: boolean;
  columns?: number;
  text(): string;
}

export function captureStream(isTTY = false, columns = 120): CapturedStream {
  const s = new PassThrough() as CapturedStream;
  const chunks: string[] = [];
  // As a terminal or file takes it: bytes written in pieces may cut a character in two.
  const decoder = new StringDecoder('utf8');
  s.on('data', (c: Buffer | string) => chunks.push(typeof c === 'string' ? c : decoder.write(c)));
  s.isTTY = isTTY;
  s.columns = columns;
  // What a spinner on a terminal calls (tty.WriteStream's); written as nothing.
  if (isTTY) Object.assign(s, { cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
  s.text = () => chunks.join('');
  return s;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  /** Pretend stdin/stdout/stderr are terminals. */
  tty?: boolean;
  /** Width of the pretend terminal (default 120). */
  columns?: number;
  configDir?: string;
  clock?: Clock;
  signal?: AbortSignal;
  prompter?: Prompter;
  /** The system credential store the run sees; default none, so no test touches the real one. */
  keyring?: Keyring | null;
  /** Told each piece of stdout as it is written (while the command still runs). */
  onStdout?: (text: string) => void;
  /** Told each piece of stderr as it is written (while the command still runs). */
  onStderr?: (text: string) => void;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  configDir: string;
}

/** A throwaway config folder, removed by the returned cleanup. */
export function tempConfigDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'socialpub-test-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function runCli(argv: string[], options: RunOptions = {}): Promise<RunResult> {
  const stdout = captureStream(options.tty, options.columns);
  const stderr = captureStream(options.tty, options.columns);
  const onStdout = options.onStdout;
  if (onStdout) stdout.on('data', (c: Buffer | string) => onStdout(c.toString()));
  const onStderr = options.onStderr;
  if (onStderr) stderr.on('data', (c: Buffer | string) => onStderr(c.toString()));
  const stdin = Readable.from(options.stdin === undefined ? [] : [options.stdin]) as Readable & { isTTY?: boolean };
  stdin.isTTY = options.tty ?? false;
  const configDir = options.configDir ?? tempConfigDir().dir;
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: join(configDir, 'home'),
    SOCIALPUB_CONFIG_DIR: configDir,
    NO_COLOR: options.tty ? undefined : '1',
    ...options.env,
  };
  const code = await main(argv, {
    io: { stdout, stderr, stdin },
    env,
    ...(options.clock ? { clock: options.clock } : {}),
    signal: options.signal ?? new AbortController().signal,
    ...(options.prompter ? { prompter: options.prompter } : {}),
    keyring: options.keyring ?? null,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text(), configDir };
}
