// How a post is shown after create/schedule: the id and status (and when it goes out, in UTC and
// in the user's zone); -q prints the id alone, --json the post object as the service sent it.
import type { Context } from '../../context.js';
import type { Post } from '../../../wire/schemas.js';
import { formatLocal, formatRelative } from '../../../output/time.js';
import { checkTopFields } from '../../../output/fields.js';
import { fieldsOf } from '../../../output/fields-of.js';
import { DRY_RUN_FIELDS } from './dry-run.js';
import { visibleLine } from '../../../output/terminal-safe.js';
import { shellWord } from '../../shell-word.js';

/** "2026-12-01T09:00:00.000Z · 2026-12-01 10:00 CET (Europe/Paris) · in 3 d" */
export function describeTime(iso: string, zone: string, now: number): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const local = formatLocal(t, zone);
  // "06:51 UTC (UTC)" says nothing twice: name the zone only when the abbreviation is not it.
  return `${new Date(t).toISOString()} · ${local}${local.endsWith(` ${zone}`) ? '' : ` (${zone})`} · ${formatRelative(t, now)}`;
}

/**
 * --fields checked before a write is sent: checked only once the answer came, a misspelt name
 * would be exit 2 for a post that was made all the same. Under --dry-run the report is printed,
 * not a post: its fields are the ones to name.
 */
export function checkPostFields(fields: readonly string[] | undefined, dryRun?: boolean): void {
  checkTopFields(fields, dryRun ? DRY_RUN_FIELDS : fieldsOf('posts create'));
}

export function humanPost(post: Post, zone: string, now: number): string {
  const rows: Array<[string, string]> = [
    ['id', post.id],
    ['status', post.status],
  ];
  if (post.scheduledAt) rows.push(['scheduled', describeTime(post.scheduledAt, zone, now)]);
  const platforms = Object.keys(post.payloads ?? {});
  if (platforms.length) rows.push(['platforms', platforms.join(', ')]);
  // A title is one line: a line break in it is shown as \\n, never starting a line of its own.
  if (post.title) rows.push(['title', visibleLine(post.title)]);
  return rows.map(([k, v]) => `${k.padEnd(10)} ${v}`).join('\n');
}

export interface PrintPostOptions {
  zone: string;
  replayed: boolean;
  /** The replay answered this run's own lost first attempt: the post was created now. */
  ownReplay?: boolean;
  idempotencyKey?: string | undefined;
}

export async function printPost(ctx: Context, post: Post, options: PrintPostOptions): Promise<void> {
  const out = ctx.output();
  if (options.replayed && options.ownReplay) {
    out.notice(`${out.colors.green('created:')} the first attempt reached the service (its answer was lost); the retry was answered with the same post`);
  } else if (options.replayed) {
    // Said even with -q: a script should know nothing new was made.
    out.notice(
      `${out.colors.yellow('already created:')} this idempotency key${options.idempotencyKey ? ` (${options.idempotencyKey})` : ''} was used before; showing that post as it is now, nothing new was created`,
    );
  }
  await out.object(post, (shown) => humanPost(shown, options.zone, ctx.clock.now()), { id: post.id });
  // On a terminal, the step that usually comes next (a footer: not in pipes, not with --quiet).
  if (post.status === 'draft') out.footer(`next: socialpub posts schedule ${shellWord(post.id)} --at TIME · e.g. --at "tomorrow 9am"`);
  else if (post.status === 'scheduled') out.footer(`its outcome, once it goes out: socialpub posts view ${shellWord(post.id)}`);
}
