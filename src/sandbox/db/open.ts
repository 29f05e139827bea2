// Opening `--data FILE` (or ':memory:' without it: the same code). In order: the folder (0700
// when new), the lock (lock.ts) before anything is read, symbolic links refused (FILE, its
// -wal and -shm, FILE.media: SQLite would write through them), the first bytes checked (a
// data file of the earlier JSON format, or anything that is not SQLite, is refused with what
// to do), a new file created 0600 (SQLite gives -wal and -shm the same mode), then SQLite:
// the pages checked (checkPages: whole when small, bounded when large, so a database of
// gigabytes starts in seconds; a damaged database is never served), the schema created in an empty
// database, checked (application_id, user_version) or brought up from an earlier layout, WAL with synchronous=FULL.
import { closeSync, constants, lstatSync, mkdirSync, openSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { blobFolderOf, folderBlobs, memoryBlobs } from './blobs.js';
import { damagedMessage, StateFileError } from './errors.js';
import { lockDataFile } from './lock.js';
import { APPLICATION_ID, createSchema, migrateSchema, SCHEMA_VERSION } from './schema.js';
import { sqlite } from './sqlite.js';
import { Store } from './store.js';

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
const OLD_FORMAT_MARK = '"socialpub-sandbox-state"';

export function openStore(file: string | undefined): Store {
  if (file === undefined) {
    const db = new (sqlite().DatabaseSync)(':memory:');
    prepare(db, ':memory:');
    return new Store(db, memoryBlobs(), ':memory:', undefined, false);
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const lock = lockDataFile(file);
  try {
    for (const path of [file, `${file}-wal`, `${file}-shm`, blobFolderOf(file)]) refuseLink(path);
    const existed = checkHeader(file);
    let db: DatabaseSync;
    try {
      db = new (sqlite().DatabaseSync)(file);
    } catch (err) {
      throw damaged(file, err);
    }
    try {
      const restored = prepare(db, file);
      const named = new Set(db.prepare('SELECT DISTINCT sha256 FROM media WHERE sha256 IS NOT NULL').all().map((r) => String(r.sha256)));
      return new Store(db, folderBlobs(blobFolderOf(file), named), file, lock, restored && existed);
    } catch (err) {
      db.close();
      throw err;
    }
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** Checks, creates or upgrades nothing but what is described above; true when the database held a sandbox. */
function prepare(db: DatabaseSync, file: string): boolean {
  let appId: number;
  let tables: number;
  try {
    checkPages(db);
    appId = Number(db.prepare('PRAGMA application_id').get()!.application_id);
    tables = Number(db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get()!.n);
  } catch (err) {
    throw damaged(file, err);
  }
  if (appId !== APPLICATION_ID && (appId !== 0 || tables > 0)) {
    throw new StateFileError(`${file} is a SQLite database of something else, not a sandbox's; pass another --data file (a new name starts a fresh sandbox)`);
  }
  // WAL: a commit appends to FILE-wal and fsyncs it (FULL), readers (a sqlite3 shell) never wait.
  const mode = String(db.prepare('PRAGMA journal_mode = WAL').get()!.journal_mode);
  if (file !== ':memory:' && mode !== 'wal') throw new StateFileError(`cannot use write-ahead logging on ${file} (SQLite chose ${mode}); put the file on a local disk`);
  db.exec('PRAGMA synchronous = FULL');
  // Every page read is checked a little more (SQLite's cell_size_check): damage is seen sooner.
  db.exec('PRAGMA cell_size_check = ON');
  if (appId === 0) {
    createSchema(db);
    return false;
  }
  const version = Number(db.prepare('PRAGMA user_version').get()!.user_version);
  if (version >= 1 && version < SCHEMA_VERSION) {
    try {
      migrateSchema(db, version);
    } catch (err) {
      throw new StateFileError(`cannot bring ${file} from schema ${version} to ${SCHEMA_VERSION} (SQLite: ${(err as Error).message}); it was left as it was: pass another --data file`);
    }
    return true;
  }
  if (version !== SCHEMA_VERSION) throw new StateFileError(`${file} was written by another version of the sandbox (schema ${version}, this one reads ${SCHEMA_VERSION}); pass another --data file`);
  return true;
}

const damaged = (file: string, err: unknown) => new StateFileError(damagedMessage(file, err));

/** Up to this size, the whole database is checked at open (a fraction of a second). */
const FULL_CHECK_BYTES = 16 * 1024 * 1024;
/** The tables that grow with use, and the position their rows are keyed by in a workspace. */
const GROWING = new Map([
  ['posts', 'idx'],
  ['results', 'row'],
]);
const PROBES = 64;

/**
 * The check at open. A database of a few megabytes gets SQLite's whole PRAGMA quick_check
 * (about 0.4 s of CPU per 100 MiB, so tens of seconds for a few gigabytes, and a start in
 * seconds is promised). A larger one gets it table by table, PRAGMA quick_check(TABLE), for
 * every table but the two that grow with use, posts and results (with their indexes); those
 * get a bounded check here, a lookup at PROBES points spread over each workspace's rows, and
 * for the rest the check every read makes: a damaged page met while serving is refused (that
 * request gets 500 naming the damage and the fix) and the sandbox stops serving the file
 * (every later request gets the same answer: Store), so nothing read from damage is answered.
 */
function checkPages(db: DatabaseSync): void {
  const pages = (pragma: string) => Number(Object.values(db.prepare(`PRAGMA ${pragma}`).get()!)[0]);
  const whole = pages('page_count') * pages('page_size') <= FULL_CHECK_BYTES;
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all().map((r) => String(r.name));
  for (const table of whole ? [undefined] : tables.filter((t) => !GROWING.has(t))) {
    const check = db.prepare(table === undefined ? 'PRAGMA quick_check' : `PRAGMA quick_check("${table.replaceAll('"', '""')}")`).all().map((r) => String(Object.values(r)[0]));
    if (check.length !== 1 || check[0] !== 'ok') throw new Error(check.join('\n').split(/\s*\n\s*/).slice(0, 3).join('; '));
  }
  if (whole || !tables.includes('workspaces')) return;
  for (const tag of db.prepare('SELECT tag FROM workspaces').all().map((r) => Number(r.tag))) {
    for (const [table, key] of GROWING) {
      // Two queries: SQLite answers a lone min() or max() from the index, both at once by a scan.
      const low = db.prepare(`SELECT min(${key}) AS v FROM ${table} WHERE workspace = ?`).get(tag)!.v;
      const high = db.prepare(`SELECT max(${key}) AS v FROM ${table} WHERE workspace = ?`).get(tag)!.v;
      if (low === null) continue;
      const probe = db.prepare(`SELECT * FROM ${table} WHERE workspace = ? AND ${key} >= ? LIMIT 1`);
      for (let i = 0; i <= PROBES; i++) probe.get(tag, Number(low) + Math.floor(((Number(high) - Number(low)) * i) / PROBES));
    }
  }
}

export function linkRefused(file: string): StateFileError {
  return new StateFileError(
    `${file} is a symbolic link; the sandbox never follows links for its data (it would write where the link points): replace the link with the file itself, or pass the real path as --data`,
  );
}

function refuseLink(path: string): void {
  let link: boolean;
  try {
    link = lstatSync(path).isSymbolicLink();
  } catch {
    return;
  }
  if (link) throw linkRefused(path);
}

/**
 * What the file's first bytes say: true for an existing SQLite database, false for a new
 * (created now, 0600) or empty file. Anything else is refused, untouched.
 */
function checkHeader(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    closeSync(fd);
    return false;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw linkRefused(file);
    if (code !== 'EEXIST') throw new StateFileError(`cannot create ${file}: ${(err as Error).message}`);
  }
  const head = Buffer.alloc(4096);
  let length: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      length = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw linkRefused(file);
    throw new StateFileError(`cannot read ${file}: ${(err as Error).message}`);
  }
  if (length === 0) return false;
  if (length >= SQLITE_HEADER.length && head.subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER)) return true;
  if (head.subarray(0, length).toString('utf8').includes(OLD_FORMAT_MARK)) {
    throw new StateFileError(
      `${file} is a sandbox data file of the earlier format (a JSON snapshot with ${file}.wal); this sandbox keeps its data in a SQLite database. Start a fresh one: pass another --data file (for example ${file.replace(/\.json$/, '')}.db), or move ${file} and ${file}.wal away`,
    );
  }
  throw new StateFileError(`${file} is not a sandbox database (not SQLite); it was left untouched: pass another --data file (a new name starts a fresh sandbox)`);
}
