// `results wait`, run: poll (and optionally listen for webhooks) until every target of a post
// has a result; exit 7 when any failed, 1 on timeout.
import type { Context } from '../../context.js';
import { keyWorkspace } from '../../key-workspace.js';
import { CliError, EXIT } from '../../cli-error.js';
import { nonEmpty } from '../../flags/url.js';
import { optionalWholeNumber } from '../../flags/number.js';
import { optionalDuration } from '../../flags/duration.js';
import { formatMs as formatDuration } from '../../../client/format-ms.js';
import type { ApiClient, RateLimitInfo } from '../../../client/types.js';
import { startListener } from '../../../listen/index.js';
import { findPost, PostNotFoundError } from '../../../posts/find.js';
import * as waitState from '../../../results/wait-state.js';
import { pollUntilReported } from '../../../results/wait.js';
import { outcomeText, resultView } from './columns.js';
import { formatClock, formatLocal, formatRelative } from '../../../output/time.js';
import { userZone } from '../../../posts/zone.js';

export const DEFAULT_WAIT_MS = 10 * 60_000;
/** Per request while waiting; the global --timeout is the whole wait for this command. */
export const REQUEST_TIMEOUT_MS = 30_000;

export interface WaitFlags {
  post: string;
  timeout?: string;
  expect?: string;
  listenPort?: string;
}

export async function runWait(ctx: Context, flags: WaitFlags): Promise<number> {
  const postId = nonEmpty('--post', flags.post, 'a post id');
  const expect = optionalWholeNumber('--expect', flags.expect, { min: 1, max: 10_000 });
  const listenPort = optionalWholeNumber('--listen-port', flags.listenPort, { min: 0, max: 65_535 });
  // The global --timeout (per request) shares the name: given anywhere, it is the whole wait here.
  const waitMs = optionalDuration('--timeout', flags.timeout) ?? (ctx.globals.timeoutGiven ? ctx.globals.timeoutMs : DEFAULT_WAIT_MS);

  let rate: RateLimitInfo | undefined;
  const client = await ctx.client({ timeoutMs: Math.min(REQUEST_TIMEOUT_MS, waitMs), onRateLimit: (info) => (rate = info) });
  const deadline = ctx.clock.now() + waitMs;
  const target = expect === undefined ? await targetsOf(ctx, client, postId) : { targets: [], dueAt: undefined };
  const waker = listenPort === undefined ? sleeper(ctx) : await webhookWaker(ctx, postId, listenPort);

  const out = ctx.output();
  const byExpect = expect !== undefined;
  const spinner = await out.spinner(`waiting for results of post ${postId}`);
  let outcome;
  try {
    outcome = await pollUntilReported({
      client,
      posts: [{ postId, targets: target.targets }],
      expect,
      deadline,
      now: () => ctx.clock.now(),
      sleep: (ms) => waker.sleep(ms),
      rate: () => rate,
      onPoll: (state) => spinner.text(waitState.progressText(state, byExpect)),
    });
  } catch (err) {
    spinner.stop();
    throw err;
  }
  // Waiting is over: a listener that fails to close must not turn the outcome into an error.
  await waker.close().catch(() => undefined);

  const { state: current, timedOut } = outcome;
  const summary = waitState.progressText(current, byExpect);
  if (timedOut) spinner.fail(`${summary} after ${formatDuration(waitMs)}`);
  else if (current.failures.length) spinner.fail(`${summary}, ${current.failures.length} failed`);
  else spinner.succeed(`${summary}, all succeeded`);
  await report(ctx, current);
  if (timedOut) throw timeoutError(ctx, { postId, waitMs, summary, missing: current.missing, dueAt: target.dueAt });
  return current.failures.length ? EXIT.partial : EXIT.ok;
}

/** The post's target platforms (what "every target reported" means) and when it is due. */
async function targetsOf(ctx: Context, client: ApiClient, postId: string): Promise<{ targets: string[]; dueAt: number | undefined }> {
  const post = await findPost(client, postId, { statusHint: ['scheduled', 'published', 'failed'] }).catch(async (err: unknown) => {
    if (!(err instanceof PostNotFoundError)) throw err;
    const profile = await ctx.profile();
    throw new CliError(`no post ${postId} in ${keyWorkspace(profile)}`, {
      exitCode: EXIT.notFound,
      code: 'NOT_FOUND',
      hints: ['list the posts of this workspace with `socialpub posts list`, or pass --expect N to wait for N results without looking the post up'],
    });
  });
  const targets = Object.keys(post.payloads);
  if (targets.length === 0) throw new CliError(`post ${postId} has no platform payloads: there is nothing to wait for`, { exitCode: EXIT.usage });
  if (post.status === 'draft') ctx.output().warn(`post ${postId} is a draft: it gets results only once it is scheduled`);
  return { targets, dueAt: post.scheduledAt ? Date.parse(post.scheduledAt) : undefined };
}

interface Waker {
  /** Sleeps between polls; a webhook for the post ends the sleep early. */
  sleep(ms: number): Promise<void>;
  close(): Promise<void>;
}

function sleeper(ctx: Context): Waker {
  return { sleep: (ms) => ctx.clock.sleep(ms, ctx.signal), close: async () => {} };
}

/** Webhooks only wake the poller: what counts is always what the API returns. */
async function webhookWaker(ctx: Context, postId: string, port: number): Promise<Waker> {
  let wakeEarly = false;
  let sleeping: AbortController | undefined;
  const secret = ctx.env.SOCIALPUB_WEBHOOK_SECRET || undefined;
  const listener = await startListener({ port, host: '127.0.0.1', clock: ctx.clock, ...(secret ? { secret } : {}) });
  const close = () => listener.close();
  ctx.onExit(close);
  listener.on('event', (e) => {
    if (e.payload.postId !== postId) return;
    if (sleeping) sleeping.abort();
    else wakeEarly = true;
  });
  ctx.output().info(`listening for webhooks on ${listener.url}`);
  return {
    async sleep(ms) {
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
    },
    close,
  };
}

/** The results on stdout, and each failure with its reason on stderr. */
async function report(ctx: Context, current: waitState.WaitState): Promise<void> {
  const out = ctx.output();
  await out.list(current.rows, resultView(() => ctx.clock.now()));
  for (const f of current.failures) {
    const where = [f.platform, f.platform_data?.username ? `@${String(f.platform_data.username).replace(/^@/, '')}` : undefined].filter(Boolean).join(' ');
    out.notice(`${out.colors.red('✗')} ${where || f.id}: ${outcomeText(f)} (socialpub results get ${f.id})`);
  }
}

function timeoutError(ctx: Context, w: { postId: string; waitMs: number; summary: string; missing: string[]; dueAt: number | undefined }): CliError {
  const missing = w.missing.length ? `; still missing: ${w.missing.join(', ')}` : '';
  const early = notDueYet(w.postId, w.dueAt, ctx.clock.now(), userZone(ctx.env, undefined));
  return new CliError(`timed out after ${formatDuration(w.waitMs)} waiting for post ${w.postId}: ${w.summary}${missing}${early ? `; ${early.message}` : ''}`, {
    exitCode: EXIT.error,
    code: 'WAIT_TIMEOUT',
    hints: [early?.hint ?? 'wait longer with --timeout (e.g. --timeout 30m); check when the post is due with `socialpub posts list`'],
  });
}

/**
 * A wait that ended before the post is even due: no platform could have reported, so say when it
 * is due (in the user's zone, and from now) and how long a wait would see it through.
 */
function notDueYet(postId: string, dueAt: number | undefined, now: number, zone: string): { message: string; hint: string } | undefined {
  if (dueAt === undefined || Number.isNaN(dueAt) || dueAt <= now) return undefined;
  const soon = dueAt - now < 20 * 3600_000;
  const when = soon ? `${formatClock(dueAt, zone)} (${zone})` : formatLocal(dueAt, zone);
  // A few minutes past the due time: publishing and the first poll take a moment.
  const minutes = Math.ceil((dueAt - now) / 60_000) + 5;
  return {
    message: `post ${postId} is due at ${when}, ${formatRelative(dueAt, now)}`,
    hint: `no platform reports before the post is due: wait past it with --timeout ${minutes}m`,
  };
}
