// `socialpub posts calendar`: the scheduled posts of a week or a month, on a grid in the user's zone.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action, type FlagsOf } from '../../action.js';

export type CalendarFlags = FlagsOf<typeof calendarCommand>;

function calendarCommand(posts: CommandUnknownOpts) {
  return posts
    .command('calendar')
    .summary('show the posts of a week or a month on a calendar')
    .description(
      "Draws the posts of a week (days as columns, times as rows; the default) or a month (a grid) in your zone (--tz, else TZ, else this machine's), fitted to the terminal, today highlighted: the scheduled ones, and those already published (✓) or failed (✗). Each post shows its platforms (short names, explained under the grid) and its title or text over up to three lines. An empty week says so and names the next scheduled post. Printed to a file, nothing is cut. --json prints the same posts grouped by local day; -o csv one row per post, for a spreadsheet. Weeks run Monday to Sunday. For an iCalendar file: posts list -o ics.",
    )
    .option('--week', 'the week holding --from (the default)')
    .option('--month', 'the month holding --from')
    .option('--from <date>', 'a day in the week or month to show (YYYY-MM-DD, tomorrow, fri, or a time as posts queue --from takes it), a month (YYYY-MM), or +1w / -1w / +3d from today (default: today)')
    .option('--tz <zone>', "IANA zone to draw the calendar in (default: this machine's)")
    .addHelpText(
      'after',
      `
Examples:
  socialpub posts calendar
  socialpub posts calendar --month --tz Europe/Paris
  socialpub posts calendar --from 2026-12-07 --json`,
    );
}

export function defineCalendar(posts: CommandUnknownOpts, ctx: Context): void {
  calendarCommand(posts).action(
    action(ctx, async (flags) => (await import('./calendar.run.js')).runCalendar(ctx, flags)),
  );
}
