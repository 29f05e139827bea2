// Every noun of the command line. Each noun's index adds its verbs; verb files load their
// heavy dependencies only when they run, so building this tree stays cheap.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { register as posts } from './posts/index.js';
import { register as api } from './api/index.js';
import { register as auth } from './auth/index.js';
import { register as completion } from './completion/index.js';
import { register as demo } from './demo/index.js';
import { register as help } from './help/index.js';
import { register as listen } from './listen/index.js';
import { register as profile } from './profile/index.js';
import { register as results } from './results/index.js';
import { register as sandbox } from './sandbox/index.js';

type Register = (program: Command, ctx: Context) => void;

const nouns: Register[] = [posts, results, listen, auth, profile, api, sandbox, demo, completion, help];

export function registerCommands(program: Command, ctx: Context): void {
  for (const register of nouns) register(program, ctx);
}
