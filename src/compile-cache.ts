// V8's compiled code for socialpub's own files, kept between runs, so a command does not parse and
// compile the same ~150 kB of JavaScript every time it starts (see the commit that added this for
// the figures). Node 22.1+ does it itself (module.enableCompileCache); on Node 20 the files under
// dist/ are compiled here through vm.Script with their cached data. Loaded only by
// bin/socialpub.js, before the program; never by tests that run the program in-process.
import Module from 'node:module';
import { Script } from 'node:vm';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { cacheRoot } from './config/paths.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Turns the cache on for the modules under the folder `root` (given with its trailing separator).
 * Returns the folder it uses, or undefined when it is off: NODE_DISABLE_COMPILE_CACHE set (Node's
 * own switch), or no private folder to keep it in. Cached code is executable, so it is kept only
 * in a folder no other user can write. `main` is what the modules see as require.main.
 */
export function enableCompileCache(root: string, env: Env, main: Module | undefined): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const builtIn = (Module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  // Node keeps its own cache per Node version; ours is V8's data, valid for one V8 only.
  const cache = cacheRoot(env);
  const dir = join(cache.dir, builtIn ? 'compile-cache' : `v8-${process.version}-${process.arch}`);
  // A home that does not exist (HOME pointed elsewhere, a service account) is not created.
  if (!existsSync(cache.within) || !privateFolder(dir)) return undefined;
  if (builtIn) builtIn(dir);
  else compileThroughCache(root, dir, main);
  return dir;
}

/** Creates dir (0700) if needed; true only when it is a real folder of ours that only we can write. */
function privateFolder(dir: string): boolean {
  try {
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    return st.isDirectory() && (st.mode & 0o022) === 0 && (process.getuid === undefined || st.uid === process.getuid());
  } catch {
    // A read-only home or a full disk: run without the cache.
    return false;
  }
}

/**
 * A file's entry: its name, size, inode and change time. npm gives installed files one fixed
 * mtime, so that cannot tell versions apart; the change time is set by the filesystem at each
 * install. V8 checks the rest itself (its version, flags and the source's length).
 */
function entryName(filename: string, st: Stats): string {
  return `${basename(filename)}-${st.size}-${st.ino}-${Math.round(st.ctimeMs * 1000)}`;
}

interface Fresh {
  script: Script;
  file: string;
}

type CompilableModule = Module & { _compile(content: string, filename: string): unknown };

function compileThroughCache(root: string, dir: string, main: Module | undefined): void {
  const proto = Module.prototype as CompilableModule;
  const compile = proto._compile;
  const fresh: Fresh[] = [];
  proto._compile = function (this: CompilableModule, content: string, filename: string) {
    if (!filename.startsWith(root)) return compile.call(this, content, filename);
    const file = join(dir, entryName(filename, statSync(filename)));
    const cachedData = readIfPresent(file);
    const script = new Script(Module.wrap(content), { filename, cachedData });
    if (!cachedData || script.cachedDataRejected) fresh.push({ script, file });
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return wrapper.call(this.exports, this.exports, requireFor(this, main), this, filename, dirname(filename));
  };
  // At exit the data holds every function this run compiled, not only the top level.
  process.once('exit', () => {
    if (fresh.length === 0) return;
    for (const { script, file } of fresh) writeAtomically(file, script.createCachedData());
    prune(dir, new Set(fresh.map((f) => basename(f.file))));
  });
}

const HOUR_MS = 3600 * 1000;
const MONTH_MS = 30 * 24 * HOUR_MS;

/**
 * Runs only after writing, so a steady install costs nothing: drops the older entries of the
 * files just written (an upgrade or an edit replaced them), entries untouched for a month (a
 * version no longer installed), and temporary files a killed run left.
 */
function prune(dir: string, written: Set<string>): void {
  const fileOf = (entry: string) => /^(.*)-\d+-\d+-\d+$/.exec(entry)?.[1];
  const writtenFiles = new Set([...written].map(fileOf));
  const now = Date.now();
  try {
    for (const entry of readdirSync(dir)) {
      if (written.has(entry)) continue;
      const path = join(dir, entry);
      const olderThan = (ms: number) => now - statSync(path).mtimeMs > ms;
      const stale = entry.endsWith('.tmp') ? olderThan(HOUR_MS) : writtenFiles.has(fileOf(entry)) || olderThan(MONTH_MS);
      if (stale) rmSync(path, { force: true });
    }
  } catch {
    // Another run pruning at the same time, or a file gone meanwhile: the next write tries again.
  }
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written beside and renamed into place, so a concurrent run never reads half a file. */
function writeAtomically(file: string, data: Buffer): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, data, { mode: 0o600 });
    renameSync(temp, file);
  } catch {
    // The cache is an optimisation: a failed write costs the next run its speed, nothing else.
    rmSync(temp, { force: true });
  }
}

/** The `require` a CommonJS module is given, as Node builds it. */
function requireFor(mod: Module, main: Module | undefined): NodeJS.Require {
  const M = Module as unknown as {
    _resolveFilename(request: string, parent: Module, isMain: boolean, options?: { paths?: string[] }): string;
    _resolveLookupPaths(request: string, parent: Module): string[] | null;
    _extensions: NodeJS.RequireExtensions;
    _cache: NodeJS.Dict<NodeJS.Module>;
  };
  const require = ((id: string) => mod.require(id)) as NodeJS.Require;
  const resolve = ((request: string, options?: { paths?: string[] }) => M._resolveFilename(request, mod, false, options)) as NodeJS.RequireResolve;
  resolve.paths = (request: string) => M._resolveLookupPaths(request, mod);
  require.resolve = resolve;
  require.main = main;
  require.extensions = M._extensions;
  require.cache = M._cache;
  return require;
}
