// Media bytes, content-addressed (the sha256 of what is kept): with `--data FILE`, one file
// each in FILE.media/ (0700, files 0600), written whole and fsync'd before the row that names
// it is committed; in memory, a map. A database row names its bytes; the same bytes uploaded
// twice are kept once. A file no row names (its row's commit failed after the file was
// written, or a crash cut the write short) is removed at the next start.
import { createHash } from 'node:crypto';
import { closeSync, constants, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { syncFolder } from '../../files/atomic-write.js';

export interface Blobs {
  /** Keeps `bytes` and returns their sha256 (hex). */
  put(bytes: Buffer): string;
  /** The bytes of a sha256, or undefined when they are gone. */
  get(sha256: string): Buffer | undefined;
}

export const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export function memoryBlobs(): Blobs {
  const kept = new Map<string, Buffer>();
  return {
    put(bytes) {
      const sha = sha256Of(bytes);
      kept.set(sha, Buffer.from(bytes));
      return sha;
    },
    get: (sha) => kept.get(sha),
  };
}

export const blobFolderOf = (dataFile: string) => `${dataFile}.media`;

/** The media of FILE.media/; `named`: the sha256 every media row names (the rest is removed). */
export function folderBlobs(folder: string, named: ReadonlySet<string>): Blobs {
  removeStrays(folder, named);
  return {
    put(bytes) {
      const sha = sha256Of(bytes);
      const path = join(folder, sha);
      if (exists(path)) return sha;
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      const temp = `${path}.${process.pid}.tmp`;
      const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
      try {
        for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
        fsyncSync(fd);
      } catch (err) {
        closeSync(fd);
        rmSync(temp, { force: true });
        throw err;
      }
      closeSync(fd);
      renameSync(temp, path);
      syncFolder(folder);
      return sha;
    },
    get(sha) {
      try {
        const fd = openSync(join(folder, sha), constants.O_RDONLY | constants.O_NOFOLLOW);
        try {
          return readFileSync(fd);
        } finally {
          closeSync(fd);
        }
      } catch {
        return undefined;
      }
    },
  };
}

const BLOB_NAME = /^[0-9a-f]{64}$/;

/**
 * At start, under the lock (no write is on its way): temporary files and bytes no row names
 * are removed; one listing of the folder against the set of names, whatever the folder holds.
 * A file of any other name is not the sandbox's: left alone.
 */
function removeStrays(folder: string, named: ReadonlySet<string>): void {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const n of names) if (n.endsWith('.tmp') || (BLOB_NAME.test(n) && !named.has(n))) rmSync(join(folder, n), { force: true });
}

function exists(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}
