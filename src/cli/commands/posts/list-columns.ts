// Columns of `posts list`: plain values for TSV, colour and relative times on a terminal.
import { firstText, headline, postStatusText } from '../../../posts/outcome.js';
import type { Column } from '../../../output/writers.js';
import type { TableView } from '../../../output/output.js';
import { icsEvent, icsFooter, icsHeader } from '../../../posts/ics.js';
import { fieldsOf } from '../../../output/fields-of.js';
import type { Colors } from '../../../output/colors.js';
import { formatCount, formatLocal, formatRelative } from '../../../output/time.js';
import type { Post } from '../../../wire/schemas.js';
import { visible } from '../../../output/terminal-safe.js';

/** The overdue part of a status in yellow: a post support should look at. */
const overdueMark = (text: string, c: Colors) => text.replace(/ · overdue( by .*)?$/, (m) => c.yellow(m));

export function statusColor(status: string, c: Colors): string {
  switch (status) {
    case 'published':
      return c.green(status);
    case 'failed':
      return c.red(status);
    case 'scheduled':
      return c.cyan(status);
    case 'draft':
      return c.gray(status);
    default:
      return c.yellow(status);
  }
}

/** The platforms of a post, as text: they are the payloads' keys, which rows made safe for a terminal keep as they came. */
const platformsOf = (p: Post) => Object.keys(p.payloads ?? {}).map(visible);
const platformList = (p: Post) => platformsOf(p).join(',');


/** "2026-12-01 09:00" in the zone (the zone's name is left to the header and --tz). */
const localDate = (iso: string, zone: string | undefined) => formatLocal(iso, zone).replace(/ \S+$/, '');

/**
 * `statuses`: the ones listed (none: all). Short of room, when every post listed has a time
 * (scheduled, published, failed) the time stays before the platforms, as a week's plan is read by
 * when; a status every row shares (one status listed) goes first. The text outlives the platform
 * list (and, one status listed, the id): posts that cannot be told apart cannot be picked.
 * With room, the platforms are named rather than counted.
 */
export function postColumns(now: number, zone?: string, statuses: readonly string[] = []): Column<Post>[] {
  const timeFirst = statuses.length > 0 && !statuses.includes('draft');
  const sameStatus = statuses.length === 1;
  return [
    // priority: lower is more important. The time goes before the platforms (a count, when
    // narrow), which say where a post goes; long platform lists become counts before text is cut.
    { header: 'id', field: 'id', value: (p) => p.id, priority: sameStatus ? 1 : 0, shrink: 'never' },
    {
      header: 'status',
      field: 'status',
      // Scripts compare the status itself; the partial outcome is for people.
      value: (p) => p.status,
      pretty: (p, c) => overdueMark(postStatusText(p, now).replace(p.status, statusColor(p.status, c)), c),
      // Short of room: "failed 3/5", "scheduled overdue".
      compact: (p, c) => overdueMark(postStatusText(p, now).replace(p.status, statusColor(p.status, c)).replace(/ · (\d+\/\d+) published$/, ' $1').replace(/ · overdue by .*$/, ' · overdue'), c),
      priority: sameStatus ? 5 : 1,
      // Every row says the same: it gives way whole before the platforms' names are counted.
      optional: sameStatus,
      minWidth: 9,
    },
    {
      header: 'platforms',
      field: 'platforms',
      value: platformList,
      compact: (p) => {
        const platforms = platformsOf(p);
        return platforms.length === 1 ? platforms[0]! : `${platforms.length} platforms`;
      },
      // Four or five names fit at 120 columns; "3 platforms" only when they would be cut.
      maxWidth: 48,
      priority: timeFirst ? 4 : 3,
    },
    {
      header: 'scheduled',
      field: 'scheduledAt',
      priority: timeFirst ? 2 : 4,
      minWidth: 11,
      value: (p) => p.scheduledAt ?? '',
      pretty: (p, c) => (p.scheduledAt ? `${formatLocal(p.scheduledAt, zone)} ${c.dim(`(${formatRelative(p.scheduledAt, now)})`)}` : c.dim('—')),
      // Short of room, the date stays: "in 12 days" alone does not say which day.
      compact: (p, c) => (p.scheduledAt ? localDate(p.scheduledAt, zone) : c.dim('—')),
    },
    // `headline`: `title` stays the title alone, in TSV as in JSON.
    { header: 'title / text', field: 'headline', value: headline, priority: sameStatus ? 0 : timeFirst ? 3 : 2, minWidth: sameStatus ? 20 : 10 },
  ];
}

export function listFooter(offset: number, count: number, total: number | undefined, statuses: readonly string[]): string {
  const filter = statuses.length ? ` ${statuses.join('/')}` : '';
  if (count === 0) return total && offset >= total ? `no${filter} posts at offset ${offset} (there are ${formatCount(total)})` : `no${filter} posts`;
  const parts = [`showing ${formatCount(offset + 1)}–${formatCount(offset + count)}${total !== undefined ? ` of ${formatCount(total)}` : ''}`];
  if (total !== undefined && offset + count < total) parts.push(`next: --offset ${offset + count}`, '--all for every row');
  return parts.join(' · ');
}

/** How posts are printed (list): columns, ids for -q, the fields for --fields, and -o ics. */
export function postView(now: number, zone: string, statuses: readonly string[] = []): TableView<Post> {
  return {
    kind: 'table',
    columns: postColumns(now, zone, statuses),
    id: (post) => post.id,
    fields: fieldsOf('posts list'),
    derived: { platforms: (p) => Object.keys(p.payloads ?? {}), text: firstText, headline },
    calendar: { header: () => icsHeader(), event: (post) => icsEvent(post, { now }), footer: icsFooter },
  };
}
