// `socialpub results stats`: counts of the selected results, grouped, with a bar per group.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action, type FlagsOf } from '../../action.js';
import { collect } from '../../flags/text.js';

export type StatsFlags = FlagsOf<typeof statsCommand>;

function statsCommand(results: CommandUnknownOpts) {
  return results
    .command('stats')
    .summary('count results by platform, error code, account, post or day, with a bar per group')
    .description(
      'Counts the selected results (the filters of `results list`, and --since/--until over event times) grouped by platform (default), error code (successes as their own group), account (with its username), post or day (in --tz), or by two of them (--by platform,code): total, succeeded, failed and failure rate, sorted by failures (days in time order). On a terminal: a table with a bar per group (every group gets at least one cell) and a total under it; piped: TSV with a header row; --json: { total, succeeded, failed, groups: [{ key, total, succeeded, failed }] }, where grouped by two each group also names both values (platform, code), and by account its username. It streams: memory grows with the number of groups, not with the rows.',
    )
    .option('--by <key>', 'group by platform, code, account, post or day, or two of them with a comma (platform,code) (default: platform)')
    .option('--post <id>', 'only results of this post (repeatable or comma-separated)', collect)
    .option('--platform <id>', 'only results for this platform (repeatable or comma-separated)', collect)
    .option('--account <ref>', 'only results of these accounts: an id, @handle or platform:@handle (repeatable or comma-separated)', collect)
    .option('--code <code>', 'only failures with this error code (repeatable or comma-separated)', collect)
    .option('--since <when>', 'only results since then: a duration back from now (48h, 7d) or a time')
    .option('--until <time>', 'only results before this time')
    .option('--tz <zone>', "IANA zone for local --since/--until times and the days of --by day (default: this machine's)")
    .addHelpText(
      'after',
      `
Examples:
  socialpub results stats --since 7d
  # what failed on Instagram this week, and why:
  socialpub results stats --platform instagram --since 7d --by code
  socialpub results stats --by platform,code --since 24h   # which error, where
  socialpub results stats --by account --json | jq '.groups[0]'`,
    );
}

export function defineStats(results: CommandUnknownOpts, ctx: Context): void {
  statsCommand(results).action(
    action(ctx, async (flags) => (await import('./stats.run.js')).runStats(ctx, flags)),
  );
}
