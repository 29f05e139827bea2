// Exit codes, a public interface (scripts branch on them) that only ever grows, and
// the errors the CLI raises itself. One module, since every error carries its exit code (and one
// file less to load on start-up).

export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  rateLimited: 5,
  network: 6,
  partial: 7,
  gaveUp: 8,
  hungUp: 129,
  interrupted: 130,
  terminated: 143,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODE_HELP: ReadonlyArray<[number, string]> = [
  [EXIT.ok, 'success (an empty list too)'],
  [EXIT.error, 'unexpected error, or the server failed (5xx) after retries'],
  [EXIT.usage, 'usage or invalid input: bad flag, bad value, 400 or 422 from the server; nothing was sent when the client could tell first'],
  [EXIT.auth, 'authentication: no key, 401, 403 (ADDON_REQUIRED); the message says how to fix it'],
  [EXIT.notFound, 'not found (404)'],
  [EXIT.rateLimited, "rate limited beyond --max-retries / --max-wait, or stopped by this run's read budget (--max-requests, a large read, the read limit's last tenth); the message says when to retry or how to cut the cost"],
  [EXIT.network, 'network failure or timeout after retries'],
  [EXIT.partial, 'partial failure: some items or some targets failed (bulk schedule, results wait)'],
  [EXIT.gaveUp, 'gave up waiting: `results wait --timeout` passed with targets still unreported (the posts are unaffected)'],
  [EXIT.hungUp, 'hung up (SIGHUP: the terminal was closed); what was open is closed as for SIGTERM'],
  [EXIT.interrupted, 'interrupted (Ctrl-C, SIGINT)'],
  [EXIT.terminated, 'terminated (SIGTERM, as CI cancels a job)'],
];

// Errors the CLI raises itself (bad flags, missing values, local validation). They carry their
// exit code and hints; the field they name is part of the message.

export class CliError extends Error {
  readonly exitCode: ExitCode;
  readonly hints: string[];
  readonly code: string | undefined;
  /** Set when the error restates an API answer (e.g. a refused key at login), for the report. */
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  constructor(message: string, options: { exitCode?: ExitCode; hints?: string[]; code?: string; status?: number; requestId?: string } = {}) {
    super(message);
    this.name = 'CliError';
    this.exitCode = options.exitCode ?? EXIT.error;
    this.hints = options.hints ?? [];
    this.code = options.code;
    this.status = options.status;
    this.requestId = options.requestId;
  }
}

/** Invalid input caught before any request: exit 2. */
export class UsageError extends CliError {
  constructor(message: string, hints: string[] = [], code = 'USAGE') {
    super(message, { exitCode: EXIT.usage, hints, code });
    this.name = 'UsageError';
  }
}

const addedHints = new WeakMap<object, string[]>();

/**
 * Hints a command adds to an error it did not raise (an API error it knows more about: the key
 * to re-run with, a relative --at); the error itself, its exit code and its JSON stay as they are.
 */
export function addHints<E>(err: E, hints: readonly string[]): E {
  if (typeof err === 'object' && err !== null) addedHints.set(err, [...(addedHints.get(err) ?? []), ...hints]);
  return err;
}

export function hintsAddedTo(err: unknown): readonly string[] {
  return typeof err === 'object' && err !== null ? (addedHints.get(err) ?? []) : [];
}

/**
 * No key for the profile a command needs (exit 3), with the ways to give one. `env` is the
 * environment: a SOCIALPUB_API_KEY that is set but blank is what a CI secret the job cannot see
 * expands to, and "set SOCIALPUB_API_KEY" would send that user looking in the wrong place.
 */
export function noApiKeyError(profile: string, problem?: string, env: Readonly<Record<string, string | undefined>> = {}): CliError {
  const flag = profile === 'default' ? '' : ` --profile ${profile}`;
  const blank = env.SOCIALPUB_API_KEY !== undefined && env.SOCIALPUB_API_KEY.trim() === '';
  return new CliError(problem ? `no usable API key for profile "${profile}": ${problem}` : `no API key for profile "${profile}"`, {
    exitCode: EXIT.auth,
    code: 'NO_API_KEY',
    hints: [
      ...(blank
        ? [
            'SOCIALPUB_API_KEY is set but empty: in CI a secret the job cannot see expands to an empty string (a misspelt secret name, a secret of an environment the job does not name, a pull request from a fork); check where the variable is set',
          ]
        : []),
      `run \`socialpub auth login${flag}\`, or set SOCIALPUB_API_KEY for one run`,
      ...(problem ? [`\`socialpub auth login${flag} --insecure-storage\` keeps the key in the 0600 config file instead`] : []),
    ],
  });
}
