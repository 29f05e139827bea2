// `socialpub api`: the raw escape hatch. Any path of the service, through the same client as every
// other command (authenticated, retried, idempotent); the body of the answer on stdout.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action, type FlagsOf } from '../../action.js';
import { collect } from '../../flags/text.js';


export type ApiFlags = FlagsOf<typeof apiCommand>;

function apiCommand(program: CommandUnknownOpts) {
  return program
    .command('api')
    .usage('[-X METHOD] <path> [-f key=value]... [--input FILE] [--paginate] [--idempotency-key K] [--dry-run]')
    .summary('call any API path: authenticated, retried and idempotent like every command')
    .description(
      'Sends one request to the service with the profile\'s key and prints the response body: pretty JSON on a terminal, compact JSON when piped (or as --output asks). The method is GET unless -X says otherwise. With GET, each -f key=value is a query parameter (repeat a key for an array: -f post_id=a -f post_id=b); with other methods the fields form a JSON body (values that parse as JSON are sent as JSON, others as strings), or, with --input, they become query parameters. --paginate follows offset/limit to the end and prints one JSON array of every row. Every POST carries an Idempotency-Key (yours, or a new one), reused on each retry. --dry-run prints the exact request, key masked, and sends nothing.',
    )
    .argument('<path>', 'a path under the base URL (/api/v1/post-results) or a full URL on the same host')
    .option('-X, --method <method>', 'GET, POST, PUT, PATCH or DELETE', 'GET')
    .option('-f, --field <key=value>', 'query parameter (GET) or JSON body field; repeatable', collect)
    .option('--input <file>', 'the request body from a file, or - for stdin')
    .option('--paginate', 'GET every page (offset/limit) and print one JSON array of all rows')
    .option('--idempotency-key <key>', 'Idempotency-Key of a POST (default: a new UUID per run)')
    .option('--dry-run', 'print the exact request (key masked) and send nothing')
    .addHelpText(
      'after',
      `
Examples:
  socialpub api /api/v1/post-results -f limit=5 -f platform=bluesky
  socialpub api /api/v1/post-results --paginate -f post_id=post_01HZX2 > r.json
  socialpub api -X POST /v1/posts --input post.json --idempotency-key launch-1
  socialpub api -X POST /v1/schedule -f postId=post_01HZX2 \\
    -f scheduledAt=2026-12-01T09:00:00Z --dry-run`,
    );
}

export function defineApi(program: CommandUnknownOpts, ctx: Context): void {
  apiCommand(program).action(
    action(ctx, async (path, opts) => (await import('./run.js')).runApi(ctx, path, opts)),
  );
}
