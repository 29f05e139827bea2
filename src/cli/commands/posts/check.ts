// `socialpub posts check`: every target's platform rules judged locally; nothing is sent and no
// key is needed, except to read the accounts --account names. Exit 0 when every target would be
// accepted, 2 otherwise.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action, type FlagsOf } from '../../action.js';
import { ACCOUNT_REFS, addPostOptions } from './payload-options.js';
import { collect } from '../../flags/text.js';

export type CheckFlags = FlagsOf<typeof checkCommand>;

function checkCommand(posts: CommandUnknownOpts) {
  const cmd = posts
    .command('check')
    .summary("judge a post (or a bulk file) by each platform's rules, locally; sends nothing")
    .description(
      "Judges every target against its platform's published rules, as the platform would: the text counted in the " +
        "platform's unit against its limit, hashtags, title and link; how many images, videos and GIFs, and whether they " +
        'may be mixed; each media file read by its headers (type, size, dimensions, aspect ratio, duration, codec, GIF ' +
        "frames). URLs are not fetched: rules that need a URL's facts are left to the platform. Sends nothing and needs " +
        'no key, except with --account: the accounts are read from the service (and, in SyncPostly\'s API, which gives ' +
        'accounts no status, the newest results), their platforms become the targets when none is named, and each ' +
        'account gets a check of its own: an expired or disconnected one fails, as publishing to it would. Times are judged as scheduling judges them: a time that has passed (--at, the scheduledAt of --file, ' +
        'the at of a bulk row) is a problem. Problems come first; for a bulk file the rows with problems are counted ' +
        'and named by line, a terminal shows only the problems and warnings, and -q only the problems. On a terminal a table, piped TSV, --json the report. Exit 0 when every target would be accepted, 2 otherwise.',
    );
  return addPostOptions(cmd, 'a local file (its headers are read)')
    .option('--from-file <file>', 'a bulk file, as `posts schedule --from-file` reads it (NDJSON or CSV; - for stdin)')
    .option('--at <time>', 'judge this time as `posts schedule --at` would: in the future, a real time in --tz')
    .option('--tz <zone>', "IANA zone for --at's or the bulk file's local times (default: this machine's zone)")
    .option('--account <ref>', `judge the post for these accounts: ${ACCOUNT_REFS}; reads the service, so needs a key; see \`socialpub accounts list\`)`, collect)
    .option('--allow-media-outside', "bulk: let the file's media paths leave its folder, as `posts schedule --allow-media-outside` does")
    .addHelpText(
      'after',
      `
Examples:
  socialpub posts check --platform twitter-x,instagram --text "Hi" --media a.mp4
  socialpub posts check --file a.json --jq '.targets[] | select(.accepted|not)'
  socialpub posts check --account linkedin:@acme-careers --text "Hiring"
  socialpub posts check --from-file posts.csv &&
    socialpub posts schedule --from-file posts.csv`,
    );
}

export function defineCheck(posts: CommandUnknownOpts, ctx: Context): void {
  checkCommand(posts).action(
    action(ctx, async (flags) => {
      // --account reads the service: the client's code is loaded only then (a check is otherwise offline).
      const accounts = flags.account?.length ? (await import('./check-accounts.run.js')).accountsToCheck : undefined;
      return (await import('./check.run.js')).runCheck(ctx, flags, accounts);
    }),
  );
}
