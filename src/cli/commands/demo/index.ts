// `socialpub demo`: the whole mission in under 30 seconds, against an in-process sandbox.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action, type FlagsOf } from '../../action.js';
import { integer, share } from '../../flags/number.js';

export type DemoFlags = FlagsOf<typeof demoCommand>;

function demoCommand(program: CommandUnknownOpts) {
  return program
    .command('demo')
    .summary('a guided walk through every feature against an in-process sandbox')
    .description(
      'Starts a local sandbox of the service and a webhook listener in this process, with a throwaway profile that touches nothing of your own config, then logs in, drafts a post for three platforms, schedules it a few seconds ahead, lists posts by status, waits for the results, lists and inspects them, and shows the webhook events that arrived. Every command it runs is printed so you can repeat it.',
    )
    .option('--seed <n>', 'seed of the sandbox (ids and outcomes)', '7')
    .option('--failure-rate <r>', 'share of targets that fail to publish', '0.34')
    .addHelpText(
      'after',
      `
Examples:
  socialpub demo                     # installed, or: npx socialpub demo
  socialpub demo --failure-rate 0    # every platform succeeds
  npm run demo                       # in a clone: builds, then runs it`,
    );
}

export function defineDemo(program: CommandUnknownOpts, ctx: Context): void {
  demoCommand(program).action(
    action(ctx, async (opts) =>
      (await import('./run.js')).runDemo(ctx, { seed: integer('--seed', opts.seed), failureRate: share('--failure-rate', opts.failureRate), leadSeconds: 3 }),
    ),
  );
}
