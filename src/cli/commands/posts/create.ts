// `socialpub posts create`: a draft from the payload options or a JSON body.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action, type FlagsOf } from '../../action.js';
import { addPayloadOptions } from './payload-options.js';

export type CreateFlags = FlagsOf<typeof createCommand>;

function createCommand(posts: CommandUnknownOpts) {
  const cmd = posts
    .command('create')
    .summary('create a draft post')
    .description(
      'Create a draft with a payload per platform. Everything is checked locally first (platform ids, text length per ' +
        'platform, media type, size and count) and nothing is sent if something is wrong (exit 2). Local media files are ' +
        'uploaded and referenced by URL. On a terminal, missing values are asked for; with --no-input or CI the missing ' +
        'flags are named instead. Prints the id and status; -q prints the id alone.',
    );
  return addPayloadOptions(cmd)
    .addHelpText(
      'after',
      `
Examples:
  socialpub posts create --platform twitter-x,bluesky --text "We ship today"
  ID=$(socialpub posts create --platform linkedin --text "Hi" --media a.jpg -q)
  socialpub posts create --file post.json --idempotency-key release-1.4.2 --json
  socialpub posts create --platform instagram --text Hi --media a.jpg --dry-run`,
    );
}

export function defineCreate(posts: CommandUnknownOpts, ctx: Context): void {
  createCommand(posts).action(action(ctx, async (opts) => (await import('./create.run.js')).runCreate(ctx, opts)));
}
