// The demo key for `auth login --with-key < FILE` without printing it: a 0600 file in a fresh
// 0700 folder of the system's temporary folder, removed when the sandbox stops (a key of this
// process only, so a file left by a killed sandbox holds nothing that still works once it is gone).
// The folder names the sandbox's pid: the next sandbox removes those whose sandbox is gone.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeOwnedTempDir, removeStaleTempDirs, type StaleTempDir } from '../../../files/owned-temp-dir.js';

const PREFIX = 'socialpub-sandbox-';
const NAME = 'demo.key';

export interface KeyFile {
  path: string;
  remove(): void;
}

/** Undefined when the temporary folder cannot be written (the banner then says how else to log in). */
export function writeKeyFile(key: string): KeyFile | undefined {
  let dir;
  try {
    dir = makeOwnedTempDir(PREFIX);
  } catch {
    return undefined;
  }
  const path = join(dir.path, NAME);
  try {
    writeFileSync(path, `${key}\n`, { mode: 0o600, flag: 'wx' });
  } catch {
    dir.remove();
    return undefined;
  }
  return { path, remove: dir.remove };
}

/** The key files of sandboxes that ended without removing them (kill -9, a crash), removed now. */
export function removeStaleKeyFiles(): StaleTempDir[] {
  return removeStaleTempDirs(PREFIX).map((d) => ({ ...d, path: join(d.path, NAME) }));
}
