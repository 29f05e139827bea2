// V8's compiled code kept between runs (Node's module.enableCompileCache), so a command does not
// parse and compile the same JavaScript at every start. This only chooses where, and only a
// folder no other user can write, since cached code is executable. Loaded only by
// bin/socialpub.js, before the program, and bundled alone so that the cache covers every file
// the program loads.
import { enableCompileCache as enable } from 'node:module';
import { existsSync, lstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot } from './config/paths.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Turns the cache on; returns the folder it uses, or undefined when it is off:
 * NODE_DISABLE_COMPILE_CACHE set (Node's own switch), or no private folder to keep it in.
 */
export function enableCompileCache(env: Env): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
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
