// Options shared by `posts check`, `posts create` and `posts schedule`: text, platforms, media,
// payloads; create and schedule add what sending needs.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { PLATFORMS } from '../../../wire/platforms.js';
import { collect, givenList } from '../../flags/text.js';
import { takesFirstComment, takesThread } from '../../../wire/post-extras.js';
import type { AltFlag } from '../../../posts/draft.js';

/**
 * The post itself: what `posts check` judges, and create and schedule send. Generic over the
 * arguments (schedule has one), so the command keeps their types and gains these options.
 */
export function addPostOptions<Args extends unknown[]>(cmd: Command<Args, {}, OptionValues>, media = 'a local file (checked, then uploaded)') {
  // --alt describes the --media before it: commander parses options in order, so the number of
  // --media seen so far (on this command, built for this run) names the item.
  let mediaSeen = 0;
  return cmd
    .option('--platform <id>', `target platform, repeatable or comma-separated (${PLATFORMS.join(', ')})`, collect)
    .option('--text <text>', 'text for every platform')
    .option('--text-file <file|->', 'text for every platform from a file (- for stdin); paragraphs and line breaks are kept; with --thread, lines holding only --- separate the parts')
    .option('--text-for <platform=text>', 'text for one platform (repeatable; wins over --text)', collect)
    .option('--media <path|url>', `image or video: ${media} or an https URL (repeatable)`, (value: string, previous?: string[]) => {
      const list = collect(value, previous);
      mediaSeen = list.length;
      return list;
    })
    .option('--alt <text>', 'alt text for the --media just before it (repeatable, one per --media)', (value: string, previous?: AltFlag[]): AltFlag[] => [...(previous ?? []), { index: mediaSeen - 1, text: value }])
    .option('--title <title>', 'title of the post (YouTube needs one)')
    .option('--thread', `a text too long for ${THREAD_PLATFORMS} becomes a thread there (split at paragraphs, then sentences, then words); other platforms get it whole`)
    .option('--first-comment <text>', `a comment posted right after the post (${COMMENT_PLATFORMS}; X and Threads as a reply)`)
    .option('--option <setting>', `a platform's setting as PLATFORM.KEY=VALUE, repeatable: ${OPTION_EXAMPLES}`, collect)
    .option('--file <post.json|->', 'the whole request body as JSON (a path, or - for stdin)');
}

/** What --account takes, on create, schedule and check alike (its shell completion follows its name). */
export const ACCOUNT_REFS = 'an id, @handle or platform:@handle (repeatable or comma-separated';

const THREAD_PLATFORMS = PLATFORMS.filter(takesThread).join(', ');
const COMMENT_PLATFORMS = PLATFORMS.filter(takesFirstComment).join(', ');
const OPTION_EXAMPLES = 'instagram.postType=reel, youtube.privacy=unlisted, tiktok.privacy=SELF_ONLY, pinterest.board=ID (`socialpub help options` lists them all)';

export function addPayloadOptions<Args extends unknown[]>(cmd: Command<Args, {}, OptionValues>) {
  return addPostOptions(cmd)
    .option('--account <ref>', `publish to these accounts: ${ACCOUNT_REFS}; default: each platform's default account; see \`socialpub accounts list\`)`, collect)
    .option('--idempotency-key <key>', 'a key of your own: re-running with the same key never creates a second post (CI)')
    .option('--dry-run', 'validate and print the exact requests; send nothing')
    .option('--no-local-checks', "leave each platform's rules (text length, media needed, media type and size) to the service: for when a platform has changed them");
}

/** Platform ids a flag names (--platform, --remove-platform): comma lists split; given blank, refused. */
export const platformList = (flag: string, values: readonly string[] | undefined): string[] => givenList(flag, values, 'a platform id', [`platforms: ${PLATFORMS.join(', ')}`]);

/** The payload flags with --platform's comma lists split (texts and paths may hold commas, ids do not). */
export function withPlatformList<F extends { platform?: string[] }>(flags: F): F {
  return flags.platform ? { ...flags, platform: platformList('--platform', flags.platform) } : flags;
}
