// One sandbox per `--data FILE`: two on one database would each hand out the same next ids.
// SQLite's own locks only serialise transactions (and locking_mode=EXCLUSIVE would also shut
// out a `sqlite3` shell reading the file), so FILE.lock names the holder (pid, start time, a
// random token); it is placed whole or not at all by src/files/lock.ts, which also tells a
// stale lock (its process gone: a kill -9, a crash) from a live one. A second sandbox refuses
// to start, naming the holder's pid; a stale lock, or one that is not a lock at all, is taken over.
import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { breakStaleLock, holderAlive, lockToken, placeLock, readLock, releaseLock, type LockHolder } from '../../files/lock.js';
import { DataFileInUseError, StateFileError } from './errors.js';

export const lockFileOf = (dataFile: string) => `${dataFile}.lock`;

interface Holder extends LockHolder {
  startedAt: string;
}

export interface DataFileLock {
  readonly path: string;
  release(): void;
}

/** Runs a step of the shared lock, its file errors worded as the sandbox's. */
function step<T>(what: string, path: string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    throw new StateFileError(`cannot ${what} ${path}: ${(err as Error).message}`);
  }
}

/** Takes FILE.lock for this process, or throws DataFileInUseError naming the sandbox that holds it. */
export function lockDataFile(dataFile: string): DataFileLock {
  // One name per file, however the folder is spelled (relative, through a link): this process
  // tells its own locks apart by it.
  const lock = lockFileOf(dataFile);
  const path = join(realpathSync(dirname(resolve(lock))), basename(lock));
  const mine: Holder = { pid: process.pid, startedAt: new Date().toISOString(), token: lockToken() };
  for (let attempt = 0; attempt < 5; attempt++) {
    if (step('create the lock', path, () => placeLock(path, mine))) return { path, release: () => releaseLock(path, mine.token) };
    const other = step('read the lock', path, () => readLock<Holder>(path));
    if (other === undefined) continue;
    const holder = other.holder;
    if (holder && holderAlive(holder, path)) {
      throw new DataFileInUseError(
        `${dataFile} is in use by another sandbox (pid ${holder.pid}, started ${holder.startedAt}; lock ${path}); stop that one first, or pass another --data file (if pid ${holder.pid} is no sandbox, its number was reused after a crash: remove the lock)`,
        holder.pid,
      );
    }
    step('remove the stale lock', path, () => breakStaleLock(path, other.text, mine.token));
  }
  throw new StateFileError(`cannot take the lock ${path}: other sandboxes keep starting on ${dataFile}; start one at a time`);
}
