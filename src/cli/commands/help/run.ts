// `help`, run: the reference (text or man page), a topic, or a command's own help.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { UsageError } from '../../cli-error.js';
import { HELP_TOPICS, helpTopicNames } from '../../help-topics.js';
import { manPage } from './man-page.js';
import { referenceText } from './reference.js';
import type { HelpFlags } from './index.js';
import { wrapHelp } from '../../../output/wrap.js';

export async function runHelp(ctx: Context, program: CommandUnknownOpts, words: string[], opts: HelpFlags): Promise<number> {
  const out = ctx.output();
  const { isTTY, columns } = ctx.io.stdout;
  if (words.length === 1 && words[0] === 'reference') {
    // On a terminal, wrapped to it; piped, the text as generated (for files and grep).
    await out.data((opts.man ? manPage(program, ctx.version) : referenceText(program, ctx.version, isTTY && columns ? columns : undefined)).replace(/\n$/, ''));
    return 0;
  }
  if (opts.man) throw new UsageError('--man: only `socialpub help reference` has a man page form', ['socialpub help reference --man | man -l -']);
  const topic = words.length === 1 && Object.hasOwn(HELP_TOPICS, words[0]!) ? HELP_TOPICS[words[0]!] : undefined;
  if (topic) {
    // A topic's tables run longer than a command's help: wrapped to the terminal whatever its
    // width; piped, one line per row as written, for grep.
    const text = topic.text().replace(/\n$/, '');
    await out.data(isTTY && columns ? wrapHelp(text, columns) : text);
    return 0;
  }
  let cmd: CommandUnknownOpts = program;
  for (const word of words) {
    const next = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) {
      const topicNames = helpTopicNames().join(', ');
      throw new UsageError(`help: no command or topic "${words.join(' ')}"`, [`commands: ${program.commands.map((c) => c.name()).join(', ')}; topics: ${topicNames}`]);
    }
    cmd = next;
  }
  cmd.outputHelp();
  return 0;
}
