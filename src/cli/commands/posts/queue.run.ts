// `posts queue`, run: reads the scheduled posts page by page, keeps the window's earliest (bounded,
// see posts/queue.ts), and prints them by local day: the time, the platforms and the text on one
// line cut to the terminal's width; piped, TSV or CSV, one post per row as every list.
import type { Context } from '../../context.js';
import { UsageError } from '../../cli-error.js';
import type { Colors } from '../../../output/colors.js';
import { cutToWidth, displayWidth, padToWidth } from '../../../output/width.js';
import { formatCount, formatLocal } from '../../../output/time.js';
import { windowEdge } from '../../../posts/window-edge.js';
import { QUEUE_CAP, QueueWindow, queueData, type QueueData, type QueuedPost } from '../../../posts/queue.js';
import { userZone } from '../../../posts/zone.js';
import { lateness, overdueBy } from '../../../posts/outcome.js';
import { visibleLine } from '../../../output/terminal-safe.js';
import { oneLine } from '../../../output/wrap.js';

import type { QueueFlags } from './manage.js';
import { dayPostColumns } from '../../../output/day-rows.js';
import type { TableView } from '../../../output/output.js';
import { icsEvent, icsFooter, icsHeader } from '../../../posts/ics.js';
import type { Post } from '../../../wire/schemas.js';
import { shellWord } from '../../shell-word.js';

const WEEK_MS = 7 * 86_400_000;

export async function runQueue(ctx: Context, opts: QueueFlags): Promise<number> {
  const now = ctx.clock.now();
  const zone = userZone(ctx.env, opts.tz);
  const from = opts.from !== undefined ? windowEdge(opts.from, '--from', now, zone) : now;
  const to = opts.to !== undefined ? windowEdge(opts.to, '--to', now, zone, true) : from + WEEK_MS;
  if (to <= from) throw new UsageError(`--to (${new Date(to).toISOString()}) is not after --from (${new Date(from).toISOString()})`, ['give a later --to, e.g. --to +7d']);
  const client = await ctx.client();
  const window = new QueueWindow(from, to);
  // Still scheduled well past their time: no longer in a window from now, and exactly what support must see.
  const overdue: Array<{ id: string; late: number }> = [];
  for await (const page of client.posts.pages({ status: ['scheduled'] }, { pageSize: 100, concurrency: 2 })) {
    for (const post of page) {
      window.offer(post);
      const late = overdueBy(post, now);
      if (late !== undefined) overdue.push({ id: post.id, late });
    }
  }
  const data = queueData(window, zone);
  const out = ctx.output();
  const width = ctx.io.stdout.isTTY ? Math.max(30, ctx.io.stdout.columns || 80) : Infinity;
  // -o ics: the window as a calendar, each event the post as the service holds it.
  const posts = new Map(window.sorted().map((p) => [p.id, p]));
  const view = queueView((id) => posts.get(id), now);
  await out.object(data, (shown) => renderQueue(shown, width, out.colors), { pageable: true, fields: [], rows: { rows: queueRows(data), view } });
  overdue.sort((a, b) => b.late - a.late);
  for (const o of overdue.slice(0, 10)) out.warn(visibleLine(`overdue: ${o.id} is still scheduled ${lateness(o.late)} after its time, without results; look at it: socialpub posts view ${shellWord(o.id)}`));
  if (overdue.length > 10) out.warn(`${overdue.length - 10} more scheduled posts are overdue: socialpub posts list --status scheduled`);
  if (data.total > data.shown) {
    // In every format: a TSV, CSV or JSON file must not pass for the whole window either.
    const text = `showing the first ${formatCount(data.shown)} of ${formatCount(data.total)} scheduled posts in the window (at most ${formatCount(QUEUE_CAP)}); narrow it with --to`;
    out.footer(text);
    out.cut(text);
  }
  return 0;
}

export function renderQueue(data: QueueData, width: number, c: Colors): string {
  const range = `${formatLocal(data.from, data.zone)} → ${formatLocal(data.to, data.zone)}`;
  if (data.days.length === 0) return c.dim(summary(`nothing scheduled from ${range}`, data.zone, width));
  const all = data.days.flatMap((d) => d.posts);
  // The platforms column: the lists as they are, or "4 platforms" where a list would take more
  // than a third of the line; as wide as the widest of those.
  const most = Math.max(11, Math.floor((width - 9) / 3));
  const shown = new Map(all.map((p) => [p, platformsText(p.platforms, most)]));
  const platformWidth = Math.max(...[...shown.values()].map(displayWidth));
  const idWidth = Math.max(...all.map((p) => displayWidth(p.id)));
  const lines: string[] = [];
  for (const day of data.days) {
    lines.push(c.bold(`${day.weekday} ${day.date}`));
    for (const p of day.posts) lines.push(...row(p, shown.get(p)!, { idWidth, platformWidth, width }, c));
  }
  lines.push(c.dim(summary(`${formatCount(data.total)} scheduled · ${range}`, data.zone, width)));
  return lines.join('\n');
}

/**
 * "32 scheduled · <from> → <to> (America/New_York)": the zone's name gives way first when the line is
 * short of room (each time already ends in the zone's abbreviation), rather than being cut to "(…".
 */
function summary(text: string, zone: string, width: number): string {
  const full = `${text} (${zone})`;
  return displayWidth(full) <= width ? full : oneLine(text, width);
}

function platformsText(platforms: readonly string[], most: number): string {
  const list = platforms.join(',');
  if (displayWidth(list) <= most) return list;
  return platforms.length > 1 ? `${platforms.length} platforms` : oneLine(list, most);
}

/** Narrower than this, the text goes under its post's line rather than being cut to a word or two. */
const TEXT_ROOM = 20;

/**
 * "  09:00  post_8f2k1  bluesky,threads  The text…": the id, so that a post seen in the queue can
 * be viewed, edited or moved next. Short of room, the text on a line of its own under it.
 */
function row(p: QueuedPost, platforms: string, w: { idWidth: number; platformWidth: number; width: number }, c: Colors): string[] {
  const head = `  ${p.time}  ${padToWidth(p.id, w.idWidth)}  ${padToWidth(platforms, w.platformWidth)}  `;
  const text = p.text || p.title || '';
  const time = c.cyan(head.slice(0, 9));
  if (w.width === Infinity) return [`${time}${head.slice(9)}${text.replace(/\s+/g, ' ').trim()}`];
  const room = w.width - displayWidth(head);
  if (room >= TEXT_ROOM) return [`${time}${head.slice(9)}${oneLine(text, room)}`];
  return [`${time}${cutToWidth(head.slice(9).trimEnd(), w.width - 9)}`, `${' '.repeat(9)}${oneLine(text, w.width - 9)}`];
}

/** A queued post as a TSV or CSV row: its local day and time beside the UTC time a script compares. */
interface QueueRow extends QueuedPost {
  date: string;
}

function* queueRows(data: QueueData): Generator<QueueRow> {
  for (const day of data.days) for (const post of day.posts) yield { ...post, date: day.date };
}

function queueView(postOf: (id: string) => Post | undefined, now: number): TableView<QueueRow> {
  return {
    kind: 'table',
    columns: [...dayPostColumns<QueueRow>(), { header: 'headline', field: 'headline', value: (r) => r.title || r.text }],
    id: (r) => r.id,
    calendar: {
      header: () => icsHeader(),
      event: (r) => {
        const post = postOf(r.id);
        return post ? icsEvent(post, { now }) : undefined;
      },
      footer: icsFooter,
    },
  };
}
