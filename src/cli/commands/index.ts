// Every noun of the command line. Each noun's index defines its verbs; a verb's action imports
// its run module (the one lazy boundary per command), so building this tree stays cheap. The
// nouns' definitions load on demand too: a run compiles and defines only the nouns it names.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../context.js';
import { wholeTree } from './named.js';
type Define = (program: CommandUnknownOpts, ctx: Context, argv?: readonly string[]) => void;

/** Noun name → its definition, in the order help lists them. */
const nouns: Record<string, () => Promise<Define>> = {
  posts: async () => (await import('./posts/index.js')).definePosts,
  results: async () => (await import('./results/index.js')).defineResults,
  accounts: async () => (await import('./accounts/index.js')).defineAccounts,
  listen: async () => (await import('./listen/index.js')).defineListen,
  auth: async () => (await import('./auth/index.js')).defineAuth,
  profile: async () => (await import('./profile/index.js')).defineProfile,
  api: async () => (await import('./api/index.js')).defineApi,
  mcp: async () => (await import('./mcp/index.js')).defineMcp,
  sandbox: async () => (await import('./sandbox/index.js')).defineSandbox,
  demo: async () => (await import('./demo/index.js')).defineDemo,
  completion: async () => (await import('./completion/index.js')).defineCompletion,
  help: async () => (await import('./help/index.js')).defineHelp,
};

/** The nouns, by the name each registers. */
const NOUN_NAMES = Object.keys(nouns);

/** The nouns to define in full for this command line (see named.ts), or 'all' when it names none. */
function nounsToDefine(argv: readonly string[] | undefined): ReadonlySet<string> | 'all' {
  if (wholeTree(argv)) return 'all';
  const named = new Set(argv!.filter((a) => Object.hasOwn(nouns, a)));
  return named.size === 0 ? 'all' : named;
}

export async function defineCommands(program: CommandUnknownOpts, ctx: Context, argv?: readonly string[]): Promise<void> {
  const full = nounsToDefine(argv);
  const defines = await Promise.all(NOUN_NAMES.map((name) => (full === 'all' || full.has(name) ? nouns[name]!() : Promise.resolve(undefined))));
  NOUN_NAMES.forEach((name, i) => {
    const define = defines[i];
    if (define) define(program, ctx, argv);
    // The others by name only, so a mistyped noun still gets "did you mean".
    else program.command(name);
  });
}
