// `socialpub posts schedule`: schedule a draft, create and schedule in one call, or schedule a
// whole file of posts (--from-file) with a journal, so that a re-run never posts twice.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action, type FlagsOf } from '../../action.js';
import { addPayloadOptions } from './payload-options.js';

export type ScheduleFlags = FlagsOf<typeof scheduleCommand>;

function scheduleCommand(posts: CommandUnknownOpts) {
  const cmd = posts
    .command('schedule')
    .argument('[draft-id]', 'an existing draft to schedule, or a scheduled post to move to --at (leave out to create and schedule at once)')
    .summary('schedule a draft, a new post, or a whole file of posts')
    .description(
      'Schedule a post for publication; given the id of a post that is already scheduled, move it to --at (reschedule it). --at takes RFC 3339 with an offset, "YYYY-MM-DD HH:MM" read in --tz (an IANA ' +
        "zone, default this machine's), \"tomorrow 9am\", \"mon 10:00\", \"09:00\" (the next one), or +30m / +2h / +1d (\"in 2 hours\"); past times, unknown zones and local times skipped by a DST " +
        'change are refused before anything is sent. Moving a scheduled post shows its old and new time and which ' +
        'way it moves (on stderr); on a terminal a move earlier than planned is confirmed (--yes skips it). --shift moves the post ' +
        'relative to its own time (+2h, -1d), where --at +2h counts from now. With --from-file, every row of an NDJSON or CSV file is validated ' +
        'first, then scheduled one by one at the pace the rate limit allows; a journal in the config folder and keys ' +
        'derived from each row make the run safe to kill and re-run (it resumes, and nothing is created twice).',
    );
  return addPayloadOptions(cmd)
    .option('--at <time>', 'when: 2026-12-01T09:00:00+01:00, "2026-12-01 09:00", "tomorrow 9am", "mon 10:00" (in --tz), +30m, +2h, +1d')
    .option('--shift <dur>', "move a scheduled post relative to its own time: +2h (later), -1d (earlier), -30m; instead of --at")
    .option('--tz <zone>', "IANA zone for local --at times and for display (default: this machine's zone)")
    .option('-y, --yes', 'move a scheduled post earlier without asking (on a terminal a move earlier is confirmed)')
    .option('--from-file <file>', 'bulk: NDJSON of schedule bodies, or CSV with columns at,platforms,text,… (- for stdin)')
    .option('--resume', 'bulk: skip rows a previous run of the same file finished (the default when its journal exists)')
    .option('--no-resume', "bulk: ignore the journal and go through every row again (keys still prevent duplicates; in SyncPostly's API, which has no keys, refused while the file's journal exists)")
    .option('--skip-invalid', 'bulk: schedule the valid rows even if some are invalid (those are listed and counted as failed)')
    .option('--allow-media-outside', "bulk: let the file's media paths leave its folder (by default a path outside it, or an absolute one, is refused)")
    .addHelpText(
      'after',
      `
Examples:
  socialpub posts schedule post_8f2k1 --at "2026-12-01 09:00" --tz Europe/Paris
  socialpub posts schedule post_8f2k1 --shift +1d   # a day after its own time
  SOCIALPUB_API_KEY=$KEY socialpub posts schedule --platform twitter-x \\
    --text "v$TAG is out" --at "$RELEASE_AT" \\
    --idempotency-key "release-$TAG" --json   # a re-run replays the post
  socialpub posts schedule --from-file posts.ndjson --dry-run

Bulk files:
  NDJSON  one body per line, as POST /v1/schedule takes it:
    {"payloads":{"bluesky":{"text":"Hi"}},"scheduledAt":"2026-12-01T09:00Z"}
          (and a "title" if wanted), or {"postId":"post_…","scheduledAt":"…"}
          to schedule an existing draft.
  CSV     a header row, then one post per row. Columns (any order, names
          case-insensitive):
            at         required; RFC 3339, or "YYYY-MM-DD HH:MM" read in --tz
                       (no relative times)
            platforms  required; ids separated by "|" (";" also works)
            text       text for every platform (or text:<platform> columns,
                       e.g. text:bluesky)
            media      optional; paths or https URLs separated by "|" (paths
                       start from the file's folder and stay inside it,
                       unless --allow-media-outside)
            title      optional
            account    optional; accounts to publish to, each an id, @handle
                       or platform:@handle, separated by "|" (default: each
                       platform's default account)
          Fields with commas, quotes or line breaks are quoted the usual CSV
          way ("say ""hi""").`,
    );
}

export function defineSchedule(posts: CommandUnknownOpts, ctx: Context): void {
  scheduleCommand(posts).action(action(ctx, async (draftId, opts) => (await import('./schedule.run.js')).runSchedule(ctx, draftId, opts)));
}
