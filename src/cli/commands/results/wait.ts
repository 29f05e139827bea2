// `socialpub results wait --post ID`: for CI, block until every target of a post has a result.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../action.js';
import type { ApiClient, RateLimitInfo } from '../../../client/types.js';
import type { Post, PostResult } from '../../../wire/schemas.js';

export const DEFAULT_WAIT_MS = 10 * 60_000;
/** Per request while waiting; the global --timeout is the whole wait for this command. */
export const REQUEST_TIMEOUT_MS = 30_000;

interface WaitFlags {
  post: string;
  timeout?: string;
  expect?: string;
  listenPort?: string;
}

export function register(results: Command, ctx: Context): void {
  results
    .command('wait')
    .summary('wait until every target of a post has a result; exit 7 if any failed')
    .description(
      "For CI jobs that scheduled a post: blocks until every target platform of the post has a result (the platforms of its payloads; --expect N overrides), polling with backoff that keeps within the read rate limit. With --listen-port it also listens for the service's webhooks and polls as soon as one for this post arrives. Exit 0 when all succeeded, 7 when any failed (the failures are printed), 1 on timeout (with what is still missing), 5/6 on rate limiting or network trouble. Here --timeout is the whole wait (default 10m); each request keeps a 30s limit.",
    )
    .requiredOption('--post <id>', 'the post to wait for')
    .option('--timeout <duration>', 'give up after this long (default 10m)')
    .option('--expect <n>', 'number of results to wait for, instead of the post\'s platforms')
    .option('--listen-port <port>', 'also receive webhooks on 127.0.0.1:<port>/webhooks and poll when one arrives')
    .addHelpText(
      'after',
      `
Examples:
  socialpub results wait --post post_01HZX2
  socialpub results wait --post post_01HZX2 --timeout 30m --json > results.json
  socialpub results wait --post post_01HZX2 --listen-port 4567
  socialpub results wait --post post_01HZX2 --expect 2`,
    )
    .action(action(ctx, (flags: WaitFlags, cmd: Command) => runWait(ctx, flags, cmd)));
}

/**
 * The program's global --timeout (per request) takes the flag wherever it is written, so the
 * wait reads it from there: given on the command line it is the length of the wait.
 */
function waitTimeout(cmd: Command): string | undefined {
  const own = cmd.opts<{ timeout?: string }>().timeout;
  if (own !== undefined) return own;
  const source = cmd.getOptionValueSourceWithGlobals('timeout');
  return source === 'cli' || source === 'env' ? cmd.optsWithGlobals<{ timeout?: string }>().timeout : undefined;
}

export async function runWait(ctx: Context, flags: WaitFlags, cmd: Command): Promise<number> {
  const [{ parseWholeNumber }, { parseDuration, formatDuration }, { UsageError, CliError }, { EXIT }, state] = await Promise.all([
    import('../../results/numbers.js'),
    import('../../duration.js'),
    import('../../cli-error.js'),
    import('../../cli-error.js'),
    import('../../results/wait-state.js'),
  ]);
  const postId = flags.post.trim();
  if (!postId) throw new UsageError('--post: give a post id');
  const expect = parseWholeNumber('--expect', flags.expect, { min: 1, max: 10_000 });
  const listenPort = parseWholeNumber('--listen-port', flags.listenPort, { min: 0, max: 65_535 });
  const timeoutText = waitTimeout(cmd);
  const waitMs = timeoutText === undefined ? DEFAULT_WAIT_MS : parseDuration(timeoutText);
  if (waitMs === undefined || waitMs <= 0) throw new UsageError(`--timeout: "${timeoutText}" is not a duration`, ['use a number with a unit: 30s, 10m, 2h']);

  let rate: RateLimitInfo | undefined;
  const client = await ctx.client({ timeoutMs: Math.min(REQUEST_TIMEOUT_MS, waitMs), onRateLimit: (info) => (rate = info) });
  const out = ctx.output();
  const start = ctx.clock.now();
  const deadline = start + waitMs;

  let targets: string[] = [];
  if (expect === undefined) {
    const post = await findPost(client, postId);
    if (!post) {
      const profile = await ctx.profile();
      throw new CliError(`no post ${postId} in the workspace of profile ${profile.name}`, {
        exitCode: EXIT.notFound,
        code: 'NOT_FOUND',
        hints: ['list the posts of this workspace with `socialpub posts list`, or pass --expect N to wait for N results without looking the post up'],
      });
    }
    targets = Object.keys(post.payloads);
    if (targets.length === 0) throw new CliError(`post ${postId} has no platform payloads: there is nothing to wait for`, { exitCode: EXIT.usage });
    if (post.status === 'draft') out.warn(`post ${postId} is a draft: it gets results only once it is scheduled`);
  }

  // Webhooks only wake the poller: what counts is always what the API returns.
  let wakeEarly = false;
  let sleeping: AbortController | undefined;
  let closeListener: (() => Promise<void>) | undefined;
  if (listenPort !== undefined) {
    const { startListener } = await import('../../../listen/index.js');
    const secret = ctx.env.SOCIALPUB_WEBHOOK_SECRET || undefined;
    const listener = await startListener({ port: listenPort, host: '127.0.0.1', clock: ctx.clock, ...(secret ? { secret } : {}) });
    closeListener = () => listener.close();
    ctx.onExit(closeListener);
    listener.on('event', (e) => {
      if (e.payload.postId !== postId) return;
      if (sleeping) sleeping.abort();
      else wakeEarly = true;
    });
    out.info(`listening for webhooks on ${listener.url}`);
  }

  const sleepOrWake = async (ms: number) => {
    if (wakeEarly) {
      wakeEarly = false;
      return;
    }
    const wake = new AbortController();
    sleeping = wake;
    try {
      await ctx.clock.sleep(ms, AbortSignal.any([ctx.signal, wake.signal]));
    } catch (err) {
      if (ctx.signal.aborted || !wake.signal.aborted) throw err;
    } finally {
      sleeping = undefined;
    }
  };

  const byExpect = expect !== undefined;
  const spinner = await out.spinner(`waiting for results of post ${postId}`);
  let current = state.assessResults([], targets, expect);
  let timedOut = false;
  try {
    for (let attempt = 0; ; attempt++) {
      const rows: PostResult[] = [];
      for await (const row of client.results.iterate({ postId: [postId] }, { pageSize: 100, concurrency: 1 })) rows.push(row);
      current = state.assessResults(rows, targets, expect);
      spinner.text(state.progressText(current, byExpect));
      if (current.done) break;
      const left = deadline - ctx.clock.now();
      if (left <= 0) {
        timedOut = true;
        break;
      }
      await sleepOrWake(state.nextPollDelayMs(attempt, rate, left));
    }
  } catch (err) {
    spinner.stop();
    throw err;
  }
  if (closeListener) await closeListener().catch(() => undefined);

  const summary = state.progressText(current, byExpect);
  if (timedOut) spinner.fail(`${summary} after ${formatDuration(waitMs)}`);
  else if (current.failures.length) spinner.fail(`${summary}, ${current.failures.length} failed`);
  else spinner.succeed(`${summary}, all succeeded`);

  const { resultColumns, outcomeText } = await import('../../results/columns.js');
  if (current.rows.length) await out.list(current.rows, resultColumns(() => ctx.clock.now()));
  else if (out.format === 'json') await out.data('[]');

  for (const f of current.failures) {
    const where = [f.platform, f.platform_data?.username ? `@${String(f.platform_data.username).replace(/^@/, '')}` : undefined].filter(Boolean).join(' ');
    ctx.io.stderr.write(`${out.colors.red('✗')} ${where || f.id}: ${outcomeText(f)} (socialpub results get ${f.id})\n`);
  }
  if (timedOut) {
    const missing = current.missing.length ? `; still missing: ${current.missing.join(', ')}` : '';
    throw new CliError(`timed out after ${formatDuration(waitMs)} waiting for post ${postId}: ${summary}${missing}`, {
      exitCode: EXIT.error,
      code: 'WAIT_TIMEOUT',
      hints: ['wait longer with --timeout (e.g. --timeout 30m); check when the post is due with `socialpub posts list`'],
    });
  }
  return current.failures.length ? EXIT.partial : EXIT.ok;
}

/** Newest first, so a freshly scheduled post is on the first page. */
async function findPost(client: ApiClient, postId: string): Promise<Post | undefined> {
  for await (const post of client.posts.iterate({}, { pageSize: 100, concurrency: 1 })) {
    if (post.id === postId) return post;
  }
  return undefined;
}
