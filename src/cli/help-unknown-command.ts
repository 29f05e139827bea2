// `socialpub completions --help`: commander prints the help of the last command it recognised
// (here the whole program) and exits 0, so a misspelt command went unnoticed. With a help flag
// on the line, the words are walked here first and a command that does not exist is a usage
// error with the nearest name, as it is without --help.
import type { CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import { UsageError } from './cli-error.js';
import { nearest } from '../wire/suggest.js';

const HELP_FLAGS = new Set(['-h', '--help']);

/** The error for an unknown command among argv's words when help is asked for, else undefined. */
export function unknownCommandBeforeHelp(program: CommandUnknownOpts, argv: readonly string[]): UsageError | undefined {
  const end = argv.indexOf('--');
  const words = end < 0 ? argv : argv.slice(0, end);
  if (!words.some((w) => HELP_FLAGS.has(w))) return undefined;
  let cmd = program;
  // Options of the command and its parents: commander reads a parent's options anywhere after it.
  let options: readonly Option[] = [...program.options];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word.startsWith('-') && word !== '-') {
      if (HELP_FLAGS.has(word) || word.includes('=')) continue;
      const option = options.find((o) => o.long === word || o.short === word);
      // A flag this walk cannot place (a short-flag cluster, a misspelt flag): leave it to commander.
      if (!option) return undefined;
      if (option.required || (option.optional && words[i + 1] !== undefined && !words[i + 1]!.startsWith('-'))) i++;
      continue;
    }
    // A command with no subcommands takes operands; `help` is commander's own help command.
    if (cmd.commands.length === 0 || word === 'help') return undefined;
    const sub = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub) return unknownCommandError(cmd, word);
    cmd = sub;
    options = [...options, ...sub.options];
  }
  return undefined;
}

/** `word` is no command of `cmd`: the error, with the nearest name (or every name) and where help is. */
export function unknownCommandError(cmd: CommandUnknownOpts, word: string): UsageError {
  const names = cmd.commands.map((c) => c.name());
  const near = nearest(word, names);
  const path = commandPath(cmd);
  return new UsageError(`unknown command '${word}'${path ? ` for '${path}'` : ''}`, [
    near ? `did you mean \`${['socialpub', path, near].filter(Boolean).join(' ')}\`?` : `commands: ${names.join(', ')}`,
    helpHint(cmd),
  ]);
}

/** Where `cmd`'s usage is: `see \`socialpub posts list --help\``. */
export function helpHint(cmd: CommandUnknownOpts): string {
  return `see \`${['socialpub', commandPath(cmd), '--help'].filter(Boolean).join(' ')}\``;
}

/** `posts schedule` for that command; empty for the program itself. */
export function commandPath(cmd: CommandUnknownOpts): string {
  const names: string[] = [];
  for (let c: CommandUnknownOpts | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
