// The demo key for `auth login --with-key < FILE` without printing it: a 0600 file in a fresh
// 0700 folder of the system's temporary folder, removed when the sandbox stops (a key of this
// process only, so a file left by a killed sandbox holds nothing that still works once it is gone).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface KeyFile {
  path: string;
  remove(): void;
}

/** Undefined when the temporary folder cannot be written (the banner then says how else to log in). */
export function writeKeyFile(key: string): KeyFile | undefined {
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), 'socialpub-sandbox-'));
  } catch {
    return undefined;
  }
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const path = join(dir, 'demo.key');
  try {
    writeFileSync(path, `${key}\n`, { mode: 0o600, flag: 'wx' });
  } catch {
    remove();
    return undefined;
  }
  return { path, remove };
}
