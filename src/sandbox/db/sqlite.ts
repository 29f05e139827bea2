// node:sqlite, loaded once, without the ExperimentalWarning Node 22 prints when it loads (24
// prints none). process.getBuiltinModule (public, Node 22.3+) loads it synchronously, so the
// one warning it emits is recognised while process.emitWarning is wrapped for that call only;
// every other warning (and this one from any other caller) passes through untouched.
import type * as Sqlite from 'node:sqlite';

let loaded: typeof Sqlite | undefined;

const isSqliteNotice = (warning: string | Error, typeOrOptions: unknown): boolean => {
  const type = typeof typeOrOptions === 'string' ? typeOrOptions : ((typeOrOptions as { type?: string } | undefined)?.type ?? (warning instanceof Error ? warning.name : undefined));
  const message = typeof warning === 'string' ? warning : warning.message;
  return type === 'ExperimentalWarning' && message.startsWith('SQLite is an experimental feature');
};

export function sqlite(): typeof Sqlite {
  if (loaded) return loaded;
  const emit = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    if (isSqliteNotice(warning, rest[0])) return;
    Reflect.apply(emit, this, [warning, ...rest]);
  };
  try {
    // Node 20 (which has getBuiltinModule from 20.16) answers undefined: no node:sqlite there.
    const mod: unknown = typeof process.getBuiltinModule === 'function' ? process.getBuiltinModule('node:sqlite') : undefined;
    loaded = mod as typeof Sqlite | undefined;
  } finally {
    process.emitWarning = emit;
  }
  if (!loaded) throw new Error(`the sandbox keeps its data in SQLite (node:sqlite), which needs Node 22.13 or later; this is Node ${process.versions.node}`);
  return loaded;
}
