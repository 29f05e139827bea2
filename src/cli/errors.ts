// The one place that turns any error into an exit code and a message.
import { ApiError, isTooDeep, RateLimitError, TOO_DEEP_MESSAGE } from '../client/errors.js';
import { BudgetError } from '../client/budget.js';
import { CliError, EXIT, hintsAddedTo, type ExitCode } from './cli-error.js';
import { InvalidInputError, UnknownIdError } from '../wire/invalid-input.js';
import { FieldsError } from '../output/fields.js';
import { formatUntil } from '../output/time.js';
import { isLoopback } from '../config/base-url.js';
import { wrapProse } from '../output/wrap.js';
import { formatDuration } from '../client/retry-timing.js';
import { displayUrl } from '../client/redact.js';
import { jsonText, visible, visibleLine } from '../output/terminal-safe.js';
import { nearest } from '../wire/suggest.js';

export function exitCodeFor(err: unknown): ExitCode {
  if (err instanceof CliError) return err.exitCode;
  if (err instanceof InvalidInputError || err instanceof FieldsError) return EXIT.usage;
  if (err instanceof UnknownIdError) return EXIT.notFound;
  if (err instanceof ApiError) {
    switch (err.kind) {
      case 'bad-request':
      case 'validation':
      case 'idempotency-key-reused':
      case 'payload-too-large':
      case 'not-editable':
        return EXIT.usage;
      case 'auth':
      case 'addon-required':
        return EXIT.auth;
      case 'not-found':
        return EXIT.notFound;
      case 'rate-limited':
      case 'budget':
        return EXIT.rateLimited;
      case 'network':
      case 'timeout':
        return EXIT.network;
      case 'aborted':
        return EXIT.interrupted;
      case 'conflict':
      case 'unsupported':
      case 'server':
      case 'response-shape':
        return EXIT.error;
    }
  }
  if (isAbort(err)) return EXIT.interrupted;
  return EXIT.error;
}

export function isAbort(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'AbortedError' || err.name === 'ExitPromptError');
}

/** A refused key or a connection that failed: the hints depend on whether the base URL is a local sandbox. */
export function hintsNeedBaseUrl(err: unknown): boolean {
  return err instanceof ApiError && (err.kind === 'auth' || err.kind === 'network');
}

/** Hints that tell the user how to fix what went wrong (the error's own, then any a command added). */
export function hintsFor(err: unknown, now: number, profile?: string, baseUrl?: string): string[] {
  return [...ownHints(err, now, profile, baseUrl), ...hintsAddedTo(err)];
}

function ownHints(err: unknown, now: number, profile?: string, givenUrl?: string): string[] {
  // Hints quote the URL: never with the user:password@ it may carry.
  const baseUrl = givenUrl === undefined ? undefined : displayUrl(givenUrl);
  if (err instanceof FieldsError) {
    return err.unknown.flatMap((u) => {
      const near = nearest(u, err.available, Math.max(1, Math.floor(u.length / 3)));
      return near ? [`did you mean ${JSON.stringify(near)}? (for ${JSON.stringify(u)})`] : [];
    });
  }
  if (err instanceof CliError || err instanceof InvalidInputError || err instanceof UnknownIdError) return err.hints;
  if (!(err instanceof ApiError)) return [];
  const p = profile && profile !== 'default' ? ` --profile ${profile}` : '';
  // A loopback base URL is the local sandbox: its keys and its start-up are the fix, not the service's settings.
  const local = baseUrl !== undefined && isLoopback(baseUrl);
  switch (err.kind) {
    case 'auth':
      if (local) {
        return [
          `${baseUrl} is a local sandbox: its keys are new on every start (unless --seed or --data); the banner of \`socialpub sandbox\` prints the login line that reads its demo key`,
          'or start it with `socialpub sandbox --write-profile`, which saves the key as profile "sandbox"',
        ];
      }
      return [
        `run \`socialpub auth login${p}\` with a valid key, or set SOCIALPUB_API_KEY`,
        'a key suspected of leaking is rotated in the workspace settings under Developers',
      ];
    case 'addon-required':
      // The service's message usually names the fix already; one fix, said once.
      return err.message.includes('Billing → Add-ons') ? [] : ['the API is an add-on: buy it in the workspace settings under Billing → Add-ons (5 USD/month or 50 USD/year), then retry'];
    case 'budget':
      return err instanceof BudgetError ? [...err.cuts] : [];
    case 'rate-limited': {
      const limited = err instanceof RateLimitError ? err : undefined;
      // Point at the flag that was the limit: retries that ran out while the wait would have fitted
      // are not fixed by a longer --max-wait.
      const attempts = `${limited?.attempts ?? 1} attempt${limited?.attempts === 1 ? '' : 's'}`;
      const raise =
        limited?.stoppedBy === 'retries'
          ? `raise --max-retries (the client gave up after ${attempts}; the wait fits in --max-wait)`
          : limited?.stoppedBy === 'both'
            ? `raise --max-wait, and --max-retries (the client gave up after ${attempts})`
            : 'raise --max-wait';
      const retryAt = limited?.retryAt;
      if (retryAt === undefined) return [`wait a while before retrying, or ${raise}; the service limits each workspace's requests per hour (writes to 100)`];
      return [`retry after ${new Date(retryAt).toISOString()} (${formatUntil(retryAt, now)} local, in ${formatDuration(Math.max(0, retryAt - now))}), or ${raise}`];
    }
    case 'idempotency-key-reused':
      // The command adds the hint about a relative --at when --at was one.
      return ['an earlier request with this key already did its work, and nothing new was created now; use a new --idempotency-key for a different post'];
    case 'not-editable':
      return ['a post that went out stays as it is: `socialpub results retry <post-id>` sends its failed targets again, or create a new post'];
    case 'validation':
    case 'bad-request':
      return serviceIssueHints(err.issues);
    case 'network':
    case 'timeout':
      // Only a refused connection means nothing listens there (a reset or a cut-off answer came
      // from something), and only the service's own host is the sandbox (not an upload URL's).
      if (local && err.kind === 'network' && refused(err) && err.message.startsWith(`could not reach ${new URL(baseUrl).origin}:`)) return [`nothing answers at ${baseUrl}: start the local sandbox with \`socialpub sandbox\` (in another terminal), or check the base URL`];
      return ['check the base URL and your connection (`socialpub auth status`), or raise --timeout'];
    default:
      return [];
  }
}

/** Whether the connection was refused (ECONNREFUSED somewhere down the error's causes). */
/** A service's issues as hints: the first MAX_ISSUE_HINTS, and how many more there were (a hostile answer may hold thousands). */
export const MAX_ISSUE_HINTS = 20;
function serviceIssueHints(issues: ReadonlyArray<{ path: string; message: string }>): string[] {
  const shown = issues.slice(0, MAX_ISSUE_HINTS).map((i) => `${i.path}: ${i.message}`);
  const more = issues.length - shown.length;
  return more > 0 ? [...shown, `… and ${more} more issue${more === 1 ? '' : 's'} from the service, not shown`] : shown;
}

export function refused(err: Error): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if ((current as { code?: unknown }).code === 'ECONNREFUSED') return true;
    if (current instanceof AggregateError && current.errors.some((e) => (e as { code?: unknown }).code === 'ECONNREFUSED')) return true;
    current = current.cause;
  }
  return false;
}

/**
 * The hints printed with an error (`  hint: …`), in order: the error's own and any a command added,
 * less those the message already says. The JSON error object carries the same list as `hints`.
 */
export function shownHints(err: unknown, now: number, profile?: string, baseUrl?: string): string[] {
  return distinctHints(err instanceof Error ? err.message : String(err), hintsFor(err, now, profile, baseUrl));
}

/** Hints that add something: none that the message already says word for word, none twice. */
export function distinctHints(message: string, hints: readonly string[]): string[] {
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
  const said = norm(message);
  const seen = new Set<string>();
  return hints.filter((h) => {
    const n = norm(h);
    if (!n || said.includes(n) || seen.has(n)) return false;
    seen.add(n);
    return true;
  });
}

export interface ErrorSink {
  write(chunk: string): boolean;
}

export interface ReportOptions {
  stderr: ErrorSink;
  json: boolean;
  now: number;
  profile?: string;
  /** The base URL the command used, when known (a local sandbox gets its own hints). */
  baseUrl?: string;
  /** The terminal's width when stderr is one: lines wrap between words. */
  width?: number;
  red?: (s: string) => string;
  /** Running under GitHub Actions (GITHUB_ACTIONS=true): also an `::error::` annotation. */
  githubActions?: boolean;
}

/** A workflow command's data: GitHub reads %, CR and LF as escapes, so they are escaped first. */
export function escapeAnnotation(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * Under GitHub Actions (GITHUB_ACTIONS=true), one `::error::` line that the job's summary shows:
 * for an outcome that is not thrown (exit 7, some rows or targets failed) as for an error. The
 * text's line breaks are escaped, so nothing in it (the service's words included) starts a line.
 */
export function annotate(ctx: { env: Readonly<Record<string, string | undefined>>; io: { stderr: ErrorSink } }, text: string, title = 'socialpub'): void {
  if (ctx.env.GITHUB_ACTIONS === 'true') ctx.io.stderr.write(`::error title=${escapeProperty(title)}::${escapeAnnotation(visible(text))}\n`);
}

/** The error's own code (VALIDATION_ERROR, WAIT_TIMEOUT), when it has one. */
function errorCode(err: unknown): string | undefined {
  return err instanceof ApiError || err instanceof CliError ? err.code : undefined;
}

/** A property of a workflow command (title=): its data escapes, and the : and , that end it. */
function escapeProperty(text: string): string {
  return escapeAnnotation(visibleLine(text)).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * `error: …` plus hints and the request id on stderr; with --json also a JSON error object: the
 * contract's code, message, status and requestId, and (added) exitCode, retryAt when known, and
 * hints, the same fixes the human lines give ("did you mean", what to run), [] when there are none.
 */
export function reportError(given: unknown, options: ReportOptions): ExitCode {
  const err = isTooDeep(given) ? new CliError(TOO_DEEP_MESSAGE, { exitCode: EXIT.error, code: 'TOO_DEEP' }) : given;
  const code = exitCodeFor(err);
  const red = options.red ?? ((s: string) => s);
  const message = err instanceof Error ? err.message : String(err);
  // A long list of problems is cut for a person (one more line says how to list them all); the
  // JSON form below keeps every one, for scripts.
  const shownMessage = err instanceof InvalidInputError ? err.shownMessage : message;
  // The message, hints and request id may quote the server: its control characters are shown,
  // not obeyed (the JSON form below keeps them exact).
  const lines = [`${red('error:')} ${visible(shownMessage)}`];
  const hints = shownHints(err, options.now, options.profile, options.baseUrl);
  // A hint is one line of ours, whatever service text it quotes (a handle among the candidates):
  // a line break in that text is shown, so none of it starts a line of its own.
  for (const h of hints) lines.push(`  hint: ${visibleLine(h)}`);
  const requestId = err instanceof ApiError || err instanceof CliError ? err.requestId : undefined;
  if (requestId) lines.push(`  request id: ${visible(requestId)}`);
  // Interrupted, the error itself says nothing; what a command added does (a post that may have
  // been created, and the key to re-run with).
  if (code === EXIT.interrupted) lines.splice(0, lines.length, 'interrupted', ...hintsAddedTo(err).map((h) => `  hint: ${visibleLine(h)}`));
  options.stderr.write(wrapProse(lines.join('\n'), options.width) + '\n');
  if (options.githubActions && code !== EXIT.interrupted) {
    // One line, shown on the job's summary: the message, its hints and the request id.
    const text = [shownMessage, ...hints.map((h) => `hint: ${h}`), ...(requestId ? [`request id: ${requestId}`] : [])].join('\n');
    options.stderr.write(`::error title=${escapeProperty(`socialpub: exit ${code}${errorCode(err) ? ` ${errorCode(err)}` : ''}`)}::${escapeAnnotation(visible(text))}\n`);
  }
  if (options.json && code !== EXIT.interrupted) {
    const apiCode = err instanceof ApiError || err instanceof CliError || err instanceof InvalidInputError || err instanceof UnknownIdError ? err.code : undefined;
    const status = err instanceof ApiError || err instanceof CliError ? err.status : undefined;
    const retryAt = (err instanceof RateLimitError || err instanceof BudgetError) && err.retryAt !== undefined ? { retryAt: new Date(err.retryAt).toISOString() } : {};
    options.stderr.write(jsonText({ error: { code: apiCode ?? (code === EXIT.usage ? 'USAGE' : 'ERROR'), message, status: status ?? null, requestId: requestId ?? null, exitCode: code, ...retryAt, hints } }) + '\n');
  }
  return code;
}
