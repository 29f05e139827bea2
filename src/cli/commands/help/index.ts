// `socialpub help [command…|topic]`: help for a command, or a topic (helpTopicNames: the one
// list this help, its errors and shell completion read).
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action, type FlagsOf } from '../../action.js';
import { HELP_TOPICS, helpTopicNames, TREE_TOPICS } from '../../help-topics.js';

export type HelpFlags = FlagsOf<typeof helpCommand>;

export function defineHelp(program: CommandUnknownOpts, ctx: Context): void {
  program.helpCommand(false);
  const topics: Array<[string, string]> = [...Object.entries(HELP_TOPICS).map(([name, t]): [string, string] => [name, t.summary]), ...Object.entries(TREE_TOPICS)];
  program.addHelpText(
    'after',
    `
Help topics:
${topics.map(([name, summary]) => `  socialpub help ${name.padEnd(12)} ${summary}`).join('\n')}

Start here:
  socialpub demo                     a guided tour of every feature (no account)
  socialpub sandbox --write-profile  run the sandbox and point a profile at it
  socialpub posts create --platform bluesky --text "Hello"`,
  );
  helpCommand(program).action(action(ctx, async (words, opts) => (await import('./run.js')).runHelp(ctx, program, words, opts)));
}

function helpCommand(program: CommandUnknownOpts) {
  return program
    .command('help')
    .summary('show help for a command or a topic')
    .description(`Show help for a command (\`socialpub help posts schedule\`) or a topic: ${helpTopicNames().join(', ')}. \`reference\` is every command at once.`)
    .argument('[words...]', 'a command path or a topic')
    .option('--man', 'with `reference`: print it as a man page (roff)')
    .addHelpText(
      'after',
      `
Examples:
  socialpub help posts schedule
  socialpub help environment
  socialpub help reference | less
  socialpub help reference --man | man -l -`,
    );
}
