// Replacing a local file that holds secrets (the profiles) so that
// a crash leaves either the old file or the new one, never half a file: a temporary file in the
// same folder, created 0600 and exclusively (never through a symbolic link planted where it
// goes), flushed to disk, renamed over the old one, then the folder's entry list flushed too.
import { closeSync, constants, fsyncSync, openSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Makes a rename or a new file in `folder` itself durable (the folder's entry list). */
export function syncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(folder, 'r');
    fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on a folder; the file's own fsync already happened.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

let sequence = 0;

/** Replaces `file` with `data`: temporary file, fsync, rename, fsync of the folder. */
export async function writeAtomically(file: string, data: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${++sequence}.tmp`;
  try {
    // A temp file (or a link) left under this name is removed, and the new one created
    // exclusively: never written through a link planted meanwhile.
    await rm(tmp, { force: true });
    const handle = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      // Exactly 0600, whatever the umask.
      await handle.chmod(0o600);
      await handle.writeFile(data, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
    syncFolder(dirname(file));
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
