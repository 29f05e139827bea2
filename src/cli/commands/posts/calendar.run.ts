// `posts calendar`, run: the scheduled posts, grouped by local day (domain), drawn to the width.
import type { Context } from '../../context.js';
import { UsageError } from '../../cli-error.js';
import { calendarData, calendarRows, parseFrom, renderCalendar, todayIn, type CalendarPost } from '../../../posts/calendar.js';
import type { TableView } from '../../../output/output.js';
import { userZone } from '../../../posts/zone.js';
import { displayWidth } from '../../../output/width.js';
import { wrapLines } from '../../../output/wrap.js';
import type { Post } from '../../../wire/schemas.js';
import type { CalendarFlags } from './calendar.js';
import { dayPostColumns } from '../../../output/day-rows.js';

export async function runCalendar(ctx: Context, flags: CalendarFlags): Promise<number> {
  if (flags.week && flags.month) throw new UsageError('--week and --month cannot be combined', ['pick one view']);
  const now = ctx.clock.now();
  const zone = userZone(ctx.env, flags.tz);
  const from = parseFrom(flags.from, now, zone);
  const client = await ctx.client();
  // Every post with a time (the service cannot filter by time); only those of the period are kept.
  const posts: Post[] = [];
  for await (const post of client.posts.iterate({ status: ['scheduled', 'published', 'failed'] }, { pageSize: 100 })) posts.push(post);
  const data = calendarData(posts, { view: flags.month ? 'month' : 'week', from, zone });
  const out = ctx.output();
  await out.object(data, (shown) =>
    renderCalendar(shown, {
      // To a file or a pipe nothing is cut: cells take the width their posts need.
      width: ctx.io.stdout.isTTY ? (ctx.io.stdout.columns || 80) : Infinity,
      wrap: (text: string, width: number, maxLines: number) => wrapLines(text, width, maxLines),
      today: todayIn(now, zone),
      widthOf: displayWidth,
      ...(out.colors.enabled ? { highlight: (text: string) => out.colors.bold(out.colors.cyan(text)) } : { todayMarker: '*' }),
    }).join('\n'),
    // A spreadsheet wants the posts, not the drawing: -o csv prints one row per post under a
    // header, as every list does. Piped (TSV) the calendar stays drawn, whole, for a file.
    { pageable: true, fields: [], rows: { rows: calendarRows(data), view: CALENDAR_ROWS, formats: ['csv'] } },
  );
  return 0;
}

const CALENDAR_ROWS: TableView<CalendarPost & { date: string }> = {
  kind: 'table',
  columns: [...dayPostColumns<CalendarPost & { date: string }>(), { header: 'status', field: 'status', value: (r) => r.status }, { header: 'title', field: 'title', value: (r) => r.title }],
  id: (r) => r.id,
};
