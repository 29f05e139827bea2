// V8's compiled code kept between runs, so a command does not parse and compile the same
// JavaScript at every start (~6 ms on `results get`). Node 22.1+ does it for every file it loads
// (module.enableCompileCache); this only chooses where. Node 20 has no such API, but node:vm's
// Script takes and makes V8's code cache for one source (cachedData, public): there the core pack
// (chunks/core.cjs) is compiled that way and put in require.cache, where the program's own
// require() of it finds it loaded, and core.cjs is given the same loader for the other chunks
// (which it loads for everyone: scripts/pack-core.mjs). Loaded only by bin/socialpub.js, before
// the program, and bundled alone so that nothing it shares loads first.
import Module, { createRequire } from 'node:module';
import { closeSync, existsSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { cacheRoot } from './config/paths.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Turns the cache on; returns the folder it uses, or undefined when it is off:
 * NODE_DISABLE_COMPILE_CACHE set (Node's own switch), or no private folder to keep it in. Cached
 * code is executable, so it is kept only in a folder no other user can write. distDir: the
 * folder holding chunks/core.cjs (Node 20 only).
 */
export function enableCompileCache(env: Env, distDir: string): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const cache = cacheRoot(env);
  const dir = join(cache.dir, 'compile-cache');
  // A home that does not exist (HOME pointed elsewhere, a service account) is not created.
  if (!existsSync(cache.within) || !privateFolder(dir)) return undefined;
  // Public since Node 22.1; the Node 20 types this project builds against do not list it.
  const enable = (Module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (enable) enable(dir);
  else {
    const load = (file: string) => loadCached(file, dir);
    (load(join(distDir, 'chunks', 'core.cjs')) as { loadWith?: (load: (file: string) => unknown) => void }).loadWith?.(load);
  }
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

/** A short name for the file's path: each installed copy keeps its own cache (FNV-1a). */
function pathKey(file: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < file.length; i++) h = Math.imul(h ^ file.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/**
 * Loads file as require() would (once: require.cache holds it, so both loaders share each
 * module), with V8's code from dir when there is some for this very file. V8 checks a code cache
 * only against the source's length, so the cache file is named after the file's identity (inode,
 * size, modification and change times) and the Node version: an edited or reinstalled file never
 * runs another file's code. Each path keeps one cache file.
 */
function loadCached(file: string, dir: string): unknown {
  const req = createRequire(file);
  const known = req.cache[file];
  if (known) return known.exports;
  let source: string;
  let stamp: string;
  try {
    const fd = openSync(file, 'r');
    try {
      const st = fstatSync(fd, { bigint: true });
      stamp = `${process.version}-${st.ino}-${st.size}-${st.mtimeNs}-${st.ctimeNs}`;
      source = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return req(file); // require() says what is wrong with the file
  }
  const prefix = `${pathKey(file)}-`;
  const cacheFile = join(dir, `${prefix}${stamp}.v8`);
  // V8 refuses a cache that is cut short, empty or of another file, V8 or flags (a broken write,
  // a disk that lost it); as Node 20 builds it, it does not checksum the code itself, which a
  // check here would cost more than the cache saves (~1.5 ms of node:zlib and CRC-32 a run). A
  // file is written whole (rename) in a folder only this user can write, like the program's own.
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // first run of this file
  }
  // The wrapper require() puts around a CommonJS file.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const mod = { id: file, filename: file, path: dirname(file), exports: {}, loaded: false, children: [], paths: [] };
  // Registered before it runs, as require() does, so that a cycle gets the exports so far.
  // require.cache is documented as open to additions.
  req.cache[file] = mod as unknown as NodeJS.Module;
  (script.runInThisContext() as (...args: unknown[]) => void).call(mod.exports, mod.exports, req, mod, file, dirname(file));
  mod.loaded = true;
  if (cachedData === undefined || script.cachedDataRejected) {
    // Made at exit, so that the functions this run compiled are in it.
    if (unsaved.length === 0) process.once('exit', () => saveAll(dir));
    unsaved.push({ script, prefix, cacheFile });
  }
  return mod.exports;
}

const STALE_MS = 30 * 24 * 60 * 60 * 1000;

const unsaved: Array<{ script: Script; prefix: string; cacheFile: string }> = [];

/** Writes each cache whole or not at all (a rename), and drops the older ones of the same paths. */
function saveAll(dir: string): void {
  try {
    const old = readdirSync(dir).filter((name) => name.endsWith('.v8'));
    // Copies that are gone (an npx run, an older version elsewhere) leave theirs: a month is enough.
    const stale = Date.now() - STALE_MS;
    for (const name of old) if ((statSync(join(dir, name), { throwIfNoEntry: false })?.mtimeMs ?? stale) < stale) rmSync(join(dir, name), { force: true });
    for (const { script, prefix, cacheFile } of unsaved) {
      for (const name of old) if (name.startsWith(prefix)) rmSync(join(dir, name), { force: true });
      const part = `${cacheFile}.${process.pid}.part`;
      writeFileSync(part, script.createCachedData(), { mode: 0o600 });
      renameSync(part, cacheFile);
    }
  } catch {
    // A full disk or a folder gone: the next run compiles again.
  }
}
