// `results wait`, run: poll (and optionally listen for webhooks) until every target of the posts
// has a result; exit 7 when any failed, 8 when the wait gave up (its --timeout passed). Outages are ridden out until the wait's
// own deadline; a draft or a post due after it fails at once (exit 2).
import type { Context } from '../../context.js';
import { keyWorkspace } from '../../../config/resolve.js';
import { addHints, CliError, EXIT } from '../../cli-error.js';
import { annotate } from '../../errors.js';
import { nonEmpty } from '../../flags/text.js';
import { optionalWholeNumber } from '../../flags/number.js';
import { optionalDuration } from '../../flags/number.js';
import { formatDuration } from '../../../client/retry-timing.js';
import { DeadlineError, TimeoutError } from '../../../client/errors.js';
import type { ApiClient, RateLimitInfo } from '../../../client/types.js';
import { startListener } from '../../../listen/index.js';
import { checkPostId } from '../../../posts/find.js';
import * as waitState from '../../../results/wait-state.js';
import { lookUpWaitTarget, outageRider, pollUntilReported, type ResultsSource, type WaitTarget } from '../../../results/wait.js';
import { accountFlag } from '../accounts/select.js';
import { unhealthyAccounts } from '../../../accounts/health.js';
import { reconnectHint, unhealthyNote } from '../../../accounts/label.js';
import type { SocialAccount } from '../../../wire/account-schemas.js';
import type { Spinner } from '../../../output/progress.js';
import { resultHandle, resultLinkOrError, resultView } from '../../../output/result-columns.js';
import { visibleLine } from '../../../output/terminal-safe.js';
import { appendStepSummary, markdownCell, markdownTable } from '../../../output/step-summary.js';
import { formatClock, formatLocal, formatRelative } from '../../../output/time.js';
import { userZone } from '../../../posts/zone.js';
import type { WaitFlags } from './wait.js';
import { refuseUnsupported, resultsHaveTime } from '../../dialect-refusals.js';
import type { PostResult } from '../../../wire/schemas.js';
import { shellWord } from '../../shell-word.js';
import { outageEnd, outageStart } from './outage-words.js';

export const DEFAULT_WAIT_MS = 10 * 60_000;
/** Per request while waiting, unless the global --timeout (always per request) says otherwise. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** requestTimeout: the global --timeout when given before `wait` (per request); flags.timeout is the wait's own. */
export async function runWait(ctx: Context, flags: WaitFlags & { requestTimeout?: string | undefined }): Promise<number> {
  // A result id or a typo is refused before anything is sent, as posts view and results retry do.
  const postIds = [...new Set((flags.post ?? []).map((p) => checkPostId(nonEmpty('--post', p, 'a post id'), '--post')))];
  const expect = optionalWholeNumber('--expect', flags.expect, { min: 1, max: 10_000 });
  const listenPort = optionalWholeNumber('--listen-port', flags.listenPort, { min: 0, max: 65_535 });
  await refuseUnsupported(ctx, [{ given: listenPort !== undefined, lack: 'webhooks', field: '--listen-port', fix: 'leave --listen-port out: the wait polls for results' }]);
  // `results wait --timeout` is the whole wait; the global --timeout stays the per-request limit.
  const waitMs = optionalDuration('--timeout', flags.timeout) ?? DEFAULT_WAIT_MS;
  const zone = userZone(ctx.env, undefined);

  let rate: RateLimitInfo | undefined;
  const requestMs = optionalDuration('--timeout', flags.requestTimeout) ?? Math.min(REQUEST_TIMEOUT_MS, waitMs);
  const client = await ctx.client({ timeoutMs: requestMs, onRateLimit: (info) => (rate = info) });
  // Every request of the wait, the client's retries included, ends by it (the loop passes it on):
  // a service that hangs or keeps failing must not stretch the wait past its --timeout.
  const deadline = ctx.clock.now() + waitMs;
  const out = ctx.output();
  const label = postIds.length === 1 ? `post ${postIds[0]}` : `${postIds.length} posts`;
  let spinner: Spinner | undefined;
  /** The failure of an outage still going on. */
  let down: Error | undefined;
  const outage = {
    deadline,
    now: () => ctx.clock.now(),
    sleep: (ms: number) => ctx.clock.sleep(ms, ctx.signal),
    // One line when the service stops answering and one when it is back (a spinner would draw over them).
    onOutage: (err: Error) => {
      down = err;
      spinner?.stop();
      // The clock time alone says little for a wait of seconds: how long is left goes with it.
      out.notice(`${outageStart(err)}; retrying until ${formatClock(deadline, zone)} (${formatDuration(Math.max(0, deadline - ctx.clock.now()))} from now)`);
    },
    onBack: () => {
      out.notice(`${outageEnd(down)}; still waiting`);
      down = undefined;
      spinner?.resume();
    },
    // A Retry-After within the wait is slept through, saying until when (a silent minute looks like a hang).
    onRateLimited: (until: number) => {
      out.notice(`rate limited: the service asked for a pause; polling again at ${formatClock(until, zone)} (${formatDuration(Math.max(0, until - ctx.clock.now()))} from now)`);
    },
  };
  /** A request the wait's end cut short: the outage that was going on, or a service that did not answer in time. */
  const cutShort = (err: unknown): unknown => {
    const ended = err instanceof DeadlineError ? (down ?? new TimeoutError(`the service did not answer before the wait ended (--timeout ${formatDuration(waitMs)})`, { code: 'TIMEOUT', cause: err })) : err;
    // The error alone ("after 4 attempts") hides that the wait kept trying for its whole --timeout.
    if (down && ctx.clock.now() >= deadline) {
      addHints(ended, [`the service was still failing when the wait ended (--timeout ${formatDuration(waitMs)}); the posts are unaffected: run the wait again, or give a longer --timeout to ride out a longer outage`]);
    }
    return ended;
  };
  // --account: one lookup before the wait; an unknown or ambiguous one is exit 2.
  const chosen = await accountFlag(ctx, client, flags.account);
  const lookUp = outageRider(outage);
  const targets: WaitTarget[] = [];
  try {
    for (const postId of postIds) targets.push(expect === undefined ? await lookUp(() => targetsOf(ctx, client, postId, deadline)) : { postId, targets: [] });
  } catch (err) {
    throw cutShort(err);
  }
  const source = chosen ? onlyAccounts(client, chosen.accounts, targets) : client;
  const waker = listenPort === undefined ? sleeper(ctx) : await webhookWaker(ctx, postIds, listenPort);

  const byExpect = expect !== undefined;
  const spendReserve = ctx.globals.spendBudget || ctx.globals.maxRequests !== undefined;
  spinner = await out.spinner(`waiting for results of ${label}`);
  const outcome = await pollUntilReported({
    client: source,
    posts: targets,
    expect,
    ...outage,
    sleep: (ms) => waker.sleep(ms),
    rate: () => rate,
    spendReserve,
    onPoll: (state) => spinner?.text(waitState.progressText(state, byExpect)),
  }).catch((err: unknown) => {
    spinner?.stop();
    throw cutShort(err);
  });
  // Waiting is over: a listener that fails to close must not turn the outcome into an error.
  await waker.close().catch(() => undefined);

  const { state: current, timedOut } = outcome;
  const summary = waitState.progressText(current, byExpect);
  if (timedOut) spinner.fail(`${summary} after ${formatDuration(waitMs)}`);
  else if (current.failures.length) spinner.fail(`${summary}, ${current.failures.length} failed`);
  else spinner.succeed(`${summary}, all succeeded`);
  await report(ctx, current, !timedOut, postIds.length > 1, await unhealthyOrNone(client, current.failures));
  stepSummary(ctx, outcome.perPost, timedOut ? `gave up after ${formatDuration(waitMs)}: ${summary}` : current.failures.length ? `${summary}, ${current.failures.length} failed` : `${summary}, all succeeded`);
  if (timedOut) throw timeoutError({ label, waitMs, summary, missing: current.missing, rate: spendReserve ? undefined : rate });
  return current.failures.length ? EXIT.partial : EXIT.ok;
}

/**
 * The post's target platforms (what "every target reported" means). A draft, or a post due after
 * the deadline, cannot report within the wait: say so at once instead of waiting it out.
 */
async function targetsOf(ctx: Context, client: ApiClient, postId: string, deadline: number): Promise<WaitTarget> {
  const found = await lookUpWaitTarget(client, postId, { lookUpBy: deadline, deadline });
  if (!found.found) {
    const profile = await ctx.profile();
    throw new CliError(`no post ${postId} in ${keyWorkspace(profile)}`, {
      exitCode: EXIT.notFound,
      code: 'NOT_FOUND',
      hints: ['list the posts of this workspace with `socialpub posts list`, or pass --expect N to wait for N results without looking the post up'],
    });
  }
  const { target, blocked } = found;
  if (target.targets.length === 0) throw new CliError(`post ${postId} has no platform payloads: there is nothing to wait for`, { exitCode: EXIT.usage });
  if (blocked?.reason === 'draft') {
    throw new CliError(`post ${postId} is a draft: it gets results only once it is scheduled`, {
      exitCode: EXIT.usage,
      code: 'POST_IS_DRAFT',
      hints: [`schedule it first: socialpub posts schedule ${postId} --at TIME`],
    });
  }
  if (blocked?.reason === 'due-after-deadline') {
    const now = ctx.clock.now();
    const due = notDueYet(postId, blocked.dueAt, now, userZone(ctx.env, undefined));
    // Like a draft, waiting cannot help: the request itself must change (a longer --timeout), so
    // this is invalid input (exit 2), not a wait that ran out (exit 1).
    throw new CliError(`${due.message}, after this wait ends (--timeout ${formatDuration(deadline - now)}): no platform can report before then`, {
      exitCode: EXIT.usage,
      code: 'POST_DUE_AFTER_WAIT',
      hints: [due.hint],
    });
  }
  return target;
}

/**
 * --account: only these accounts' rows count (filtered on the service and again here, since a
 * service may ignore the parameter), and only their platforms are waited for.
 */
function onlyAccounts(client: ApiClient, accounts: readonly SocialAccount[], targets: WaitTarget[]): ResultsSource {
  const ids = new Set(accounts.map((a) => a.id));
  const platforms = new Set(accounts.map((a) => a.platform));
  for (const t of targets) {
    const mine = t.targets.filter((p) => platforms.has(p));
    if (t.targets.length && !mine.length) {
      throw new CliError(`post ${t.postId} goes to ${t.targets.join(', ')}: none of the --account accounts is on those platforms`, { exitCode: EXIT.usage, code: 'ACCOUNT_NOT_TARGETED', hints: [`see where it goes: socialpub posts view ${t.postId}`] });
    }
    t.targets = mine;
  }
  return {
    results: {
      iterate: (query, options) => {
        const rows = client.results.iterate({ ...query, socialAccountId: [...ids] }, options);
        return (async function* () {
          for await (const row of rows) if (row.social_account_id && ids.has(row.social_account_id)) yield row;
        })();
      },
    },
  };
}

/** The expired or disconnected accounts, to name them beside failures; none when they cannot be read (the outcome stands without them). */
async function unhealthyOrNone(client: ApiClient, failures: readonly PostResult[]): Promise<Map<string, SocialAccount>> {
  try {
    return await unhealthyAccounts(client, failures);
  } catch {
    return new Map();
  }
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
async function webhookWaker(ctx: Context, postIds: readonly string[], port: number): Promise<Waker> {
  let wakeEarly = false;
  let sleeping: AbortController | undefined;
  const secret = ctx.env.SOCIALPUB_WEBHOOK_SECRET || undefined;
  const listener = await startListener({ port, host: '127.0.0.1', clock: ctx.clock, ...(secret ? { secret } : {}) });
  const close = () => listener.close();
  ctx.onExit(close);
  listener.on('event', (e) => {
    if (!postIds.includes(String(e.payload.postId))) return;
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

/**
 * The results on stdout, and each failure with its reason on stderr. A wait that timed out shows
 * the rows that did come but leaves the document open (no closing `]`, no `[]`), so a script
 * cannot take them for the whole answer; the exit code says the wait failed.
 */
async function report(ctx: Context, current: waitState.WaitState, complete: boolean, severalPosts: boolean, unhealthy: ReadonlyMap<string, SocialAccount>): Promise<void> {
  const out = ctx.output();
  const writer = out.listWriter(resultView(() => ctx.clock.now(), { severalPosts, timeless: !(await resultsHaveTime(ctx)) }));
  for (const row of current.rows) await writer.write(row);
  await (complete ? writer.end() : writer.abort());
  for (const f of current.failures) {
    const where = [f.platform, resultHandle(f)].filter(Boolean).join(' ');
    // The command last, after a colon: on a narrow terminal it moves whole to its own line.
    // Only the mark is coloured by us: an escape or line break in the service's words is shown, not obeyed.
    const note = unhealthyNote(unhealthy.get(f.social_account_id ?? ''));
    out.notice(`${out.colors.red('✗')} ${visibleLine(`${where || f.id}: ${resultLinkOrError(f)}${note ? ` · ${note}` : ''} · details: socialpub results get ${shellWord(f.id)}`)}`);
  }
  // Retrying into an expired token fails the same way: say what to do first.
  const accounts = [...new Set(current.failures.map((f) => unhealthy.get(f.social_account_id ?? '')).filter((a): a is SocialAccount => a !== undefined))];
  for (const a of accounts) out.info(visibleLine(reconnectHint(a)));
  // What to do next, once per post that had a failure (the command last, as above).
  const retry = [...new Set(current.failures.map((f) => f.post_id))].map((postId) => `send its failed targets again as a new post: socialpub results retry ${shellWord(postId)}`);
  for (const line of retry) out.info(visibleLine(line));
  if (complete && current.failures.length) {
    const n = current.failures.length;
    const lines = current.failures.map((f) => `${f.platform} (${f.post_id}): ${resultLinkOrError(f)}`);
    annotate(ctx, [`${n} target${n === 1 ? '' : 's'} failed to publish`, ...lines.map(visibleLine), ...retry.map(visibleLine)].join('\n'), 'socialpub results wait: targets failed');
  }
}

/** Under GitHub Actions: each target of each post and its outcome, on the job's summary page. */
function stepSummary(ctx: Context, perPost: ReadonlyMap<string, waitState.WaitState>, headline: string): void {
  if (!ctx.env.GITHUB_STEP_SUMMARY) return;
  const rows: string[][] = [];
  for (const [postId, state] of perPost) {
    // The account too: two pages on one platform are two rows that would otherwise read the same.
    for (const r of state.rows) rows.push([postId, String(r.platform ?? '?'), resultHandle(r) ?? r.social_account_id ?? '', r.success ? '✅ published' : '❌ failed', r.success ? String(r.platform_data?.url ?? '') : resultLinkOrError(r)]);
    for (const platform of state.missing) rows.push([postId, platform, '', '⏳ not reported', '']);
  }
  appendStepSummary(ctx.env, `### socialpub results wait: ${markdownCell(headline)}\n\n${markdownTable(['post', 'platform', 'account', 'outcome', 'link or error'], rows)}`);
}

function timeoutError(w: { label: string; waitMs: number; summary: string; missing: string[]; rate: RateLimitInfo | undefined }): CliError {
  const missing = w.missing.length ? `; still missing: ${w.missing.join(', ')}` : '';
  const { limit, remaining, resetSeconds } = w.rate ?? {};
  // Polls slowed to keep the rate limit's last tenth for the rest of the workspace: say so, and how to spend it.
  const kept = limit !== undefined && remaining !== undefined && resetSeconds !== undefined && remaining <= Math.ceil(limit / 10);
  return new CliError(`timed out after ${formatDuration(w.waitMs)} waiting for ${w.label}: ${w.summary}${missing}`, {
    exitCode: EXIT.gaveUp,
    code: 'WAIT_TIMEOUT',
    hints: [
      ...(kept
        ? [`the read limit is down to its last tenth (${remaining} of ${limit} left, reset in ${formatDuration(resetSeconds * 1000)}): the wait left it to the rest of the workspace; --spend-budget lets it poll on`]
        : []),
      'wait longer with --timeout (e.g. --timeout 30m); check when the post is due with `socialpub posts list`',
    ],
  });
}

/**
 * A post due after the wait would end: no platform could report, so say when it is due (in the
 * user's zone, and from now) and how long a wait would see it through.
 */
function notDueYet(postId: string, dueAt: number, now: number, zone: string): { message: string; hint: string } {
  const soon = dueAt - now < 20 * 3600_000;
  const when = soon ? `${formatClock(dueAt, zone)} (${zone})` : formatLocal(dueAt, zone);
  // A few minutes past the due time: publishing and the first poll take a moment.
  const minutes = Math.ceil((dueAt - now) / 60_000) + 5;
  return {
    message: `post ${postId} is due at ${when}, ${formatRelative(dueAt, now)}`,
    hint: `no platform reports before the post is due: wait past it with --timeout ${minutes}m`,
  };
}
