// Saving the profiles file: a whole new file renamed into place (src/files/atomic-write.ts),
// never through a link, under a lock. Saving is read, change, write: two processes doing it at
// once each write their own change over the other's (twelve parallel `auth login`s left three
// profiles). The lock file beside it (config.json.lock, src/files/lock.ts) serialises them. A
// saver that finds it held waits, with a short backoff, a bounded time; a lock whose process is
// gone (killed mid-save) is stale and removed. A lock that is not one (garbled) is waited on,
// never removed: the message says to remove it when no socialpub is running.
import { breakStaleLock, holderAlive, lockToken, placeLock, readLock, releaseLock } from '../files/lock.js';

export { writeAtomically } from '../files/atomic-write.js';

/** A save takes milliseconds; past this, something holds the lock that should not. */
const WAIT_MS = 10_000;

/** Runs `save` holding `lockPath`; throws when another process keeps it past a few seconds. */
export async function withSaveLock<T>(lockPath: string, save: () => T | Promise<T>): Promise<T> {
  const mine = { pid: process.pid, token: lockToken() };
  const deadline = Date.now() + WAIT_MS;
  for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
    if (placeLock(lockPath, mine)) break;
    const found = readLock(lockPath);
    if (found?.holder && !holderAlive(found.holder, lockPath)) {
      breakStaleLock(lockPath, found.text, mine.token);
      continue;
    }
    if (Date.now() > deadline) {
      const who = found?.holder ? `process ${found.holder.pid}` : 'another process';
      throw new Error(`cannot save the profiles: ${who} has been saving them for ${WAIT_MS / 1000} s (lock ${lockPath}); try again, or remove the lock if no socialpub is running`);
    }
    // Jitter, so that waiters do not retry in step.
    await new Promise((r) => setTimeout(r, delay / 2 + Math.random() * delay));
  }
  try {
    return await save();
  } finally {
    releaseLock(lockPath, mine.token);
  }
}
