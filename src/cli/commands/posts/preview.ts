// `socialpub posts preview`: each platform's rendering of a post, in the terminal or a browser.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action, type FlagsOf } from '../../action.js';
import { addPostOptions } from './payload-options.js';

export type PreviewFlags = FlagsOf<typeof previewCommand>;

function previewCommand(posts: CommandUnknownOpts) {
  const cmd = posts
    .command('preview')
    .argument('[id]', 'a post on the service (post_…); or give the post as payload options')
    .summary("each platform's rendering of a post: the fold, thread parts, alt text, first comment, crop")
    .description(
      "Shows a post as each platform's feed would: the text up to the platform's \"more\" fold and what the fold hides, " +
        'thread parts numbered, each image\'s alt text (or that it has none), the first comment, the options, and which ' +
        "crop of an image the feed shows. Folds are approximate (apps fold by lines and pixels too). Given as payload " +
        'options, the post is previewed without any request to the service. --web opens the same as a page: from the ' +
        'sandbox when one runs at the profile\'s base URL, otherwise a local file. --json prints the preview model.',
    );
  return addPostOptions(cmd, 'a local file (shown by its path)')
    .option('--web', 'open the preview in the browser (SOCIALPUB_BROWSER / BROWSER); without one, print where it is')
    .addHelpText(
    'after',
    `
Examples:
  socialpub posts preview post_8f2k1
  socialpub posts preview --platform instagram,linkedin --text-file caption.txt
  socialpub posts preview post_8f2k1 --web
  socialpub posts preview --file post.json --json`,
  );
}

export function definePreview(posts: CommandUnknownOpts, ctx: Context): void {
  previewCommand(posts).action(action(ctx, async (id, flags) => (await import('./preview.run.js')).runPreview(ctx, id, flags)));
}
