// `socialpub completion bash|zsh|fish`: shell completion generated from the command tree.
import { Argument, Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../action.js';
import { UsageError } from '../../cli-error.js';

export function register(program: Command, ctx: Context): void {
  program
    .command('completion')
    .summary('print a shell completion script (bash, zsh, fish)')
    .description(
      'Print the completion script for your shell. It completes commands, flags, platform ids, statuses, output formats and, at completion time, your profile names.',
    )
    .addArgument(new Argument('[shell]', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
    .addOption(new Option('--list-profiles', 'print profile names, one per line (used by the scripts)').hideHelp())
    .addHelpText(
      'after',
      `
Examples:
  socialpub completion bash > ~/.local/share/bash-completion/completions/socialpub
  socialpub completion zsh > "\${fpath[1]}/_socialpub"
  socialpub completion fish > ~/.config/fish/completions/socialpub.fish`,
    )
    .action(
      action(ctx, async (shell: 'bash' | 'zsh' | 'fish' | undefined, opts: { listProfiles?: boolean }, cmd: Command) => {
        if (opts.listProfiles) {
          const names = (await ctx.config()).names();
          if (names.length) ctx.io.stdout.write(names.join('\n') + '\n');
          return 0;
        }
        if (!shell) throw new UsageError('completion: name a shell', ['socialpub completion bash | zsh | fish']);
        let root = cmd;
        while (root.parent) root = root.parent;
        const { completionScript } = await import('../../completion/generate.js');
        ctx.io.stdout.write(completionScript(shell, root));
        return 0;
      }),
    );
}
