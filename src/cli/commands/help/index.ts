// `socialpub help [command…|topic]`: help for a command, or a topic (HELP_TOPICS, the one list
// that this help, its errors and shell completion read).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../action.js';
import { UsageError } from '../../cli-error.js';
import { HELP_TOPICS } from '../../help-topics.js';

export function register(program: Command, ctx: Context): void {
  program.helpCommand(false);
  program.addHelpText(
    'after',
    `
Help topics:
${Object.entries(HELP_TOPICS)
  .map(([name, t]) => `  socialpub help ${name.padEnd(12)} ${t.summary}`)
  .join('\n')}

Start here:
  npm run demo                      a guided walk through every feature against a local sandbox
  socialpub sandbox --write-profile run the sandbox and point a profile at it
  socialpub posts create --platform bluesky --text "Hello"`,
  );
  program
    .command('help')
    .summary('show help for a command or a topic')
    .description(`Show help for a command (\`socialpub help posts schedule\`) or a topic: ${Object.keys(HELP_TOPICS).join(', ')}.`)
    .argument('[words...]', 'a command path or a topic')
    .addHelpText(
      'after',
      `
Examples:
  socialpub help posts schedule
  socialpub help environment
  socialpub help exit-codes`,
    )
    .action(
      action(ctx, async (words: string[]) => {
        if (words.length === 1 && HELP_TOPICS[words[0]!]) {
          ctx.io.stdout.write(HELP_TOPICS[words[0]!]!.text());
          return 0;
        }
        let cmd: Command = program;
        for (const word of words) {
          const next = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
          if (!next) {
            const topics = Object.keys(HELP_TOPICS).join(', ');
            throw new UsageError(`help: no command or topic "${words.join(' ')}"`, [`commands: ${program.commands.map((c) => c.name()).join(', ')}; topics: ${topics}`]);
          }
          cmd = next;
        }
        cmd.outputHelp();
        return 0;
      }),
    );
}
