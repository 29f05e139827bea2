// `completion`, run: the script for a shell, generated from the command tree, or the profile
// names the scripts ask for at completion time.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { UsageError } from '../../cli-error.js';
import { completionScript } from '../../completion/generate.js';
import type { CompletionFlags } from './index.js';

export type Shell = 'bash' | 'zsh' | 'fish';

export async function runCompletion(ctx: Context, shell: Shell | undefined, opts: CompletionFlags, cmd: CommandUnknownOpts): Promise<number> {
  const out = ctx.output();
  if (opts.listProfiles) {
    const names = (await ctx.config()).names();
    if (names.length) await out.data(names.join('\n'));
    return 0;
  }
  if (!shell) throw new UsageError('completion: name a shell', ['socialpub completion bash | zsh | fish']);
  let root = cmd;
  while (root.parent) root = root.parent;
  await out.data(completionScript(shell, root).replace(/\n$/, ''));
  return 0;
}
