// Every noun of the command line. Each noun's index defines its verbs; a verb's action imports
// its run module (the one lazy boundary per command), so building this tree stays cheap.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { definePosts as posts } from './posts/index.js';
import { defineApi as api } from './api/index.js';
import { defineAuth as auth } from './auth/index.js';
import { defineCompletion as completion } from './completion/index.js';
import { defineDemo as demo } from './demo/index.js';
import { defineHelp as help } from './help/index.js';
import { defineListen as listen } from './listen/index.js';
import { defineMcp as mcp } from './mcp/index.js';
import { defineProfile as profile } from './profile/index.js';
import { defineResults as results } from './results/index.js';
import { defineSandbox as sandbox } from './sandbox/index.js';

type Define = (program: Command, ctx: Context) => void;

const nouns: Define[] = [posts, results, listen, auth, profile, api, mcp, sandbox, demo, completion, help];

export function defineCommands(program: Command, ctx: Context): void {
  for (const define of nouns) define(program, ctx);
}
