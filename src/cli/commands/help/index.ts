// `socialpub help [command…|topic]`: help for a command, or a topic (environment, exit-codes,
// reference).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../action.js';
import { UsageError } from '../../cli-error.js';
import { HELP_TOPICS, TREE_TOPICS } from '../../help-topics.js';

export function register(program: Command, ctx: Context): void {
  program.helpCommand(false);
  const topics: Array<[string, string]> = [...Object.entries(HELP_TOPICS).map(([name, t]): [string, string] => [name, t.summary]), ...Object.entries(TREE_TOPICS)];
  program.addHelpText(
    'after',
    `
Help topics:
${topics.map(([name, summary]) => `  socialpub help ${name.padEnd(12)} ${summary}`).join('\n')}

Start here:
  socialpub demo                    a guided walk through every feature against a local sandbox
  socialpub sandbox --write-profile run the sandbox and point a profile at it
  socialpub posts create --platform bluesky --text "Hello"`,
  );
  program
    .command('help')
    .summary('show help for a command or a topic')
    .description('Show help for a command (`socialpub help posts schedule`) or a topic: environment, exit-codes, reference (every command at once).')
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
    )
    .action(
      action(ctx, async (words: string[], opts: { man?: boolean }) => {
        if (words.length === 1 && words[0] === 'reference') {
          // Loaded only here: the walk over the tree is not needed to show ordinary help.
          const text = opts.man
            ? (await import('./man-page.js')).manPage(program, ctx.version)
            : (await import('./reference.js')).referenceText(program, ctx.version);
          ctx.io.stdout.write(text);
          return 0;
        }
        if (opts.man) throw new UsageError('--man: only `socialpub help reference` has a man page form', ['socialpub help reference --man | man -l -']);
        if (words.length === 1 && HELP_TOPICS[words[0]!]) {
          ctx.io.stdout.write(HELP_TOPICS[words[0]!]!.text());
          return 0;
        }
        let cmd: Command = program;
        for (const word of words) {
          const next = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
          if (!next) {
            const topicNames = [...Object.keys(HELP_TOPICS), ...Object.keys(TREE_TOPICS)].join(', ');
            throw new UsageError(`help: no command or topic "${words.join(' ')}"`, [`commands: ${program.commands.map((c) => c.name()).join(', ')}; topics: ${topicNames}`]);
          }
          cmd = next;
        }
        cmd.outputHelp();
        return 0;
      }),
    );
}
