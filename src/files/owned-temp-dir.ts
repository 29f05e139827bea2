// A private folder in the system's temporary folder that names the process it belongs to (a lock
// file inside, see ./lock.ts), for files that live only as long as that process: removed by it on
// the way out, and known as stale by the next process once it is gone without removing it (a kill
// -9, a crash, a power cut). Returns facts and throws Node's own errors: callers word their own.
import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { holderAlive, lockToken, placeLock, readLock, releaseLock } from './lock.js';

/** The lock file inside each folder: the pid of the process the folder belongs to. */
const OWNER = 'owner.lock';

export interface OwnedTempDir {
  path: string;
  /** Removes the folder and what it holds; safe to call more than once. */
  remove(): void;
}

export interface StaleTempDir {
  path: string;
  /** The process that made it, gone now. */
  pid: number;
}

/** A fresh 0700 folder `<tmp>/<prefix>XXXXXX` that names this process. */
export function makeOwnedTempDir(prefix: string): OwnedTempDir {
  const path = mkdtempSync(join(tmpdir(), prefix));
  const lock = join(path, OWNER);
  const token = lockToken();
  const remove = () => {
    releaseLock(lock, token);
    rmSync(path, { recursive: true, force: true });
  };
  try {
    placeLock(lock, { pid: process.pid, token });
  } catch (err) {
    remove();
    throw err;
  }
  return { path, remove };
}

/**
 * Removes this user's `<tmp>/<prefix>*` folders whose process is gone, and says which. A folder
 * without an owner (one being made this instant, or one an older version made) is left alone:
 * nothing tells whether its process still runs.
 */
export function removeStaleTempDirs(prefix: string): StaleTempDir[] {
  const root = tmpdir();
  let names: string[];
  try {
    names = readdirSync(root).filter((n) => n.startsWith(prefix));
  } catch {
    return [];
  }
  const uid = process.getuid?.();
  const removed: StaleTempDir[] = [];
  for (const name of names) {
    const path = join(root, name);
    try {
      // A real folder of this user's only: never through a link, never someone else's.
      const st = lstatSync(path);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
      const holder = readLock(join(path, OWNER))?.holder;
      if (!holder || holderAlive(holder, join(path, OWNER))) continue;
      rmSync(path, { recursive: true, force: true });
      removed.push({ path, pid: holder.pid });
    } catch {
      // A folder that cannot be read or removed is not ours to judge: it stays.
    }
  }
  return removed;
}
