// Runs `listen`: starts the engine, renders its events in arrival order, and stops on
// --max-events (exit 0), --timeout without a new event (exit 1) or Ctrl-C (exit 130), always
// with a summary on stderr. Event lines are written synchronously from the engine's emit, so
// what is printed keeps the order in which deliveries arrived.
import { wrapProse } from '../../../output/wrap.js';
import { closeSync, writeSync } from 'node:fs';
import { CliError, UsageError, EXIT } from '../../cli-error.js';
import type { Clock, Context } from '../../context.js';
import type { ListWriter } from '../../../output/writers.js';
import { formatDuration } from '../../../client/retry-timing.js';
import { maskKey } from '../../../config/resolve.js';
import type { Output } from '../../../output/output.js';
import { isLoopbackHost, ListenerStartError, startListener } from '../../../listen/index.js';
import type { DeliveryEvent, Listener } from '../../../listen/types.js';
import { openLog } from './log-file.js';
import { planListen, type ListenPlan } from './flags.js';
import type { ListenFlags } from './index.js';
import { refuseInDialect } from '../../../wire/syncpostly/unsupported.js';
import {
  duplicateLine,
  eventView,
  forwardedLine,
  forwardFailedLine,
  ndjsonLine,
  rejectedLine,
  summaryLine,
} from './render.js';

type Stop = { why: 'max-events' | 'timeout' | 'interrupted' } | { why: 'failed'; error: Error };

export async function runListen(ctx: Context, flags: ListenFlags): Promise<number> {
  const plan = planListen(flags, ctx.env);
  const unverifiedMode = await dialectMode(ctx, plan);
  const out = ctx.output();
  if (plan.secret.warning) out.warn(plan.secret.warning);

  const logFd = plan.logFile === undefined ? undefined : openLog(plan.logFile, (line) => out.warn(line));
  if (logFd !== undefined) ctx.onExit(() => closeSync(logFd));

  const listener = await start(ctx, plan);
  ctx.onExit(() => listener.close());

  const events = out.listWriter(eventView());
  const stopper = stopSignal();
  const idle = idleTimeout(ctx.clock, plan.timeoutMs, () => stopper.stop({ why: 'timeout' }));
  const printed = printEvents(listener, { plan, events, logFd, stop: stopper.stop, onPrinted: idle.touch });
  showNotes(ctx, listener, out);
  announce(ctx, listener, plan, out, unverifiedMode);

  const onAbort = () => stopper.stop({ why: 'interrupted' });
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener('abort', onAbort, { once: true });

  const stop = await stopper.stopped;
  ctx.signal.removeEventListener('abort', onAbort);
  idle.cancel();
  await shutDown(ctx, listener, plan, out);
  await events.end();
  // On a terminal, Ctrl-C has echoed "^C" where the cursor was: the summary starts a line of its
  // own, and like every note it is broken between words rather than at the terminal's edge.
  const fresh = stop.why === 'interrupted' && ctx.io.stderr.isTTY ? '\n' : '';
  wrappedStderr(ctx).write(fresh + summaryLine(listener.stats(), printed(), plan.listener.forwardTo !== undefined));
  return exitCodeFor(stop, plan);
}

async function start(ctx: Context, plan: ListenPlan): Promise<Listener> {
  try {
    return await startListener({ ...plan.listener, clock: ctx.clock });
  } catch (err) {
    if (!(err instanceof ListenerStartError)) throw err;
    if (err.code === 'EINVAL') throw new UsageError(err.message, plan.secret.source === 'flag' ? [] : [`check ${plan.secret.from}`]);
    const hints = err.code === 'EADDRINUSE' ? ['pick another port with --port N, or --port 0 for any free port'] : [];
    throw new CliError(err.message, { exitCode: EXIT.error, hints, code: err.code });
  }
}

/** The first reason to stop wins; later ones are ignored. */
function stopSignal(): { stopped: Promise<Stop>; stop(reason: Stop): void } {
  let stop: (reason: Stop) => void = () => {};
  const stopped = new Promise<Stop>((resolve) => {
    let done = false;
    stop = (reason) => {
      if (done) return;
      done = true;
      resolve(reason);
    };
  });
  return { stopped, stop: (reason) => stop(reason) };
}

/**
 * --timeout is an idle limit: it ends D after the last printed event. One sleep runs at a time;
 * an event only notes its time, and a sleep that saw an event sleeps again for what is left of
 * D after it, so a busy listener spends no timer, promise or controller per event. A sleep that
 * saw none ends the wait, whatever the clock's now() says (a test's clock may never move).
 */
function idleTimeout(clock: Clock, timeoutMs: number | undefined, onIdle: () => void): { touch(): void; cancel(): void } {
  if (timeoutMs === undefined) return { touch: () => {}, cancel: () => {} };
  const controller = new AbortController();
  let last = 0;
  let touched = false;
  const wait = (ms: number): void => {
    touched = false;
    clock.sleep(ms, controller.signal).then(() => {
      // At most the whole limit: a wall clock set back must not stretch the wait.
      const left = Math.min(timeoutMs, last + timeoutMs - clock.now());
      if (touched && left > 0) wait(left);
      else onIdle();
    }, () => {});
  };
  wait(timeoutMs);
  return {
    touch() {
      last = clock.now();
      touched = true;
    },
    cancel: () => controller.abort(),
  };
}

interface PrintOptions {
  plan: ListenPlan;
  /** Output batches the lines (one write per event-loop turn) and keeps their order. */
  events: ListWriter<DeliveryEvent>;
  logFd: number | undefined;
  stop(reason: Stop): void;
  onPrinted(): void;
}

/** Prints each event (up to --max-events) and logs it; returns how many were printed so far. */
function printEvents(listener: Listener, o: PrintOptions): () => number {
  let printed = 0;
  const { maxEvents } = o.plan;
  listener.on('event', (e: DeliveryEvent) => {
    if (maxEvents !== undefined && printed >= maxEvents) return;
    printed++;
    void o.events.write(e);
    if (o.logFd !== undefined) writeSync(o.logFd, ndjsonLine(e));
    if (maxEvents !== undefined && printed >= maxEvents) o.stop({ why: 'max-events' });
    else o.onPrinted();
  });
  // A bug in the lines above (a renderer that throws) stops the command with an error rather
  // than dropping events without a word; the engine hands such exceptions here.
  listener.on('error', (error) => o.stop({ why: 'failed', error }));
  return () => printed;
}

/** stderr, with lines wider than the terminal broken between words. */
function wrappedStderr(ctx: Context): { write(text: string): boolean } {
  const { stderr } = ctx.io;
  return { write: (text) => stderr.write(wrapProse(text, stderr.isTTY ? stderr.columns : undefined)) };
}

/** Duplicates, rejections and forwards: one note each on stderr. */
function showNotes(ctx: Context, listener: Listener, out: Output): void {
  const stderr = wrappedStderr(ctx);
  const colors = out.colors;
  listener.on('duplicate', (d) => {
    if (!out.quiet) stderr.write(duplicateLine(d.webhookId, colors));
  });
  listener.on('rejected', (r) => void stderr.write(rejectedLine(r, colors)));
  listener.on('forwarded', (f) => void stderr.write(forwardedLine(f, colors)));
  listener.on('forward-failed', (f) => void stderr.write(forwardFailedLine(f, colors)));
}

/** The ready message: the URL, what to do with it, and what is (not) checked. */
/**
 * SyncPostly documents no webhooks and no signing: a secret cannot apply (exit 2, before the port
 * is opened), and without one the listener's unverified mode is what runs; said instead of the
 * usual advice to set a secret. Undefined in socialpub's own API.
 */
async function dialectMode(ctx: Context, plan: ListenPlan): Promise<string | undefined> {
  const { api } = await ctx.profile();
  if (api !== 'syncpostly') return undefined;
  refuseInDialect(
    api,
    plan.secret.secret !== undefined,
    'webhooks',
    plan.secret.from ?? '--secret',
    "leave the secret out to print deliveries unverified; to verify the local sandbox's signed deliveries, run listen with SOCIALPUB_API=socialpub",
  );
  return "SyncPostly documents no webhooks: this prints deliveries in socialpub's format (the local sandbox sends them), NOT authenticated; anyone who can reach this port can post fake events.";
}

function announce(ctx: Context, listener: Listener, plan: ListenPlan, out: Output, unverifiedMode?: string): void {
  const stderr = wrappedStderr(ctx);
  const colors = out.colors;
  stderr.write(`${colors.green('Ready!')} Listening for webhook deliveries on ${colors.bold(listener.url)}\n`);
  if (!out.quiet) {
    stderr.write(`  Configure this URL as your workspace's webhook endpoint; for the local sandbox: socialpub sandbox --webhook-url ${listener.url}\n`);
  }
  if (listener.verifying) {
    if (!out.quiet) stderr.write(`  Verifying Standard Webhooks signatures with secret whsec_${maskKey(plan.listener.secret)} (from ${plan.secret.from}).\n`);
  } else if (unverifiedMode) {
    out.warn(unverifiedMode);
  } else {
    out.warn(
      colors.bold('NO SECRET: deliveries are NOT authenticated.') +
        ' Anyone who can reach this port can post fake events. Set SOCIALPUB_WEBHOOK_SECRET or pass --secret-file FILE.',
    );
  }
  if (!isLoopbackHost(listener.host)) {
    out.warn(`listening on ${listener.host}, not loopback: other machines can reach this endpoint and the Host-header guard is off.`);
  }
  if (plan.listener.forwardTo !== undefined && !out.quiet) stderr.write(`  Forwarding each event to ${plan.listener.forwardTo} (the sender is answered first).\n`);
  if (!out.quiet) stderr.write(colors.dim('  Ctrl-C to stop.') + '\n');
}

/** Closes the engine, saying so when forwards are still running (close waits for them). */
async function shutDown(ctx: Context, listener: Listener, plan: ListenPlan, out: Output): Promise<void> {
  const pendingForwards = listener.stats().forwardPending;
  if (pendingForwards > 0) {
    ctx.io.stderr.write(
      out.colors.dim(`waiting up to ${formatDuration(plan.listener.forwardTimeoutMs ?? 0)} for ${pendingForwards} forward(s) to finish (Ctrl-C again to quit now)`) + '\n',
    );
  }
  await listener.close();
}

function exitCodeFor(stop: Stop, plan: ListenPlan): number {
  if (stop.why === 'failed') {
    throw new CliError(`internal error while showing an event: ${stop.error.message}`, { exitCode: EXIT.error, code: 'LISTEN_INTERNAL' });
  }
  if (stop.why === 'timeout') {
    throw new CliError(`no webhook event arrived within ${formatDuration(plan.timeoutMs ?? 0)}`, {
      exitCode: EXIT.error,
      code: 'LISTEN_TIMEOUT',
      hints: ['check that the webhook URL is configured and that the post is scheduled to publish in that window'],
    });
  }
  return stop.why === 'interrupted' ? EXIT.interrupted : EXIT.ok;
}
