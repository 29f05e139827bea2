// Options shared by `posts check`, `posts create` and `posts schedule`: text, platforms, media,
// payloads; create and schedule add what sending needs.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { PLATFORMS } from '../../../wire/platforms.js';
import { collect } from '../../flags/text.js';

/**
 * The post itself: what `posts check` judges, and create and schedule send. Generic over the
 * arguments (schedule has one), so the command keeps their types and gains these options.
 */
export function addPostOptions<Args extends unknown[]>(cmd: Command<Args, {}, OptionValues>, media = 'a local file (checked, then uploaded)') {
  return cmd
    .option('--platform <id>', `target platform, repeatable or comma-separated (${PLATFORMS.join(', ')})`, collect)
    .option('--text <text>', 'text for every platform')
    .option('--text-file <file|->', 'text for every platform from a file (- for stdin); paragraphs and line breaks are kept')
    .option('--text-for <platform=text>', 'text for one platform (repeatable; wins over --text)', collect)
    .option('--media <path|url>', `image or video: ${media} or an https URL (repeatable)`, collect)
    .option('--title <title>', 'title of the post (YouTube needs one)')
    .option('--file <post.json|->', 'the whole request body as JSON (a path, or - for stdin)');
}

export function addPayloadOptions<Args extends unknown[]>(cmd: Command<Args, {}, OptionValues>) {
  return addPostOptions(cmd)
    .option('--account <ref>', 'publish to these accounts: an id, @handle or platform:@handle (repeatable or comma-separated; default: each platform\'s default account; see `socialpub accounts list`)', collect)
    .option('--idempotency-key <key>', 'a key of your own: re-running with the same key never creates a second post (CI)')
    .option('--dry-run', 'validate and print the exact requests; send nothing')
    .option('--no-local-checks', "leave each platform's rules (text length, media needed, media type and size) to the service: for when a platform has changed them");
}
