// One sandbox per `--data FILE`. Two on one file would hand out the same ids and interleave
// one log. FILE.lock names the holder (pid, start time, a random token); it is written to a
// temporary file first and hard-linked into place, so it appears whole or not at all, and
// link() fails when a lock is already there. A second sandbox refuses to start, naming the
// holder's pid. A lock whose process is gone (a kill -9, a crash) is stale and taken over, so
// are locks with this process's own pid that this process does not hold (copied along with
// the data, or left by an earlier process that had the same pid).
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, linkSync, openSync, readFileSync, realpathSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { StateFileError } from '../persistence.js';

export const lockFileOf = (dataFile: string) => `${dataFile}.lock`;

interface Holder {
  pid: number;
  startedAt: string;
  token: string;
}

/** The locks this process holds: token → lock file. */
const held = new Map<string, string>();

export class DataFileInUseError extends StateFileError {
  constructor(
    message: string,
    readonly pid: number,
  ) {
    super(message);
    this.name = 'DataFileInUseError';
  }
}

export interface DataFileLock {
  readonly path: string;
  release(): void;
}

function parseHolder(text: string): Holder | undefined {
  try {
    const h = JSON.parse(text) as Partial<Holder>;
    return Number.isInteger(h.pid) && typeof h.token === 'string' ? (h as Holder) : undefined;
  } catch {
    return undefined;
  }
}

function alive(holder: Holder, path: string): boolean {
  if (holder.pid === process.pid) return held.get(holder.token) === path;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(`cannot read the lock ${path}: ${(err as Error).message}`);
  }
}

/** Puts `text` at `path` unless something is there already; true when it did. */
function placeLock(path: string, text: string, token: string): boolean {
  const tmp = `${path}.${token}.tmp`;
  try {
    const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    linkSync(tmp, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new StateFileError(`cannot create the lock ${path}: ${(err as Error).message}`);
  } finally {
    rmSync(tmp, { force: true });
  }
}

/**
 * Removes a stale lock, unless another starter replaced it meanwhile: it is moved aside first
 * (atomic), and put back when what was moved is not the stale lock that was read.
 */
function breakStale(path: string, staleText: string, token: string): void {
  const aside = `${path}.${token}.stale`;
  try {
    renameSync(path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new StateFileError(`cannot remove the stale lock ${path}: ${(err as Error).message}`);
  }
  try {
    if (readText(aside) !== staleText) linkSync(aside, path);
  } catch {
    // Someone placed a new lock meanwhile: theirs stands, and the next attempt sees it.
  } finally {
    rmSync(aside, { force: true });
  }
}

/** Takes FILE.lock for this process, or throws DataFileInUseError naming the sandbox that holds it. */
export function lockDataFile(dataFile: string): DataFileLock {
  // One name per file, however the folder is spelled (relative, through a link): this process
  // tells its own locks apart by it.
  const lock = lockFileOf(dataFile);
  const path = join(realpathSync(dirname(resolve(lock))), basename(lock));
  const mine: Holder = { pid: process.pid, startedAt: new Date().toISOString(), token: randomBytes(12).toString('hex') };
  const text = `${JSON.stringify(mine)}\n`;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (placeLock(path, text, mine.token)) {
      held.set(mine.token, path);
      return { path, release: () => release(path, mine.token) };
    }
    const other = readText(path);
    if (other === undefined) continue;
    const holder = parseHolder(other);
    if (holder && alive(holder, path)) {
      throw new DataFileInUseError(
        `${dataFile} is in use by another sandbox (pid ${holder.pid}, started ${holder.startedAt}; lock ${path}); stop that one first, or pass another --data file (if pid ${holder.pid} is no sandbox, its number was reused after a crash: remove the lock)`,
        holder.pid,
      );
    }
    breakStale(path, other, mine.token);
  }
  throw new StateFileError(`cannot take the lock ${path}: other sandboxes keep starting on ${dataFile}; start one at a time`);
}

function release(path: string, token: string): void {
  if (!held.delete(token)) return;
  try {
    // Only our own lock: never one that replaced it.
    if (parseHolder(readText(path) ?? '')?.token === token) rmSync(path, { force: true });
  } catch {
    // Left behind, it is stale once this process ends.
  }
}
