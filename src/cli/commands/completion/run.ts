// `completion`, run: the script for a shell, generated from the command tree, or the profile
// names the scripts ask for at completion time.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { UsageError } from '../../cli-error.js';
import { completionScript } from '../../completion/generate.js';
import type { CompletionFlags } from './index.js';
import { recentAccounts, recentPostIds } from '../../post-id-cache.js';

export type Shell = 'bash' | 'zsh' | 'fish';

const SHELLS: readonly Shell[] = ['bash', 'zsh', 'fish'];

/** The login shell ($SHELL: /bin/zsh → zsh), when it is one we write scripts for. */
function shellOf(env: Readonly<Record<string, string | undefined>>): Shell | undefined {
  const name = (env.SHELL ?? '').split('/').pop() as Shell;
  return SHELLS.includes(name) ? name : undefined;
}

export async function runCompletion(ctx: Context, shell: Shell | undefined, opts: CompletionFlags, cmd: CommandUnknownOpts): Promise<number> {
  const out = ctx.output();
  if (opts.listProfiles) {
    const names = (await ctx.config()).names();
    if (names.length) await out.data(names.join('\n'));
    return 0;
  }
  if (opts.listAccounts) {
    const handles = await recentAccounts(ctx);
    if (handles.length) await out.data(handles.join('\n'));
    return 0;
  }
  if (opts.listPosts) {
    const ids = await recentPostIds(ctx);
    if (ids.length) await out.data(ids.join('\n'));
    return 0;
  }
  shell ??= shellOf(ctx.env);
  if (!shell) {
    const named = ctx.env.SHELL ? `$SHELL is ${ctx.env.SHELL}, not one of bash, zsh or fish` : '$SHELL is not set';
    throw new UsageError(`completion: name a shell (${named})`, ['socialpub completion bash (or zsh, or fish); `socialpub completion --help` shows how to install it']);
  }
  let root = cmd;
  while (root.parent) root = root.parent;
  await out.data(completionScript(shell, root).replace(/\n$/, ''));
  return 0;
}
