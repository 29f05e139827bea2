// V8's compiled code kept between runs (Node's module.enableCompileCache), so a command does not
// parse and compile the same JavaScript at every start. This only chooses where (only a folder
// no other user can write, since cached code is executable) and keeps it from growing. Loaded only by
// bin/socialpub.js, before the program, and bundled alone so that the cache covers every file
// the program loads.
import { enableCompileCache as enable } from 'node:module';
import { existsSync, lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot } from './config/paths.js';
import { VERSION } from './version.js';

/**
 * Versions whose compiled code is kept. Node never removes an entry, and each release's files
 * are new ones (keyed by their content): upgrades would pile up megabytes. A folder per version,
 * the oldest removed when a new one is made, a few kept for two installs used in turn.
 */
const KEPT_VERSIONS = 3;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Turns the cache on; returns the folder it uses, or undefined when it is off:
 * NODE_DISABLE_COMPILE_CACHE set (Node's own switch), or no private folder to keep it in.
 */
export function enableCompileCache(env: Env): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const cache = cacheRoot(env);
  const root = join(cache.dir, 'compile-cache');
  const dir = join(root, VERSION);
  // A home that does not exist (HOME pointed elsewhere, a service account) is not created.
  if (!existsSync(cache.within)) return undefined;
  const made = !existsSync(dir);
  if (!privateFolder(root) || !privateFolder(dir)) return undefined;
  if (made) removeOlderVersions(root, VERSION);
  enable(dir);
  return dir;
}

/**
 * Keeps this version's folder and the KEPT_VERSIONS - 1 others written to last; removes the rest,
 * and whatever else the folder holds (before it had a folder per version, Node's own folders).
 */
function removeOlderVersions(root: string, current: string): void {
  try {
    const others = readdirSync(root, { withFileTypes: true }).filter((e) => e.name !== current);
    const versions = others
      .filter((e) => e.isDirectory() && /^\d+\.\d+\.\d+/.test(e.name))
      .map((e) => ({ name: e.name, written: lstatSync(join(root, e.name)).mtimeMs }))
      .sort((a, b) => b.written - a.written);
    const kept = new Set(versions.slice(0, KEPT_VERSIONS - 1).map((v) => v.name));
    for (const e of others) if (!kept.has(e.name)) rmSync(join(root, e.name), { recursive: true, force: true });
  } catch {
    // Another run removing the same folders, or one we may not remove: the cache works without this.
  }
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
