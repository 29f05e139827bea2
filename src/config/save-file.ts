// Saving the profiles file: a whole new file renamed into place, never through a link, under a
// lock. Saving is read, change, write: two processes doing it at once each write their own
// change over the other's (twelve parallel `auth login`s left three profiles). The lock file
// beside it (config.json.lock) serialises them. It appears whole or not at all (a
// temporary file hard-linked into place; link() fails when a lock is already there) and names
// the saver's pid and a random token. A saver that finds it waits, with a short backoff, a
// bounded time; a lock whose process is gone (killed mid-save) is stale and removed.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, linkSync, lstatSync, openSync, readFileSync, readlinkSync, renameSync, rmSync, writeSync } from 'node:fs';
import { FILE_MODE } from './file-modes.js';

/** A save takes milliseconds; past this, something holds the lock that should not. */
const WAIT_MS = 10_000;

/** Tokens of the locks this process holds (a save awaiting another save in this process waits too). */
const held = new Set<string>();

interface Holder {
  pid: number;
  token: string;
}

function holderOf(path: string): { text: string; holder: Holder | undefined } | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const h = JSON.parse(text) as Partial<Holder>;
    return { text, holder: Number.isInteger(h.pid) && typeof h.token === 'string' ? (h as Holder) : undefined };
  } catch {
    return { text, holder: undefined };
  }
}

function alive(h: Holder): boolean {
  if (h.pid === process.pid) return held.has(h.token);
  try {
    process.kill(h.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function place(path: string, text: string, token: string): boolean {
  const tmp = `${path}.${token}.tmp`;
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** Moves a stale lock aside; puts it back when what was moved is not the one read (a new saver's). */
function removeStale(path: string, staleText: string, token: string): void {
  const aside = `${path}.${token}.stale`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  try {
    if (readFileSync(aside, 'utf8') !== staleText) linkSync(aside, path);
  } catch {
    // A new lock is in place meanwhile: it stands.
  } finally {
    rmSync(aside, { force: true });
  }
}

/** Runs `save` holding `lockPath`; throws when another process keeps it past a few seconds. */
export async function withSaveLock<T>(lockPath: string, save: () => T): Promise<T> {
  const token = randomBytes(12).toString('hex');
  const text = JSON.stringify({ pid: process.pid, token });
  const deadline = Date.now() + WAIT_MS;
  for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
    if (place(lockPath, text, token)) break;
    const found = holderOf(lockPath);
    if (found && found.holder && !alive(found.holder)) {
      removeStale(lockPath, found.text, token);
      continue;
    }
    if (Date.now() > deadline) {
      const who = found?.holder ? `process ${found.holder.pid}` : 'another process';
      throw new Error(`cannot save the profiles: ${who} has been saving them for ${WAIT_MS / 1000} s (lock ${lockPath}); try again, or remove the lock if no socialpub is running`);
    }
    // Jitter, so that waiters do not retry in step.
    await new Promise((r) => setTimeout(r, delay / 2 + Math.random() * delay));
  }
  held.add(token);
  try {
    return save();
  } finally {
    held.delete(token);
    rmSync(lockPath, { force: true });
  }
}

export function refuseLink(path: string): void {
  let target: string;
  try {
    if (!lstatSync(path).isSymbolicLink()) return;
    target = readlinkSync(path);
  } catch {
    return;
  }
  throw new Error(
    `cannot save the config file ${path}: it is a symbolic link (to ${target}), and socialpub does not write keys through links; nothing was saved. Replace the link with a copy of the file it points to, or set SOCIALPUB_CONFIG_DIR to another folder`,
  );
}

/** Replaces `path` with `text`: a new 0600 file (never through a link), flushed, renamed over it. */
export function writeWhole(path: string, text: string): void {
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, FILE_MODE);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
