// `socialpub results retry <post-id>`: a new post carrying only the targets that failed.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action, type FlagsOf } from '../../action.js';
import { collect } from '../../flags/text.js';

export type RetryFlags = FlagsOf<typeof retryCommand>;

function retryCommand(results: CommandUnknownOpts) {
  return results
    .command('retry')
    .argument('<post-id>', 'the post whose failed targets to send again')
    .summary('send the failed targets of a post again, as a new post')
    .description(
      "For support staff once the cause is fixed (a token re-connected, media replaced): creates a new post with the original payloads of the targets whose latest result failed, as a draft, or scheduled with --at. Its idempotency key is derived from the post id and those targets, so running it twice (or a CI re-run) gives the same new post; --idempotency-key overrides it. --platform narrows to some of the failed targets; --dry-run shows what would be sent. The service has no single-post endpoint: the post is found through the post list (failed posts first), so a very old post takes longer to find. Exits 2 when nothing failed.",
    )
    .option('--at <time>', 'schedule the new post: RFC 3339, "YYYY-MM-DD HH:MM" (in --tz), +30m, +2h, +1d (default: a draft)')
    .option('--tz <zone>', "IANA zone for a local --at and for display (default: this machine's zone)")
    .option('--platform <id>', 'only these of the failed platforms (repeatable or comma-separated)', collect)
    .option('--include-unhealthy', 'also retry targets whose account is expired or disconnected (they fail again until it is reconnected)')
    .option('--idempotency-key <key>', 'a key of your own instead of the derived one')
    .option('--dry-run', 'show the new post and the exact request; send nothing')
    .addHelpText(
      'after',
      `
Examples:
  socialpub results retry post_01HZX2
  socialpub results retry post_01HZX2 --platform instagram --at +1d
  socialpub results retry post_01HZX2 --dry-run`,
    );
}

export function defineRetry(results: CommandUnknownOpts, ctx: Context): void {
  retryCommand(results).action(
    action(ctx, async (postId, flags) => (await import('./retry.run.js')).runRetry(ctx, postId, flags)),
  );
}
