// `results list --follow`: keeps printing new results as they arrive (polling the newest page)
// until Ctrl-C or SIGTERM, like `stripe logs tail`. On a terminal one line per result; piped,
// TSV or NDJSON rows; --json prints NDJSON (an array that never ends would never close).
import type { Context } from '../../context.js';
import { EXIT } from '../../cli-error.js';
import { isAbort } from '../../errors.js';
import { optionalWholeNumber } from '../../flags/number.js';
import { flagError } from '../../flags/text.js';
import { PAGE } from '../../../wire/protocol.js';
import type { PostResult } from '../../../wire/schemas.js';
import type { Colors } from '../../../output/colors.js';
import type { LogView } from '../../../output/views.js';
import { cutToWidth, displayWidth, flattenCell } from '../../../output/width.js';
import { LONGEST_ID } from '../../../output/layout.js';
import { followResults, FOLLOW_CEILING_MS, FOLLOW_FLOOR_MS } from '../../../results/follow.js';
import { formatClock } from '../../../output/time.js';
import { userZone } from '../../../posts/zone.js';
import { outageRider } from '../../../results/wait.js';
import { formatDuration } from '../../../client/retry-timing.js';
import { resultLinkOrError, resultView, username } from '../../../output/result-columns.js';
import type { ListFlags } from './list.js';
import type { RowFilter } from '../../../results/selection.js';
import { outageEnd, outageStart } from './outage-words.js';

/** Flags that page through a fixed list, which a stream with no end has no use for. */
const NOT_WITH_FOLLOW = ['all', 'offset', 'since', 'until', 'concurrency'] as const;

export async function runFollow(ctx: Context, flags: ListFlags, filters: RowFilter): Promise<number> {
  for (const name of NOT_WITH_FOLLOW) {
    if (flags[name] !== undefined) throw flagError(`--${name}`, 'cannot be combined with --follow, which prints results as they arrive', ['use --limit N to print the N newest first']);
  }
  const initial = optionalWholeNumber('--limit', flags.limit, { min: 1 }) ?? 0;
  // A stream that never ends must not wait for a pager, which shows nothing until its input ends.
  ctx.globals.pager = false;
  const client = await ctx.client();
  const out = ctx.output();
  // A log: a line per result on a terminal, rows piped, NDJSON for --json (an array that never
  // ends would never close), never paged.
  const view: LogView<PostResult> = {
    kind: 'log',
    columns: resultView(() => ctx.clock.now()).columns,
    id: (row) => row.id,
    line: (row, colors, width) => followLine(row, colors, width),
    json: (row) => row,
  };
  out.info(out.colors.dim(`following new results (polling every ${formatDuration(FOLLOW_FLOOR_MS)} or more, as the rate limit allows); Ctrl-C to stop`));
  // Once following, an outage is waited out (one line when it starts, one when it ends), as a
  // tail would; a service that cannot be reached at the start is an error (exit 6).
  let down: Error | undefined;
  const rideOut = outageRider({
    deadline: Number.POSITIVE_INFINITY,
    now: () => ctx.clock.now(),
    sleep: (ms) => ctx.clock.sleep(ms, ctx.signal),
    onOutage: (err) => {
      down = err;
      out.notice(`${outageStart(err)}; following again when it answers`);
    },
    onBack: () => out.notice(`${outageEnd(down)}; following`),
  });
  let following = false;
  const polls = followResults({
    pageSize: PAGE.maxLimit,
    initial,
    ...(filters.keep ? { keep: filters.keep } : {}),
    page: async (offset, limit) => {
      const read = async () => {
        const res = await client.results.list({ ...filters.query, offset, limit });
        return { rows: res.data.data, rateLimit: res.rateLimit, total: res.data.meta.total };
      };
      const page = following ? await rideOut(read) : await read();
      following = true;
      return page;
    },
    sleep: (ms) => ctx.clock.sleep(ms, ctx.signal),
    spendReserve: ctx.globals.spendBudget || ctx.globals.maxRequests !== undefined,
    onGap: (read) => out.warn(`more than ${read} results arrived since the last poll; older ones among them were skipped`),
    onPause: (ms) => {
      ctx.debug(`--follow: next poll in ${formatDuration(ms)}`);
      // Only a spent rate limit pauses past the ceiling: a person watching must not take the
      // silence for "no new results" while nothing is asked for up to an hour.
      if (ms > FOLLOW_CEILING_MS) out.notice(`the read rate limit is used up (its last tenth is left to the rest of the workspace): next poll at ${formatClock(ctx.clock.now() + ms, userZone(ctx.env, undefined))} (${formatDuration(ms)} from now)`);
    },
  });
  // One writer for the stream (a CSV header once, a table's columns laid out once); it prints
  // each row as it comes, and the pause between polls lets the batched output out.
  const writer = out.listWriter(view);
  try {
    for await (const rows of polls) for (const row of rows) await writer.write(row);
  } catch (err) {
    await writer.abort();
    if (ctx.signal.aborted && (isAbort(err) || (err as { kind?: string }).kind === 'aborted')) return EXIT.interrupted;
    throw err;
  }
  return EXIT.interrupted;
}

/**
 * What a narrow line keeps room for, the same on every line so that lines of a tail look alike:
 * the longest platform name, and the longest error code with its colon and a `…` (or as much of a
 * live URL). A longer code widens its own line's room.
 */
const PLATFORM_ROOM = 'facebook-page'.length;
const OUTCOME_ROOM = 'PLATFORM_UNAVAILABLE:…'.length;
/** An account name is cut to this, and is shown only where this much room is left for it. */
const ACCOUNT_ROOM = 24;

/**
 * "✓ 2026-12-01 09:01:02Z  res_…  bluesky  @user  https://…", cut to the terminal's width. On a
 * narrow terminal the account goes first, then the date, then the time, so that an error code
 * (what support reads first) or the start of the URL still shows whole.
 */
export function followLine(row: PostResult, c: Colors, width: number): string {
  const icon = row.success ? c.green('✓') : c.red('✗');
  const time = typeof row.created_at === 'string' ? row.created_at.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z') : '';
  const user = username(row);
  const outcome = flattenCell(resultLinkOrError(row));
  // An id wider than real ones get (a prefixed UUID) and than a third of the line, a hostile one,
  // is cut, so the platform and outcome show.
  const idRoom = Math.max(LONGEST_ID, Math.floor(width / 3));
  const id = width > 2 && displayWidth(row.id) > idRoom ? cutToWidth(flattenCell(row.id), idRoom) : row.id;
  const platform = typeof row.platform === 'string' ? row.platform : '';
  const account = user ? cutToWidth(flattenCell(user.startsWith('@') ? user : `@${user}`), ACCOUNT_ROOM) : '';
  const code = typeof row.error?.code === 'string' ? row.error.code : '';
  const needed = Math.max(OUTCOME_ROOM, displayWidth(flattenCell(code)) + 2) + Math.max(0, PLATFORM_ROOM - displayWidth(platform));
  const clock = time.slice(time.indexOf(' ') + 1);
  const join = (parts: string[]) => parts.filter((part) => part !== '').join('  ');
  // Room for the parts before the outcome, counted as wide as they can be (not as this row's are).
  const fits = (parts: string[], extra: number) => displayWidth(join([...parts, 'x'])) - 1 + extra + needed <= width - 2;
  const choices: Array<[string[], number]> = [
    [[time, id, platform, account], account ? ACCOUNT_ROOM - displayWidth(account) : ACCOUNT_ROOM + 2],
    [[time, id, platform], 0],
    [[clock, id, platform], 0],
    [[id, platform], 0],
  ];
  const lead = width > 2 ? (choices.find(([parts, extra]) => fits(parts, extra)) ?? choices[choices.length - 1]!)[0] : choices[0]![0];
  // A success without a link says so, as the table does, rather than ending the line blank.
  const text = join([...lead, row.success ? outcome || c.dim('no URL') : c.red(outcome)]);
  return `${icon} ${width > 2 ? cutToWidth(text, width - 2) : text}`;
}
