// `socialpub completion bash|zsh|fish`: shell completion generated from the command tree.
import { Argument, Option, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action, type FlagsOf } from '../../action.js';

export type CompletionFlags = FlagsOf<typeof completionCommand>;

function completionCommand(program: CommandUnknownOpts) {
  return program
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
    );
}

export function defineCompletion(program: CommandUnknownOpts, ctx: Context): void {
  completionCommand(program).action(
    action(ctx, async (shell, opts, cmd) => (await import('./run.js')).runCompletion(ctx, shell, opts, cmd)),
  );
}
