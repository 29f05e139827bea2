// What can go wrong with the sandbox's database: at start (the file refused: a link, not a
// database, damaged, of the earlier format, in use) and while it runs (a change not committed).

export class StateFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateFileError';
  }
}

export class DataFileInUseError extends StateFileError {
  constructor(
    message: string,
    readonly pid: number,
  ) {
    super(message);
    this.name = 'DataFileInUseError';
  }
}

/** A change that could not be committed: nothing of it happened. `full`: the disk is full. */
export class StorageError extends Error {
  constructor(
    message: string,
    readonly full: boolean,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

const SQLITE_FULL = 13;
const SQLITE_CORRUPT = 11;
const SQLITE_NOTADB = 26;

/** A database met damaged while serving: the sandbox answers every request with this, and never serves the file again. */
export class DatabaseDamagedError extends StorageError {
  constructor(message: string) {
    super(message, false);
    this.name = 'DatabaseDamagedError';
  }
}

/** Whether an error from node:sqlite says the file is damaged (or not a database any more). */
export function isDamage(err: unknown): boolean {
  const code = (err as { errcode?: number } | undefined)?.errcode;
  return typeof code === 'number' && ((code & 0xff) === SQLITE_CORRUPT || (code & 0xff) === SQLITE_NOTADB);
}

/** What a damaged database is told with: what SQLite found and the ways out. */
export const damagedMessage = (file: string, err: unknown) =>
  `${file} is damaged (SQLite: ${(err as Error).message}); the sandbox will not serve it. Restore it from a backup, try \`sqlite3 ${file} .recover\` into a new file, or pass another --data file`;

/** Whether an error from node:sqlite or the file system says the disk is full. */
export function isDiskFull(err: unknown): boolean {
  const e = err as { errcode?: number; code?: string } | undefined;
  return e?.code === 'ENOSPC' || (typeof e?.errcode === 'number' && (e.errcode & 0xff) === SQLITE_FULL);
}

/** A failure to write, worded for the response (the request did not happen). */
export function storageError(err: unknown, where: string): StorageError {
  if (err instanceof StorageError) return err;
  const full = isDiskFull(err);
  const why = full ? 'the disk is full' : (err as Error).message;
  return new StorageError(`the sandbox could not save the change (${why}), so it did not happen: ${full ? `free space on the disk that holds ${where}, then retry` : 'retry, or restart the sandbox'}`, full);
}

/** Errors node:sqlite raises (its own code), as opposed to a handler's. */
export function isSqliteError(err: unknown): boolean {
  const code = (err as { code?: string } | undefined)?.code;
  return code === 'ERR_SQLITE_ERROR' || code === 'ENOSPC' || code === 'EIO';
}
