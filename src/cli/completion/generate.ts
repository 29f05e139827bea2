// `socialpub completion <shell>` output, from the live command tree.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { commandTree } from './tree.js';
import { bashScript } from './bash.js';
import { zshScript } from './zsh.js';
import { fishScript } from './fish.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export function completionScript(shell: Shell, root: CommandUnknownOpts): string {
  const tree = commandTree(root);
  switch (shell) {
    case 'bash':
      return bashScript(tree);
    case 'zsh':
      return zshScript(tree);
    case 'fish':
      return fishScript(tree);
  }
}
