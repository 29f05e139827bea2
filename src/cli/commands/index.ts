// Every noun of the command line. Each noun's index adds its verbs; verb files load their
// heavy dependencies only when they run, so building this tree stays cheap.
import type { Command } from 'commander';
import type { Context } from '../context.js';

type Register = (program: Command, ctx: Context) => void;

const nouns: Register[] = [];

export function registerCommands(program: Command, ctx: Context): void {
  for (const register of nouns) register(program, ctx);
}
