// `help`, run: the reference (text or man page), a topic, or a command's own help.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { UsageError } from '../../cli-error.js';
import { HELP_TOPICS, helpTopicNames } from '../../help-topics.js';
import { manPage } from './man-page.js';
import { referenceText } from './reference.js';
import type { HelpFlags } from './index.js';
import { wrapHelp } from '../../../output/wrap.js';
import { nearest } from '../../../wire/suggest.js';
import { searchHelp } from '../../help-search.js';

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
  for (const [i, word] of words.entries()) {
    const next = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next && i === 0 && !nearest(word, [...cmd.commands.map((c) => c.name()), ...helpTopicNames()], 1)) {
      // Not a name, nor a slip of one: the commands and topics that mention the words ("help ics", "help move").
      const found = searchHelp(program, words);
      if (found.length) {
        const width = Math.max(...found.map((m) => m.name.length));
        const lines = found.map((m) => `  socialpub ${m.name.padEnd(width)}  ${m.summary}`);
        const text = `No command or topic is called "${words.join(' ')}"; these mention it:\n${lines.join('\n')}\n\nMore: socialpub help <command>, or socialpub <command> --help`;
        await out.data(isTTY && columns ? wrapHelp(text, columns) : text);
        return 0;
      }
    }
    if (!next) {
      // The nearest name where the word went wrong: a command there, or a topic at the top.
      const names = cmd.commands.map((c) => c.name());
      const near = nearest(word, i === 0 ? [...names, ...helpTopicNames()] : names);
      const list = i === 0 ? `commands: ${names.join(', ')}; topics: ${helpTopicNames().join(', ')}` : `commands of ${words.slice(0, i).join(' ')}: ${names.join(', ')}`;
      throw new UsageError(`help: no command or topic "${words.join(' ')}"`, [...(near ? [`did you mean \`socialpub help ${[...words.slice(0, i), near, ...words.slice(i + 1)].join(' ')}\`?`] : []), list]);
    }
    cmd = next;
  }
  cmd.outputHelp();
  return 0;
}
