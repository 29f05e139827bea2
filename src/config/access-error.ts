// A config folder that cannot be read or written (another user's, read-only, a file where a
// folder should be) gets one clear sentence with the fix, instead of Node's raw
// `EACCES … config.json.tmp-…` or `ENOTDIR`. Exit 1: nothing the user typed was wrong.
import { accessSync, constants, existsSync, lstatSync, mkdirSync, readlinkSync } from 'node:fs';
import { DIR_MODE } from './file-modes.js';

export class ConfigAccessError extends Error {
  readonly errno: string;
  constructor(message: string, errno: string, cause: unknown) {
    super(message, { cause });
    this.name = 'ConfigAccessError';
    this.errno = errno;
  }
}

/** A config folder or file of another user's, or one others can write: refused, as ssh refuses such a ~/.ssh. */
export class ConfigUntrustedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigUntrustedError';
  }
}

const ELSEWHERE = 'or set SOCIALPUB_CONFIG_DIR to a folder this user can write';

/** The error to throw for a failed read or write of the config file; other errors pass unchanged. */
export function configAccessError(err: unknown, where: { dir: string; path: string; writing: boolean }): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const what = `cannot ${where.writing ? 'save' : 'read'} the config file ${where.path}`;
  let reason: string;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      reason = where.writing
        ? `the folder ${where.dir} (or the file) is not writable by this user (${code}); give this user write access to it, ${ELSEWHERE}`
        : `this user may not read it (${code}); give this user read access to it, ${ELSEWHERE}`;
      break;
    case 'ENOTDIR':
      reason = `a part of ${where.dir} is a file, not a folder (ENOTDIR); move that file away, ${ELSEWHERE}`;
      break;
    case 'EISDIR':
      reason = `it is a folder, not a file (EISDIR); move it away, ${ELSEWHERE}`;
      break;
    case 'EROFS':
      reason = `the file system is read-only (EROFS); ${ELSEWHERE.replace(/^or /, '')}`;
      break;
    case 'ENOSPC':
    case 'EDQUOT':
      reason = `the disk is full (${code}); free some space and retry`;
      break;
    default:
      return err;
  }
  return new ConfigAccessError(`${what}: ${reason}`, code, err);
}

/**
 * Throws the error a save would meet, before anything is asked for: `auth login` checks this
 * before the key is typed and sent for its check, not after. Makes the folder (0700) if needed.
 */
export function assertSavable(where: { dir: string; path: string }): void {
  try {
    mkdirSync(where.dir, { recursive: true, mode: DIR_MODE });
    accessSync(where.dir, constants.W_OK);
    if (existsSync(where.path)) accessSync(where.path, constants.W_OK);
  } catch (err) {
    throw configAccessError(err, { ...where, writing: true });
  }
  refuseLink(where.path);
}

/** A config.json that is a symbolic link is never written through: the key would land wherever it points. */
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

