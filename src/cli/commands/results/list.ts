// `socialpub results list`: page through post results with filters, or stream them all.
import { Option, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action, type FlagsOf } from '../../action.js';
import { collect } from '../../flags/text.js';
import { FLAG_DEFAULTS } from '../../flags/index.js';

export type ListFlags = FlagsOf<typeof listCommand>;

function listCommand(results: CommandUnknownOpts) {
  return results
    .command('list')
    .summary('list post results, newest first, with filters')
    .description(
      `Lists post results in the service's order (newest first). --post and --platform filter on the service; --failed and --succeeded filter while paging, so --failed --limit 20 keeps reading until it has 20 failures or the list ends. --limit counts printed rows (default ${FLAG_DEFAULTS.limit}); --all streams every row in constant memory with a few pages in flight, in order and without duplicates even while new results arrive. --follow keeps printing new results, oldest first within each poll, until Ctrl-C (exit 130) or SIGTERM (exit 143); the pause between polls spreads the rate limit's remaining requests over its window (2–30 s).`,
    )
    .option('--post <id>', 'only results of this post (repeatable or comma-separated)', collect)
    .option('--platform <id>', 'only results for this platform (repeatable or comma-separated)', collect)
    .option('--account <ref>', 'only results of these accounts: an id, @handle or platform:@handle (repeatable or comma-separated)', collect)
    .option('--code <code>', 'only failures with this error code (repeatable or comma-separated)', collect)
    .addOption(new Option('--failed', 'only failures').conflicts('succeeded'))
    .addOption(new Option('--succeeded', 'only successes').conflicts('failed'))
    .option('--offset <n>', 'start at this row of the list (default 0)')
    .option('--limit <n>', `rows to print (default ${FLAG_DEFAULTS.limit})`)
    .addOption(new Option('--all', 'every row, streamed').conflicts('limit'))
    .option('--since <when>', 'only results since then: a duration back from now (48h, 7d) or a time (RFC 3339, or "YYYY-MM-DD [HH:MM]" in --tz); paging stops at the first page older than it')
    .option('--until <time>', 'only results before this time (RFC 3339, or "YYYY-MM-DD [HH:MM]" in --tz)')
    .option('--tz <zone>', "IANA zone for local --since/--until times (default: this machine's)")
    .option('--follow', 'keep printing new results as they arrive (polling the newest page, as often as the rate limit allows) until Ctrl-C; --limit N prints the N newest first')
    .option('--concurrency <n>', `pages in flight with --all or a filter (1–${FLAG_DEFAULTS.maxConcurrency}, default ${FLAG_DEFAULTS.concurrency})`)
    .addHelpText(
      'after',
      `
Examples:
  socialpub results list --post post_01HZX2
  socialpub results list --failed --platform instagram,tiktok --limit 50
  socialpub results list --follow --failed   # watch failures as they happen
  socialpub results list --code MEDIA_REJECTED,API_RATE_LIMIT --since 24h --all`,
    );
}

export function defineList(results: CommandUnknownOpts, ctx: Context): void {
  listCommand(results).action(
    action(ctx, async (flags) => (await import('./list.run.js')).runList(ctx, flags)),
  );
}

