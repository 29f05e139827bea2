// A run defines in full only the nouns and verbs its command line names: defining every verb's
// flags is most of the program's start-up work. The others are defined by name only, so a
// mistyped word still gets "did you mean". Any token that equals a name counts, even a flag's
// value: defining one too many is only slower.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../context.js';

/**
 * Whether this command line needs the whole tree: help is asked for, or it names help's
 * reference or completion scripts, which read every command.
 */
export function wholeTree(argv: readonly string[] | undefined): boolean {
  return !argv || argv.includes('--help') || argv.includes('-h') || argv.includes('help') || argv.includes('completion');
}

export type DefineVerb = (noun: CommandUnknownOpts, ctx: Context, argv?: readonly string[]) => void;

/** A noun's verbs, in the order help lists them: those argv names in full (all when it names none). */
export function defineVerbs(noun: CommandUnknownOpts, ctx: Context, argv: readonly string[] | undefined, verbs: Readonly<Record<string, DefineVerb>>): void {
  const all = wholeTree(argv) || !argv!.some((a) => Object.hasOwn(verbs, a));
  for (const [name, define] of Object.entries(verbs)) {
    if (all || argv!.includes(name)) define(noun, ctx, argv);
    else noun.command(name);
  }
}
