// `socialpub posts view | edit | unschedule | delete | queue`: one post looked at, changed,
// taken back to a draft or withdrawn, and the queue of scheduled posts by day.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { action, type FlagsOf } from '../../action.js';
import { collect } from '../../flags/text.js';
import type { DefineVerb } from '../named.js';
import type { AltFlag } from '../../../posts/draft.js';

export type ViewFlags = FlagsOf<typeof viewCommand>;
export type EditFlags = FlagsOf<typeof editCommand>;
/** What unschedule and delete take (delete's --yes is the only difference). */
export type WithdrawFlags = FlagsOf<typeof deleteCommand>;
export type QueueFlags = FlagsOf<typeof queueCommand>;

function viewCommand(posts: CommandUnknownOpts) {
  return posts
    .command('view')
    .argument('<id>', 'the post (post_…)')
    .summary('one post: texts with their counts, media, status, time and each target\'s outcome')
    .description(
      "Show one post: each platform's text with its length against the platform's limit, its media, the title, the " +
        'status (with the partial outcome, e.g. failed · 3/5 published), the time in your zone and in UTC, and for each ' +
        'target a ✓ with the live link or a ✗ with the error code and message. --json prints the post with a `results` array.',
    )
    .option('--tz <zone>', "IANA zone the time is shown in (default: this machine's zone)")
    .addHelpText('after', '\nExamples:\n  socialpub posts view post_8f2k1\n  socialpub posts view post_8f2k1 --jq \'.results[] | select(.success | not)\'');
}

function editCommand(posts: CommandUnknownOpts) {
  // --alt describes the --media before it (options are parsed in order; this command is built per run).
  let mediaSeen = 0;
  return posts
    .command('edit')
    .argument('<id>', 'a draft or scheduled post')
    .summary('change the texts, platforms, media or title of a draft or scheduled post')
    .description(
      'Change a draft or a scheduled post (a published or failed one cannot change). The payload options replace what ' +
        'they name: --text (or --text-file) every text, --text-for one platform\'s, --media the media of every platform; --platform adds a ' +
        'target (with --text-for, --text, or the first platform\'s text), --remove-platform removes one. Checked like a ' +
        'new post before anything is sent. On a terminal the changes are shown (before → after) and confirmed. With ' +
        '--editor, or with no change given on a terminal, $VISUAL/$EDITOR opens on the texts, one section per platform, ' +
        'with what each platform takes beyond the text: a thread\'s parts (a line holding only --- starts the next), the first ' +
        'comment, alt text per media item and its settings (KEY = VALUE, the allowed values shown); a wrong value is named by its line.',
    )
    .option('--text <text>', 'new text for every platform')
    .option('--text-file <file|->', 'new text for every platform from a file (- for stdin); paragraphs and line breaks are kept')
    .option('--text-for <platform=text>', 'new text for one platform (repeatable; adds the platform when it is not a target)', collect)
    .option('--platform <id>', 'add a target platform (repeatable or comma-separated)', collect)
    .option('--remove-platform <id>', 'remove a target platform (repeatable or comma-separated)', collect)
    .option('--media <path|url>', 'replace the media of every platform: a local file (checked, then uploaded) or an https URL (repeatable)', (value: string, previous?: string[]) => {
      const list = collect(value, previous);
      mediaSeen = list.length;
      return list;
    })
    .option('--alt <text>', 'alt text for the --media just before it', (value: string, previous?: AltFlag[]): AltFlag[] => [...(previous ?? []), { index: mediaSeen - 1, text: value }])
    .option('--title <title>', 'new title ("" removes it)')
    .option('--account <ref>', "publish to these accounts instead of the platform's current ones: an id, @handle or platform:@handle (repeatable or comma-separated; adds the platform when it is not a target)", collect)
    .option('--thread', 'split the text into a thread again where the platform takes one (the new text, or the current parts joined)')
    .option('--first-comment <text>', 'a new first comment where the platform takes one ("" removes it)')
    .option('--option <setting>', "a platform's setting as PLATFORM.KEY=VALUE, merged into its current ones (repeatable; `socialpub help options`)", collect)
    .option('--editor', 'write the texts, thread parts, first comments, alt texts and settings in $VISUAL / $EDITOR')
    .option('--tz <zone>', "IANA zone times are shown in (default: this machine's zone)")
    .option('--idempotency-key <key>', 'a key of your own: re-running with the same key and changes replays the first edit')
    .option('--dry-run', 'validate and print the exact requests; send nothing')
    .option('-y, --yes', 'do not ask for confirmation on a terminal')
    .option('--no-local-checks', "leave each platform's rules to the service")
    .addHelpText(
      'after',
      `
Examples:
  socialpub posts edit post_8f2k1 --text-for bluesky="Fixed the typo"
  socialpub posts edit post_8f2k1 --platform threads --remove-platform twitter-x
  socialpub posts edit post_8f2k1 --editor
  socialpub posts edit post_8f2k1 --title "" --dry-run`,
    );
}

function unscheduleCommand(posts: CommandUnknownOpts) {
  return posts
    .command('unschedule')
    .argument('<id...>', 'scheduled posts')
    .summary('take scheduled posts back to drafts (they will not be published)')
    .description('Take scheduled posts back to drafts: they keep their texts and media and are not published until scheduled again. A draft is left as it is; a published or failed post cannot change.')
    .option('--dry-run', 'print the requests; send nothing')
    .option('--idempotency-key <key>', 'a key of your own (one post only)')
    .addHelpText('after', '\nExamples:\n  socialpub posts unschedule post_8f2k1\n  socialpub posts schedule post_8f2k1 --at "2026-12-08 09:00"   # later, again');
}

function deleteCommand(posts: CommandUnknownOpts) {
  return posts
    .command('delete')
    .argument('<id...>', 'drafts or scheduled posts')
    .summary('delete drafts or scheduled posts (asks first; --yes without a terminal)')
    .description('Delete drafts or scheduled posts: a scheduled one is never published. A published or failed post cannot be deleted (its results stay). On a terminal you are asked first; without one, --yes is required.')
    .option('-y, --yes', 'delete without asking (required without a terminal)')
    .option('--dry-run', 'print the requests; send nothing')
    .option('--idempotency-key <key>', 'a key of your own (one post only)')
    .addHelpText('after', '\nExamples:\n  socialpub posts delete post_8f2k1\n  socialpub posts list --status draft -q | xargs socialpub posts delete --yes');
}

function queueCommand(posts: CommandUnknownOpts) {
  return posts
    .command('queue')
    .summary('scheduled posts in time order, by day in your zone')
    .description(
      'The scheduled posts due between --from and --to (default: now to 7 days ahead), earliest first, grouped by day ' +
        'in your zone, with the time, the post id, the platforms and the text cut to the terminal width. Reads the scheduled posts ' +
        'page by page and keeps only those in the window. -o ics writes the window as an iCalendar file.',
    )
    .option('--from <time>', 'start of the window: RFC 3339, "YYYY-MM-DD HH:MM" (in --tz), +2h, +1d, or a day alone (2026-12-01, tomorrow, mon) from its start (default: now)')
    .option('--to <time>', 'end of the window, in the same forms; a day alone is included to its end (default: 7 days after --from)')
    .option('--tz <zone>', "IANA zone for the days and times (default: this machine's zone)")
    .addHelpText('after', '\nExamples:\n  socialpub posts queue\n  socialpub posts queue --to +1d --tz Europe/Paris\n  socialpub posts queue --from 2026-12-01 --to 2026-12-31 -o ics > december.ics');
}

/** The verbs that work on posts that exist, by name (posts/index.ts lists them in help's order). */
export const MANAGE_VERBS: Readonly<Record<string, DefineVerb>> = {
  view: (posts, ctx) => viewCommand(posts).action(action(ctx, async (id, opts) => (await import('./view.run.js')).runView(ctx, id, opts))),
  edit: (posts, ctx) => editCommand(posts).action(action(ctx, async (id, opts) => (await import('./edit.run.js')).runEdit(ctx, id, opts))),
  unschedule: (posts, ctx) => unscheduleCommand(posts).action(action(ctx, async (ids, opts) => (await import('./withdraw.run.js')).runWithdraw(ctx, 'unschedule', ids, opts))),
  delete: (posts, ctx) => deleteCommand(posts).action(action(ctx, async (ids, opts) => (await import('./withdraw.run.js')).runWithdraw(ctx, 'delete', ids, opts))),
  queue: (posts, ctx) => queueCommand(posts).action(action(ctx, async (opts) => (await import('./queue.run.js')).runQueue(ctx, opts))),
};
