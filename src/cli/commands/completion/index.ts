// `socialpub completion bash|zsh|fish`: shell completion generated from the command tree.
import { Argument, Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../action.js';
import type { CompletionOptions, Shell } from './run.js';

export function defineCompletion(program: Command, ctx: Context): void {
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
      action(ctx, async (shell: Shell | undefined, opts: CompletionOptions, cmd: Command) => (await import('./run.js')).runCompletion(ctx, shell, opts, cmd)),
    );
}
