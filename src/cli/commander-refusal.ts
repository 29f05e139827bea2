// Commander's own refusals (an unknown option or command, a missing or extra argument, a value
// outside an option's choices) become our usage errors, thrown through exitOverride: run.ts then
// prints them as it prints every error (one `error:` line, hints, the JSON object under --json),
// and commander itself prints nothing (program.ts).
import type { CommanderError, CommandUnknownOpts } from '@commander-js/extra-typings';
import { UsageError } from './cli-error.js';
import { helpHint, unknownCommandError } from './help-unknown-command.js';

/** Commander's outcomes that are not refusals: help asked for, a bare noun's help, the version. */
const NOT_REFUSALS: ReadonlySet<string> = new Set(['commander.helpDisplayed', 'commander.help', 'commander.version']);

/** A refusal of commander's, with the command that refused: its flags (and its parents') say how to print it. */
export class CommandLineRefusal extends UsageError {
  readonly command: CommandUnknownOpts;
  constructor(error: UsageError, command: CommandUnknownOpts) {
    super(error.message, error.hints);
    this.command = command;
  }
}

/** The handler for `cmd.exitOverride`: a refusal is thrown as a CommandLineRefusal, help and the version as commander threw them. */
export function refuseAsUsage(cmd: CommandUnknownOpts): (err: CommanderError) => never {
  return (err) => {
    if (NOT_REFUSALS.has(err.code)) throw err;
    throw new CommandLineRefusal(usageErrorOf(err, cmd), cmd);
  };
}

const PREFIX = 'error: ';

function usageErrorOf(err: CommanderError, cmd: CommandUnknownOpts): UsageError {
  // The same error, nearest name and help hint as a misspelt command followed by --help.
  const word = cmd.args[0];
  if (err.code === 'commander.unknownCommand' && word !== undefined) return unknownCommandError(cmd, word);
  // Commander's message: its `error: ` line (our printer adds that prefix), then its suggestion
  // ("(Did you mean --status?)") on lines of its own, which become hints.
  const [first = '', ...rest] = err.message.split('\n');
  const message = withoutFlagValue(first.startsWith(PREFIX) ? first.slice(PREFIX.length) : first);
  const suggestions = rest.map((line) => line.trim()).filter(Boolean).map(asHint);
  return new UsageError(message, [...suggestions, helpHint(cmd)]);
}

/** `(Did you mean list?)` as a hint line: `did you mean list?`. */
function asHint(line: string): string {
  const bare = line.startsWith('(') && line.endsWith(')') ? line.slice(1, -1) : line;
  return bare.charAt(0).toLowerCase() + bare.slice(1);
}

/**
 * `--with-key=sk_…` (the key typed as the flag's value) is an unknown option whose value commander
 * quotes whole: it may be a key, so only the option's name is repeated.
 */
function withoutFlagValue(message: string): string {
  return message.replace(/(unknown option '--[^=' ]+)=[^']*'/g, "$1=…'");
}
