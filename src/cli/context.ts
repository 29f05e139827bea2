// The Context every command receives: streams, environment, clock, the Ctrl-C
// signal, parsed global flags, and lazy factories for config, the API client and the prompter.
// Command code never touches process.* directly, so tests can run it in-process.
import type { ApiClient, ClientOptions } from '../client/types.js';
import type { ProfileStore, ResolvedProfile } from '../config/types.js';
import type { Output } from '../output/output.js';
import type { Prompter } from './prompter.js';

export interface OutStream {
  write(chunk: string): boolean;
  isTTY?: boolean;
  columns?: number;
  once?(event: 'drain', listener: () => void): unknown;
}

export interface InStream extends NodeJS.ReadableStream {
  isTTY?: boolean;
}

export interface Io {
  stdout: OutStream;
  stderr: OutStream;
  stdin: InStream;
  /** stdin.isTTY, when it can be told without creating the stream (the real process). */
  readonly stdinIsTTY?: boolean;
  /** stdout is this process's own terminal, which a pager started as a child can take over. */
  readonly pageable?: boolean;
}

export interface Clock {
  now(): number;
  /** Resolves after ms, or rejects with an AbortError-like error when the signal fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** `ics` is a calendar: only lists of scheduled posts can be printed as one (output says so). */
export { FORMATS as OUTPUT_FORMATS, type Format as OutputFormat } from '../output/formats.js';
import type { Format as OutputFormat } from '../output/formats.js';

/** Global flags after parsing and defaults (`socialpub --help` lists them). */
export interface Globals {
  profile: string | undefined;
  baseUrl: string | undefined;
  format: OutputFormat;
  /** Whether the user chose the format (flag) or it follows the terminal. */
  formatExplicit: boolean;
  color: boolean;
  /** Prompts allowed: stdin and stdout are terminals, no --no-input, no CI. */
  interactive: boolean;
  timeoutMs: number;
  /** Whether --timeout was given (commands whose own wait it also bounds need to know). */
  timeoutGiven: boolean;
  maxRetries: number;
  /** Whether --max-retries was given: then writes retry that many times instead of for WRITE_RETRY.budgetMs. */
  maxRetriesGiven: boolean;
  /** --max-requests N: the most requests this run may send (the read budget's cap, when given). */
  maxRequests: number | undefined;
  /** --spend-budget: a large read may use more than half of what the rate limit has left, and its last tenth. */
  spendBudget: boolean;
  maxWaitMs: number;
  /** Whether --max-wait was given (a bulk run is more patient than the default otherwise). */
  maxWaitGiven: boolean;
  debug: boolean;
  quiet: boolean;
  /** --fields: dotted paths to keep, in order. */
  fields: string[] | undefined;
  /** --jq: the jq filter (compiled before any request). */
  jq: string | undefined;
  /** --arg NAME VALUE (repeatable): named string values the --jq filter sees as $NAME. */
  jqArgs: Record<string, string>;
  /** Long table output on a terminal goes through a pager (not with --no-pager). */
  pager: boolean;
}

export interface Context {
  readonly io: Io;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly clock: Clock;
  /** Fires on Ctrl-C. Long waits and requests listen to it. */
  readonly signal: AbortSignal;
  readonly version: string;
  /** Filled once the command line is parsed (before any action runs). */
  globals: Globals;
  output(): Output;
  config(): Promise<ProfileStore>;
  profile(): Promise<ResolvedProfile>;
  /** The API client for the resolved profile; fails with exit 3 when there is no key. */
  client(overrides?: Partial<ClientOptions>): Promise<ApiClient>;
  prompter(): Prompter;
  /** Debug trace line to stderr when --debug is on (callers redact nothing: the client does). */
  debug(line: string): void;
  /** Cleanup to run when the command ends (close servers, flush files). */
  onExit(fn: () => void | Promise<void>): void;
}
