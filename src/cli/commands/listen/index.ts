// `socialpub listen`: a local webhook endpoint that verifies and tails deliveries. Only the
// definition lives here; the engine and renderer load when the command runs.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { action, type FlagsOf } from '../../action.js';
import type { Context } from '../../context.js';
import { collect } from '../../flags/text.js';


export type ListenFlags = FlagsOf<typeof listenCommand>;

function listenCommand(program: CommandUnknownOpts) {
  return program
    .command('listen')
    .summary('receive webhook deliveries locally, verify them and print one line per event')
    .description(
      'Runs a local HTTP endpoint for the service\'s webhook deliveries (publish results), checks each ' +
        'Standard Webhooks signature against the secret (SOCIALPUB_WEBHOOK_SECRET or --secret-file), drops retried duplicates, and prints every event ' +
        'once, in arrival order: a line per event on a terminal, NDJSON with --output ndjson or --json. ' +
        'Optionally forwards each event unchanged to a local app (--forward-to). Stops after --max-events, ' +
        'after --timeout without an event (exit 1), or on Ctrl-C, with a summary on stderr.',
    )
    .option('--port <n>', 'port to listen on (0 = any free port)', '4567')
    .option('--host <host>', 'address to bind; anything but loopback exposes the endpoint to the network', '127.0.0.1')
    .option('--path <path>', 'path deliveries are posted to', '/webhooks')
    .option('--secret-file <file>', 'read the webhook signing secret from this file (or set SOCIALPUB_WEBHOOK_SECRET); without one nothing is verified')
    .option('--secret <whsec>', 'the secret itself: works, but other users see it in `ps` (warns); prefer --secret-file or the environment')
    .option('--forward-to <url>', 'forward each accepted event (raw body and signature headers) to this local URL')
    .option('--forward-timeout <duration>', 'time allowed per forward attempt', '10s')
    .option('--forward-retries <n>', 'retries of a forward on network errors, timeouts, 408, 429 and 5xx', '2')
    .option('--platform <id>', 'only events of this platform (repeatable or comma-separated)', collect)
    .option('--status <status>', 'only events with this status, e.g. failed (repeatable or comma-separated)', collect)
    .option('--max-events <n>', 'exit 0 after printing this many events')
    .option('--timeout <duration>', 'exit 1 when this long passes without a new event')
    .option('--log <file>', 'also append every printed event as NDJSON to this file (flushed per event)')
    .addHelpText(
      'after',
      `
Examples:
  socialpub listen               # the secret from SOCIALPUB_WEBHOOK_SECRET
  socialpub listen --port 0 --json --max-events 3 --timeout 2m > events.ndjson
  socialpub listen --secret-file ./webhook-secret --status failed \\
    --forward-to http://localhost:3000/webhooks
  # in another terminal:
  socialpub sandbox --webhook-url http://127.0.0.1:4567/webhooks`,
    );
}

export function defineListen(program: CommandUnknownOpts, ctx: Context): void {
  listenCommand(program).action(
    action(ctx, async (flags) => {
      // The global --timeout (per API request) shares the name and commander hands the value to
      // it when written before `listen`; listen makes no API requests, so it means the idle limit.
      if (flags.timeout === undefined && ctx.globals.timeoutGiven) flags.timeout = `${ctx.globals.timeoutMs}ms`;
      return (await import('./run.js')).runListen(ctx, flags);
    }),
  );
}
