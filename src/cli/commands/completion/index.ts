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
      'Print the completion script for your shell (default: the one $SHELL names). It completes commands, flags, platform ids, statuses, output formats, time zones and, at completion time, your profile names, the post ids the last `posts list` or `posts create` printed (kept for ten minutes in the cache folder) and the account handles the last `accounts list` or --account lookup saw (kept for a day); no request is made at Tab. Evaluated from ~/.bashrc or ~/.zshrc, every new shell completes; with the bash-completion package, a file in ~/.local/share/bash-completion/completions (make the folder first) loads faster.',
    )
    .addArgument(new Argument('[shell]', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
    .addOption(new Option('--list-profiles', 'print profile names, one per line (used by the scripts)').hideHelp())
    .addOption(new Option('--list-accounts', 'print the account handles the last accounts lookup saw, within a day (used by the scripts)').hideHelp())
    .addOption(new Option('--list-posts', 'print the post ids the last posts list/create printed, within ten minutes (used by the scripts)').hideHelp())
    .addHelpText(
      'after',
      `
Examples:
  echo 'eval "$(socialpub completion bash)"' >> ~/.bashrc
  echo 'eval "$(socialpub completion zsh)"' >> ~/.zshrc   # after compinit
  mkdir -p ~/.config/fish/completions
  socialpub completion fish > ~/.config/fish/completions/socialpub.fish`,
    );
}

export function defineCompletion(program: CommandUnknownOpts, ctx: Context): void {
  completionCommand(program).action(
    action(ctx, async (shell, opts, cmd) => (await import('./run.js')).runCompletion(ctx, shell, opts, cmd)),
  );
}
