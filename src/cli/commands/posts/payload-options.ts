// Options shared by `posts create` and `posts schedule` (CONTRACT section 3, payload options).
import type { Command } from 'commander';
import { PLATFORMS } from '../../../wire/platforms.js';
import { collect } from '../../flags/list.js';

export function addPayloadOptions(cmd: Command): Command {
  return cmd
    .option('--platform <id>', `target platform, repeatable or comma-separated (${PLATFORMS.join(', ')})`, collect)
    .option('--text <text>', 'text for every platform')
    .option('--text-file <file|->', 'text for every platform from a file (- for stdin); paragraphs and line breaks are kept')
    .option('--text-for <platform=text>', 'text for one platform (repeatable; wins over --text)', collect)
    .option('--media <path|url>', 'image or video: a local file (checked, then uploaded) or an https URL (repeatable)', collect)
    .option('--title <title>', 'title of the post')
    .option('--file <post.json|->', 'the whole request body as JSON (a path, or - for stdin)')
    .option('--idempotency-key <key>', 'a key of your own: re-running with the same key never creates a second post (CI)')
    .option('--dry-run', 'validate and print the exact requests; send nothing')
    .option('--no-local-checks', "leave each platform's rules (text length, media needed, media type and size) to the service: for when a platform has changed them");
}
