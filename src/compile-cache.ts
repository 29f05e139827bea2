// Node 22.1+ keeps V8's compiled code of the files it loads between runs (module.enableCompileCache,
// a public API), so a command does not parse and compile the same JavaScript at every start; this
// only chooses where. Node 20 has no such API and goes without. Loaded only by bin/socialpub.js,
// before the program, and bundled alone so that nothing it shares loads before the cache is on.
import Module from 'node:module';
import { existsSync, lstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot } from './config/paths.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Turns the cache on; returns the folder it uses, or undefined when it is off: Node 20,
 * NODE_DISABLE_COMPILE_CACHE set (Node's own switch), or no private folder to keep it in. Cached
 * code is executable, so it is kept only in a folder no other user can write.
 */
export function enableCompileCache(env: Env): string | undefined {
  // Public since Node 22.1; the Node 20 types this project builds against do not list it.
  const enable = (Module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (!enable || env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const cache = cacheRoot(env);
  const dir = join(cache.dir, 'compile-cache');
  // A home that does not exist (HOME pointed elsewhere, a service account) is not created.
  if (!existsSync(cache.within) || !privateFolder(dir)) return undefined;
  enable(dir);
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
