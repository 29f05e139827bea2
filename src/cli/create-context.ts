// Builds the real Context (tests build it too, with their own streams and env).
import type { ApiClient, ClientOptions } from '../client/types.js';
import type { RequestBudget } from '../client/budget.js';
import type { Heartbeat } from '../output/heartbeat.js';
import { configDir } from '../config/paths.js';
import { openProfileStore } from '../config/store.js';
import type { Keyring, ProfileStore, ResolvedProfile } from '../config/types.js';
import type { Output } from '../output/output.js';
import type * as OutputModule from '../output/output.js';
import type { JqProgram } from '../output/jq.js';
import type { Colors } from '../output/colors.js';
import { visible } from '../output/terminal-safe.js';
import { EXIT, noApiKeyError, UsageError } from './cli-error.js';
import { baseUrlProblem, rootOfApiUrl } from '../config/base-url.js';
import { displayUrl } from '../client/redact.js';
import type { Clock, Context, Globals, Io } from './context.js';
import { inquirerPrompter, type Prompter } from './prompter.js';
import { CLIENT_DEFAULTS, formatDuration, WRITE_RETRY } from '../client/retry-timing.js';

/** Waits longer than this between attempts are announced on stderr, not only under --debug. */
const LONG_WAIT_MS = 10_000;

export interface ContextDeps {
  io: Io;
  env: Readonly<Record<string, string | undefined>>;
  clock: Clock;
  signal: AbortSignal;
  version: string;
  prompter?: Prompter;
  /** The system's credential store; tests pass a fake, or null for none. */
  keyring?: Keyring | null;
}

/**
 * The real clock. Its sleep is the client's (one implementation, so Ctrl-C ends every wait the
 * same way), loaded on first use: `--help` never sleeps and must not load the client's errors.
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: async (ms, signal) => (await import('../client/wait.js')).timerSleep(ms, signal),
};

export const DEFAULT_GLOBALS: Globals = {
  profile: undefined,
  baseUrl: undefined,
  format: 'tsv',
  formatExplicit: false,
  color: false,
  interactive: false,
  timeoutMs: CLIENT_DEFAULTS.timeoutMs,
  timeoutGiven: false,
  maxRetries: CLIENT_DEFAULTS.maxRetries,
  maxRetriesGiven: false,
  maxRequests: undefined,
  spendBudget: false,
  maxWaitMs: CLIENT_DEFAULTS.maxWaitMs,
  maxWaitGiven: false,
  debug: false,
  quiet: false,
  fields: undefined,
  jq: undefined,
  jqArgs: {},
  pager: false,
};

export interface ContextInternals extends Context {
  /**
   * Loads the output module (and chalk when colour is on); called once flags are parsed, and
   * before an error is reported. `--help` never needs it.
   */
  prepare(options?: { forError?: boolean }): Promise<void>;
  runExitHooks(): Promise<void>;
  /** Without a terminal on stderr: a progress line every 30 s while the command runs (not for servers). */
  startHeartbeat(command: string): Promise<void>;
}

/** Commands that run until stopped and speak for themselves: no progress lines. */
const NO_HEARTBEAT = new Set(['mcp', 'sandbox', 'listen', 'demo']);

export function createContext(deps: ContextDeps): ContextInternals {
  let colors: Colors | undefined;
  let createOutput: typeof OutputModule.createOutput | undefined;
  let output: Output | undefined;
  /** Outputs replaced by a later prepare(): one may hold a pager that must still be closed. */
  const retired: Output[] = [];
  let jq: JqProgram | undefined;
  let store: ProfileStore | undefined;
  let client: ApiClient | undefined;
  let budget: RequestBudget | undefined;
  let heartbeat: Heartbeat | undefined;
  const exitHooks: Array<() => void | Promise<void>> = [];

  const ctx: ContextInternals = {
    io: deps.io,
    env: deps.env,
    // Every sleep of the run (polls, retry pauses) ends with a look at the progress line's clock.
    clock: {
      now: deps.clock.now,
      async sleep(ms, signal) {
        await deps.clock.sleep(ms, signal);
        heartbeat?.check();
      },
    },
    signal: deps.signal,
    version: deps.version,
    globals: { ...DEFAULT_GLOBALS },
    async prepare({ forError = false } = {}) {
      const [outputModule, colorModule] = await Promise.all([import('../output/output.js'), import('../output/colors.js')]);
      createOutput = outputModule.createOutput;
      colors = ctx.globals.color ? await colorModule.loadColors(true) : colorModule.plainColors;
      // An error reported after a table went to the pager: the pager must still get its end of
      // input, or it waits (and the command with it) after the error is printed.
      if (output) retired.push(output);
      output = undefined;
      // A bad --jq expression is exit 2 before any request; jq loads only when --jq is given.
      // Reporting an error needs no jq (and a bad expression is the error being reported).
      if (ctx.globals.jq !== undefined && !jq && !forError) jq = await compileJq(ctx.globals.jq, ctx.globals.jqArgs, deps.env);
    },
    output() {
      if (!createOutput) throw new Error('ctx.output() was called before the context was prepared');
      return (output ??= createOutput({
        stdout: deps.io.stdout,
        stderr: deps.io.stderr,
        format: ctx.globals.format,
        colors,
        quiet: ctx.globals.quiet,
        progress: Boolean(deps.io.stdout.isTTY && deps.io.stderr.isTTY),
        now: deps.clock.now,
        fields: ctx.globals.fields,
        jq,
        env: deps.env,
        pageable: Boolean(deps.io.pageable) && ctx.globals.pager,
        status: (text) => heartbeat?.status(text),
      }));
    },
    async config() {
      return (store ??= openProfileStore(configDir(deps.env), { warn: (message) => ctx.output().warn(message), keyring: deps.keyring }));
    },
    async profile(): Promise<ResolvedProfile> {
      const { resolveProfileWithKey } = await import('../config/resolve.js');
      return resolveProfileWithKey({ flagProfile: ctx.globals.profile, flagBaseUrl: ctx.globals.baseUrl, env: deps.env, store: await ctx.config() });
    },
    async client(overrides = {}) {
      if (client && Object.keys(overrides).length === 0) return client;
      // A client its overrides wholly describe (auth login's key check) reads no profile: the
      // profile's saved api may be the bad value that login is there to replace.
      const whole = overrides.apiKey !== undefined && overrides.baseUrl !== undefined && overrides.dialect !== undefined;
      const profile = whole ? undefined : await ctx.profile();
      if (profile) await checkProfileForClient(ctx, profile, overrides.apiKey);
      const { createClient, createRequestBudget } = await import('../client/index.js');
      // One budget for the whole run, whatever clients it makes.
      budget ??= createRequestBudget({ maxRequests: ctx.globals.maxRequests, spendReserve: ctx.globals.spendBudget, now: deps.clock.now });
      const options: ClientOptions = {
        baseUrl: profile?.baseUrl ?? overrides.baseUrl ?? '',
        apiKey: overrides.apiKey ?? profile?.apiKey ?? '',
        // The profile's API, or SOCIALPUB_API for this run: the client translates every endpoint.
        dialect: profile?.api ?? overrides.dialect,
        timeoutMs: ctx.globals.timeoutMs,
        maxRetries: ctx.globals.maxRetries,
        writeRetryBudgetMs: ctx.globals.maxRetriesGiven ? 0 : WRITE_RETRY.budgetMs,
        maxWaitMs: ctx.globals.maxWaitMs,
        signal: deps.signal,
        now: deps.clock.now,
        sleep: ctx.clock.sleep,
        userAgent: `socialpub/${deps.version} node/${process.versions.node}`,
        ...(ctx.globals.debug ? { debug: (line: string) => ctx.debug(line) } : {}),
        // A long sleep (Retry-After) would look like a hang in a CI log: say so once, with when.
        budget,
        onRetry: (n) => {
          if (n.delayMs > LONG_WAIT_MS) ctx.output().notice(`waiting ${formatDuration(n.delayMs)} before retrying (${n.reason}): since ${new Date(n.until - n.delayMs).toISOString()}, retrying at ${new Date(n.until).toISOString()}`);
        },
        ...overrides,
      };
      const made = createClient(options);
      // Closed at exit unless its user closes it first (the MCP server makes one per call, for hours).
      const closeAtExit = () => made.close();
      exitHooks.push(closeAtExit);
      const close = made.close.bind(made);
      made.close = async () => {
        const at = exitHooks.indexOf(closeAtExit);
        if (at >= 0) exitHooks.splice(at, 1);
        await close();
      };
      if (Object.keys(overrides).length === 0) client = made;
      return made;
    },
    prompter() {
      return deps.prompter ?? inquirerPrompter(deps.io, { color: ctx.globals.color });
    },
    debug(line) {
      // The trace quotes response headers and bodies: their control characters are shown, not obeyed.
      if (ctx.globals.debug) deps.io.stderr.write(`debug: ${visible(line)}\n`);
    },
    onExit(fn) {
      exitHooks.push(fn);
    },
    async startHeartbeat(command) {
      if (deps.io.stderr.isTTY || NO_HEARTBEAT.has(command.split(' ')[0] ?? '')) return;
      const { createHeartbeat } = await import('../output/heartbeat.js');
      heartbeat = createHeartbeat({ write: (line) => deps.io.stderr.write(`${line}\n`), now: deps.clock.now, label: `socialpub ${command}`, checkEveryMs: 1000 });
    },
    async runExitHooks() {
      heartbeat?.stop();
      // The pager shows the output until the user leaves it; the command ends after that.
      await output?.close();
      for (const old of retired.splice(0)) await old.close();
      for (const fn of exitHooks.splice(0).reverse()) {
        try {
          await fn();
        } catch {
          // Cleanup must not mask the command's own outcome.
        }
      }
    },
  };
  return ctx;
}

async function compileJq(expression: string, args: Record<string, string>, env: Readonly<Record<string, string | undefined>>): Promise<JqProgram> {
  const { compileJq: compile, JqError } = await import('../output/jq.js');
  try {
    return await compile(expression, { args, env });
  } catch (err) {
    if (err instanceof JqError) throw new UsageError(err.message.startsWith('--jq') ? err.message : `--jq: ${err.message}`, ['jq filters look like .id, .[] | .status, map(select(.success | not)) | length']);
    throw err;
  }
}

/**
 * A base URL no request can go right with (no http(s) URL, a query or fragment that the paths
 * would land in, an API path on its end that doubles /v1), named by where it came from, before
 * anything is sent. User and password are left alone here: commands send them as given.
 */
/** A key, a well-formed one and a usable base URL, or the error naming the fix (before any request). */
async function checkProfileForClient(ctx: Context, profile: ResolvedProfile, overrideKey: string | undefined): Promise<void> {
  const apiKey = overrideKey ?? profile.apiKey;
  if (!apiKey) {
    // `-p acme` with no such profile: name the profiles there are, as `profile use` does.
    const store = await ctx.config();
    if (profile.nameSource !== 'default' && !store.names().includes(profile.name)) {
      const { profileNotFound } = await import('./commands/profile/not-found.js');
      throw profileNotFound(profile.name, store, EXIT.auth);
    }
    throw noApiKeyError(profile.name, profile.keyProblem, ctx.env);
  }
  if (overrideKey === undefined) {
    const { keyShapeProblem } = await import('../config/resolve.js');
    const problem = keyShapeProblem(profile);
    if (problem) throw new UsageError(problem, [], 'BAD_API_KEY');
  }
  const badUrl = baseUrlError(profile);
  if (badUrl) throw badUrl;
}

function baseUrlError(profile: Pick<ResolvedProfile, 'name' | 'baseUrl' | 'baseUrlSource'>): UsageError | undefined {
  const problem = baseUrlProblem(displayUrl(profile.baseUrl));
  if (!problem) return undefined;
  const source = { flag: '--base-url', env: 'SOCIALPUB_BASE_URL', profile: `the base URL of profile "${profile.name}"`, default: 'the default base URL' }[profile.baseUrlSource];
  // An API path on its end: the message already names the root to give.
  if (rootOfApiUrl(displayUrl(profile.baseUrl)) !== undefined) return new UsageError(`${source}: ${problem}`, [], 'INVALID_BASE_URL');
  const example = /^[a-z][a-z0-9+.-]*:\/\//i.test(profile.baseUrl) ? 'https://api.example.com' : `http://${displayUrl(profile.baseUrl)}`;
  return new UsageError(`${source}: ${problem}`, [`a base URL is the service's root, for example ${example}`], 'INVALID_BASE_URL');
}
