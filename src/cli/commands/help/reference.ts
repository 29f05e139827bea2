// The command reference: every visible command with its usage, flags and examples, read from the
// live commander tree (like the completion generator), so it cannot drift from `--help`.
import type { CommandUnknownOpts, Help } from '@commander-js/extra-typings';
import { visibleSubcommands } from '../../completion/tree.js';
import { wrapHelp } from '../../../output/wrap.js';

export interface ReferenceItem {
  term: string;
  description: string;
}

export interface ReferenceEntry {
  /** Words from the root: [] for socialpub itself, ['posts', 'create'], … */
  path: string[];
  usage: string;
  summary: string;
  description: string;
  arguments: ReferenceItem[];
  options: ReferenceItem[];
  subcommands: ReferenceItem[];
  /** What commander prints after the flags (the examples), without the leading blank line. */
  after: string;
}

/**
 * The text that addHelpText('after', …) adds: the command's whole help, as outputHelp() writes it
 * (to a string for the moment), less what comes before the end of helpInformation().
 */
function afterText(cmd: CommandUnknownOpts): string {
  const output = cmd.configureOutput();
  let text = '';
  cmd.configureOutput({ writeOut: (s) => void (text += s) });
  try {
    cmd.outputHelp();
  } finally {
    cmd.configureOutput(output);
  }
  const body = cmd.helpInformation();
  const at = text.indexOf(body);
  if (at < 0) throw new Error(`help reference: the help of "${cmd.name()}" does not contain its help information`);
  return text.slice(at + body.length).replace(/^\n+/, '').replace(/\s+$/, '');
}

function entryOf(cmd: CommandUnknownOpts, path: string[], help: Help): ReferenceEntry {
  return {
    path,
    usage: help.commandUsage(cmd),
    summary: cmd.summary() || cmd.description(),
    description: cmd.description(),
    arguments: help.visibleArguments(cmd).map((a) => ({ term: help.argumentTerm(a), description: help.argumentDescription(a) })),
    options: help.visibleOptions(cmd).map((o) => ({ term: help.optionTerm(o), description: help.optionDescription(o) })),
    subcommands: visibleSubcommands(cmd).map((c) => ({ term: c.name(), description: c.summary() || c.description() })),
    after: afterText(cmd),
  };
}

/** Every visible command, depth first, the root first. */
export function referenceOf(root: CommandUnknownOpts): ReferenceEntry[] {
  const out: ReferenceEntry[] = [];
  const walk = (cmd: CommandUnknownOpts, path: string[]) => {
    out.push(entryOf(cmd, path, cmd.createHelp()));
    for (const sub of visibleSubcommands(cmd)) walk(sub, [...path, sub.name()]);
  };
  walk(root, []);
  return out;
}

function items(title: string, list: ReferenceItem[]): string {
  if (!list.length) return '';
  const width = Math.max(...list.map((i) => i.term.length));
  return `\n${title}:\n${list.map((i) => `  ${i.term.padEnd(width)}  ${i.description}`.trimEnd()).join('\n')}\n`;
}

/** `socialpub help reference`: plain text, one section per command. */
/** The reference as text; `width` (a terminal's) wraps it there, titles and rows included. */
export function referenceText(root: CommandUnknownOpts, version: string, width?: number): string {
  const entries = referenceOf(root);
  const sections = entries.map((e) => {
    const name = ['socialpub', ...e.path].join(' ');
    const title = `${name} — ${e.summary}`;
    return [
      `${title}\n${'='.repeat(Math.min(title.length, width ?? 100))}\n`,
      `\nUsage: ${e.usage}\n`,
      e.description && e.description !== e.summary ? `\n${e.description}\n` : '',
      items('Arguments', e.arguments),
      items(e.path.length ? 'Options' : 'Global options (accepted by every command)', e.options),
      items('Commands', e.subcommands),
      e.after ? `\n${e.after}\n` : '',
    ].join('');
  });
  const text = `socialpub ${version} command reference (every command, its flags and examples)\n\n${sections.join('\n\n')}`;
  return width === undefined ? text : wrapHelp(text, width);
}
