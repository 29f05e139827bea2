// `socialpub sandbox`: the local service. Only the definition lives here; the sandbox (an HTTP
// server, fixtures, the publisher) loads when the command runs.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { action, type FlagsOf } from '../../action.js';
import type { Context } from '../../context.js';

export type SandboxFlags = FlagsOf<typeof sandboxCommand>;

function sandboxCommand(program: CommandUnknownOpts) {
  return program
    .command('sandbox')
    .summary('run a local, faithful sandbox of the service (no account needed)')
    .description(
      'Runs the Social Publishing Service locally: every endpoint, keys scoped to three built-in ' +
        'workspaces (demo and other with the API add-on, lapsed without), rate limits, idempotency keys, ' +
        'a publisher that publishes scheduled posts when their time comes (outcomes seeded and reproducible) ' +
        'and signed webhook deliveries with retries. With --json (global) it prints one JSON line on stdout ' +
        'when ready, with the base URL, the full keys and the webhook secret; the banner on stderr shows keys ' +
        'masked. A browser at the base URL gets a dashboard of every workspace (posts, results, webhook ' +
        'deliveries, the request log, fault settings), live; off loopback (--host) it asks for a token the banner ' +
        'prints. GET /openapi.json is the contract as OpenAPI 3.1. Ctrl-C stops it (exit 0).',
    )
    .option('--port <n>', 'port to listen on (0 = any free port)', '8787')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--write-profile [name]', 'save a profile (default "sandbox") with this base URL and the demo key; a webhook secret the sandbox generated goes beside it in NAME.webhook-secret (0600) for listen --secret-file')
    .option('--data <file>', 'keep state, keys included, in this SQLite database across restarts (default: in memory); beside it FILE.media/ for uploads, and FILE.lock while it runs: one sandbox per database')
    .option('--seed <n>', 'make keys, ids, outcomes, failures and chaos reproducible')
    .option('--failure-rate <r>', 'share of targets that fail to publish (0..1 or a percentage)', '0.2')
    .option('--write-limit <n>', 'write requests per workspace per hour', '100')
    .option('--read-limit <n>', 'read requests per workspace per hour', '10000')
    .option('--webhook-url <url>', 'deliver a signed webhook per result to this URL')
    .option('--webhook-secret-file <file>', 'read the secret to sign deliveries with from this file (or set SOCIALPUB_WEBHOOK_SECRET; default: generated)')
    .option('--webhook-secret <whsec>', 'the secret itself: works, but other users see it in `ps` (warns); prefer the file or the environment')
    .option('--fixtures <n>', 'pre-load N results of published posts into the demo workspace', '0')
    .option('--accounts <n>', 'give the demo workspace at least N accounts at its first start (12 are seeded); while it runs, `socialpub api -X POST /sandbox/accounts/ID/expire` (or disconnect, reconnect) changes one')
    .option('--latency <duration>', 'add this delay to every response (stands in for a remote service)', '0ms')
    .option('--chaos <r>', 'probability per request of a fault: 500, reset, lost response, 429, slow response', '0')
    .option('--chaos-slow <duration>', 'how late the "slow" fault answers (past the client\'s timeout)', '35s')
    .addHelpText(
      'after',
      `
Examples:
  socialpub sandbox --write-profile   # then: socialpub -p sandbox posts list
  socialpub sandbox --port 0 --json --seed 42 > ready.json
  socialpub sandbox --data ./sandbox.db \\
    --webhook-url http://127.0.0.1:4567/webhooks
  socialpub sandbox --fixtures 1000000 --latency 20ms --chaos 0.05`,
    );
}

export function defineSandbox(program: CommandUnknownOpts, ctx: Context): void {
  sandboxCommand(program).action(
    action(ctx, async (flags) => (await import('./run.js')).runSandbox(ctx, flags)),
  );
}
