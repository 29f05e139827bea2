// Runs `listen`: starts the engine, renders its events in arrival order, and stops on
// --max-events (exit 0), --timeout without a new event (exit 1) or Ctrl-C (exit 130), always
// with a summary on stderr. Event lines are written synchronously from the engine's emit, so
// what is printed keeps the order in which deliveries arrived.
import { closeSync, openSync, writeSync } from 'node:fs';
import { CliError, UsageError, EXIT } from '../../cli-error.js';
import type { Context } from '../../context.js';
import { formatDuration } from '../../duration.js';
import { maskKey } from '../../../config/resolve.js';
import { isLoopbackHost, ListenerStartError, startListener } from '../../../listen/index.js';
import type { DeliveryEvent, Listener } from '../../../listen/types.js';
import { planListen, type ListenFlags } from './flags.js';
import {
  duplicateLine,
  eventLine,
  forwardedLine,
  forwardFailedLine,
  ndjsonLine,
  rejectedLine,
  summaryLine,
  type LineFormat,
} from './render.js';

type Stop = 'max-events' | 'timeout' | 'interrupted';

async function start(ctx: Context, plan: ReturnType<typeof planListen>): Promise<Listener> {
  try {
    return await startListener({ ...plan.listener, clock: ctx.clock });
  } catch (err) {
    if (!(err instanceof ListenerStartError)) throw err;
    if (err.code === 'EINVAL') throw new UsageError(err.message, plan.secretSource === 'env' ? ['check SOCIALPUB_WEBHOOK_SECRET'] : []);
    const hints = err.code === 'EADDRINUSE' ? ['pick another port with --port N, or --port 0 for any free port'] : [];
    throw new CliError(err.message, { exitCode: EXIT.error, hints, code: err.code });
  }
}

function openLog(file: string): number {
  try {
    return openSync(file, 'a');
  } catch (err) {
    throw new CliError(`cannot open --log file ${file}: ${(err as Error).message}`, { exitCode: EXIT.usage, code: 'LOG_FILE' });
  }
}

export async function runListen(ctx: Context, flags: ListenFlags): Promise<number> {
  const plan = planListen(flags, ctx.env);
  const out = ctx.output();
  const colors = out.colors;
  const stderr = ctx.io.stderr;
  const format: LineFormat = out.format === 'json' || out.format === 'ndjson' ? 'ndjson' : out.format === 'tsv' ? 'tsv' : 'terminal';

  const logFd = plan.logFile === undefined ? undefined : openLog(plan.logFile);
  if (logFd !== undefined) ctx.onExit(() => closeSync(logFd));

  const listener = await start(ctx, plan);
  ctx.onExit(() => listener.close());
  const forwarding = plan.listener.forwardTo !== undefined;

  // Lines are collected and written once per event-loop turn: under load many deliveries land
  // in one turn, and one write per event would cost more than everything else per event. Order
  // is kept; --log still gets one flushed write per event.
  let pending = '';
  let flushScheduled = false;
  const flush = () => {
    flushScheduled = false;
    if (pending === '') return;
    const chunk = pending;
    pending = '';
    ctx.io.stdout.write(chunk);
  };
  const print = (line: string) => {
    pending += line;
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(flush);
    }
  };

  let printed = 0;
  let stop: (why: Stop) => void = () => {};
  const stopped = new Promise<Stop>((resolve) => {
    let done = false;
    stop = (why) => {
      if (done) return;
      done = true;
      resolve(why);
    };
  });

  // --timeout is an idle limit: it restarts with every printed event.
  let idle: AbortController | undefined;
  const armTimeout = () => {
    if (plan.timeoutMs === undefined) return;
    idle?.abort();
    const controller = (idle = new AbortController());
    ctx.clock.sleep(plan.timeoutMs, controller.signal).then(
      () => stop('timeout'),
      () => {},
    );
  };

  listener.on('event', (e: DeliveryEvent) => {
    if (plan.maxEvents !== undefined && printed >= plan.maxEvents) return;
    printed++;
    const line = eventLine(format, e, colors);
    print(line);
    if (logFd !== undefined) writeSync(logFd, format === 'ndjson' ? line : ndjsonLine(e));
    if (plan.maxEvents !== undefined && printed >= plan.maxEvents) stop('max-events');
    else armTimeout();
  });
  listener.on('duplicate', (d) => {
    if (!out.quiet) stderr.write(duplicateLine(d.webhookId, colors));
  });
  listener.on('rejected', (r) => void stderr.write(rejectedLine(r, colors)));
  listener.on('forwarded', (f) => void stderr.write(forwardedLine(f, colors)));
  listener.on('forward-failed', (f) => void stderr.write(forwardFailedLine(f, colors)));

  // The ready message: the URL, what to do with it, and what is (not) checked.
  stderr.write(`${colors.green('Ready!')} Listening for webhook deliveries on ${colors.bold(listener.url)}\n`);
  if (!out.quiet) {
    stderr.write(`  Configure this URL as your workspace's webhook endpoint; for the local sandbox: socialpub sandbox --webhook-url ${listener.url}\n`);
  }
  if (listener.verifying) {
    if (!out.quiet) stderr.write(`  Verifying Standard Webhooks signatures with secret whsec_${maskKey(plan.listener.secret)} (from ${plan.secretSource === 'env' ? 'SOCIALPUB_WEBHOOK_SECRET' : '--secret'}).\n`);
  } else {
    out.warn(
      colors.bold('NO SECRET: deliveries are NOT authenticated.') +
        ' Anyone who can reach this port can post fake events. Pass --secret whsec_… or set SOCIALPUB_WEBHOOK_SECRET.',
    );
  }
  if (!isLoopbackHost(listener.host)) {
    out.warn(`listening on ${listener.host}, not loopback: other machines can reach this endpoint and the Host-header guard is off.`);
  }
  if (forwarding && !out.quiet) stderr.write(`  Forwarding each event to ${plan.listener.forwardTo} (the sender is answered first).\n`);
  if (!out.quiet) stderr.write(colors.dim('  Ctrl-C to stop.') + '\n');

  const onAbort = () => stop('interrupted');
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener('abort', onAbort, { once: true });
  armTimeout();

  const why = await stopped;
  ctx.signal.removeEventListener('abort', onAbort);
  idle?.abort();
  const pendingForwards = listener.stats().forwardPending;
  if (pendingForwards > 0) {
    stderr.write(colors.dim(`waiting up to ${formatDuration(plan.listener.forwardTimeoutMs ?? 0)} for ${pendingForwards} forward(s) to finish (Ctrl-C again to quit now)`) + '\n');
  }
  await listener.close();
  flush();
  stderr.write(summaryLine(listener.stats(), printed, forwarding));

  if (why === 'timeout') {
    throw new CliError(`no webhook event arrived within ${formatDuration(plan.timeoutMs ?? 0)}`, {
      exitCode: EXIT.error,
      code: 'LISTEN_TIMEOUT',
      hints: ['check that the webhook URL is configured and that the post is scheduled to publish in that window'],
    });
  }
  return why === 'interrupted' ? EXIT.interrupted : EXIT.ok;
}
