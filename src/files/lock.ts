// A lock file that says who holds it, for a process that must be alone on a local file for a
// while (the profiles being saved, a sandbox's --data file). It appears whole or not at all: it
// is written to a temporary file first and hard-linked into place, and link() fails when a lock
// is already there. It names the holder's pid and a random token (and whatever else the caller
// adds). A lock whose process is gone (a kill -9, a crash) is stale; so is one naming this
// process's own pid that this process does not hold (copied along with the data, or left by an
// earlier process that had the same pid). The callers decide what to do about a lock held by
// someone else and word their own errors: this module returns facts and throws Node's own
// file errors.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, linkSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';

export interface LockHolder {
  pid: number;
  token: string;
}

export interface FoundLock<H extends LockHolder> {
  /** The lock file's text, to tell it apart from a lock placed later. */
  text: string;
  /** Undefined when the text is not a lock this module wrote (garbled, cut short). */
  holder: H | undefined;
}

/** The locks this process holds: token → lock file. */
const held = new Map<string, string>();

export const lockToken = (): string => randomBytes(12).toString('hex');

/** Puts `holder` at `path` unless a lock is there already; true when it did (this process holds it). */
export function placeLock(path: string, holder: LockHolder): boolean {
  const tmp = `${path}.${holder.token}.tmp`;
  try {
    const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      writeSync(fd, `${JSON.stringify(holder)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    linkSync(tmp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
  held.set(holder.token, path);
  return true;
}

/** The lock at `path`, or undefined when there is none. */
export function readLock<H extends LockHolder = LockHolder>(path: string): FoundLock<H> | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const h = JSON.parse(text) as Partial<H>;
    return { text, holder: Number.isInteger(h.pid) && typeof h.token === 'string' ? (h as H) : undefined };
  } catch {
    return { text, holder: undefined };
  }
}

/** Whether the process that placed the lock at `path` still holds it. */
export function holderAlive(holder: LockHolder, path: string): boolean {
  if (holder.pid === process.pid) return held.get(holder.token) === path;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the stale lock `staleText` read at `path`, unless another process replaced it
 * meanwhile: it is moved aside first (atomic), and put back when what was moved is not the
 * stale lock that was read. `token` is the caller's, naming the aside file.
 */
export function breakStaleLock(path: string, staleText: string, token: string): void {
  const aside = `${path}.${token}.stale`;
  try {
    renameSync(path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    if (readFileSync(aside, 'utf8') !== staleText) linkSync(aside, path);
  } catch {
    // Someone placed a new lock meanwhile: theirs stands, and the next attempt sees it.
  } finally {
    rmSync(aside, { force: true });
  }
}

/** Removes the lock this process placed with `token`, never one that replaced it. */
export function releaseLock(path: string, token: string): void {
  if (!held.delete(token)) return;
  try {
    if (readLock(path)?.holder?.token === token) rmSync(path, { force: true });
  } catch {
    // Left behind, it is stale once this process ends.
  }
}
