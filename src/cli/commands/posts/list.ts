// `socialpub posts list`: posts by status, newest first; a table on a terminal, TSV when piped,
// the API's rows unchanged under --json / --output ndjson. --all streams in constant memory.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action, type FlagsOf } from '../../action.js';
import { collect } from '../../flags/text.js';
import { FLAG_DEFAULTS } from '../../flags/index.js';

export type ListFlags = FlagsOf<typeof listCommand>;

function listCommand(posts: CommandUnknownOpts) {
  return posts
    .command('list')
    .summary('list posts, filtered by status')
    .description(
      `List posts newest first. --limit is how many rows to print (default ${FLAG_DEFAULTS.limit}); pages of up to 100 are fetched as ` +
        'needed. --all streams every post in constant memory. On a terminal: a table with coloured statuses and ' +
        'times in your zone, and a footer on stderr with the next --offset; piped: TSV with RFC 3339 times. ' +
        '-o ics prints the scheduled posts as an iCalendar file for a calendar app.',
    )
    .option('--status <status>', "draft, scheduled, published or failed (repeatable or comma-separated); processing too in SyncPostly's API", collect)
    .option('--limit <n>', 'rows to print')
    .option('--offset <n>', 'rows to skip first')
    .option('--all', 'every post (streams)')
    .option('--tz <zone>', "IANA zone the times are shown in on a terminal (default: this machine's)")
    .addHelpText(
      'after',
      `
Examples:
  socialpub posts list
  socialpub posts list --status failed,published --limit 50 --tz Europe/Paris
  socialpub posts list --status scheduled --all -o ndjson > scheduled.ndjson
  socialpub posts list --status scheduled --all -o ics > scheduled.ics`,
    );
}

export function defineList(posts: CommandUnknownOpts, ctx: Context): void {
  listCommand(posts).action(
    action(ctx, async (opts) => (await import('./list.run.js')).runList(ctx, opts)),
  );
}
