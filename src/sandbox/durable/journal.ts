// The write-ahead log beside `--data FILE` (FILE.wal), as SQLite's WAL or Redis's AOF with
// `appendfsync always`: every change is appended and fsync'd before the response that
// reveals it is sent. Changes made in the same turn of the event loop are written as ONE line
// (a JSON array) with one fsync (group commit), so concurrent writers share the cost and a
// request's changes (its post and its idempotency record) land together or not at all. A crash
// mid-write leaves a torn last line without its newline: it is ignored, and nobody was told
// about its changes. The first line names the generation; a log whose generation differs
// from the snapshot's is already contained in the snapshot (a crash between writing the
// snapshot and starting the new log) and is skipped.
import { readFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { StateFileError, syncFolder } from '../persistence.js';
import type { Change } from './changes.js';

export const LOG_FORMAT = 'socialpub-sandbox-log';
/** Changes that need not wait for a response (read counts) are written at most this late. */
const LAZY_FLUSH_MS = 1_000;

export const logFileOf = (dataFile: string) => `${dataFile}.wal`;

/** The changes of a log, oldest first; a torn last line is ignored. */
export function readLog(file: string, generation: number): Change[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new StateFileError(`cannot read the sandbox log ${file}: ${(err as Error).message}`);
  }
  const lines = text.split('\n');
  // The part after the last newline was being written when the process died.
  lines.pop();
  const header = parseLine(lines.shift());
  if (!header || (header as { format?: unknown }).format !== LOG_FORMAT) return [];
  if ((header as { generation?: unknown }).generation !== generation) return [];
  const changes: Change[] = [];
  for (let i = 0; i < lines.length; i++) {
    const batch = parseLine(lines[i]);
    if (!Array.isArray(batch)) {
      // Only the end of a log can be damaged by a crash; damage before it is not ours to guess.
      if (i === lines.length - 1) break;
      throw new StateFileError(`the sandbox log ${file} is damaged at line ${i + 2}; move FILE.wal away to start from the last snapshot`);
    }
    // One by one: a spread of a batch as large as a bulk insert would overflow the call stack.
    for (const change of batch as Change[]) changes.push(change);
  }
  return changes;
}

function parseLine(line: string | undefined): unknown {
  if (line === undefined) return undefined;
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

interface Waiter {
  upTo: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

/** Creates (or truncates) the log file and writes its header, on disk before it resolves. */
async function startLogFile(file: string, generation: number): Promise<FileHandle> {
  const handle = await open(file, 'w', 0o600);
  try {
    await handle.chmod(0o600);
    await handle.writeFile(`${JSON.stringify({ format: LOG_FORMAT, generation })}\n`);
    await handle.sync();
  } catch (err) {
    await handle.close();
    throw err;
  }
  syncFolder(dirname(file));
  return handle;
}

export class Journal {
  private pending: string[] = [];
  /** Sequence number of the last change appended, of the last one that must be waited for, of the last one on disk. */
  private appended = 0;
  private lastStrict = 0;
  private onDisk = 0;
  private waiters: Waiter[] = [];
  private flushing: Promise<void> | undefined;
  private scheduled = false;
  private lazyTimer: NodeJS.Timeout | undefined;
  private failure: Error | undefined;
  private handle: FileHandle | undefined;
  /** Bytes in the log file (header included), for compaction. */
  size = 0;
  /** Called after each write reaches the disk. */
  afterFlush: (() => void) | undefined;

  /**
   * `opening` resolves with the file once it may be written. While it is pending, changes are
   * kept and nothing is acknowledged: during a compaction, the new snapshot must be on disk
   * before the new log means anything.
   */
  private constructor(
    readonly file: string,
    private readonly opening: Promise<FileHandle>,
  ) {
    opening.then(
      (handle) => {
        this.handle = handle;
        this.kick();
      },
      (err: Error) => this.fail(err),
    );
  }

  /** Resolves once the log's file is there (rejects if it could not be started). */
  ready(): Promise<void> {
    return this.opening.then(() => undefined);
  }

  /** Starts a new, empty log of `generation` (replacing any older one). */
  static async create(file: string, generation: number): Promise<Journal> {
    const handle = await startLogFile(file, generation);
    const journal = new Journal(file, Promise.resolve(handle));
    journal.handle = handle;
    journal.size = (await handle.stat()).size;
    return journal;
  }

  /** A log that takes changes now and starts its file of `generation` once `before` is done. */
  static after(before: Promise<void>, file: string, generation: number): Journal {
    let journal: Journal | undefined;
    const opening = before.then(async () => {
      const handle = await startLogFile(file, generation);
      journal!.size = (await handle.stat()).size;
      return handle;
    });
    journal = new Journal(file, opening);
    return journal;
  }

  /**
   * Appends a change. Serialised at once: the objects it names keep changing. A lazy change
   * (a read counted in its window) rides with the next write or the lazy timer.
   */
  append(change: Change, lazy = false): void {
    this.pending.push(JSON.stringify(change));
    this.appended++;
    if (lazy) {
      this.lazyTimer ??= setTimeout(() => {
        this.lazyTimer = undefined;
        this.kick();
      }, LAZY_FLUSH_MS).unref();
      return;
    }
    this.lastStrict = this.appended;
    if (!this.scheduled) {
      this.scheduled = true;
      // After the current turn: the rest of this request's changes join the same line.
      setImmediate(() => {
        this.scheduled = false;
        this.kick();
      });
    }
  }

  /** Resolves once every change appended so far (but lazy ones) is on disk; rejects if the disk refused. */
  durable(): Promise<void> | undefined {
    // Until its file exists, a log stands for changes that may still be only in the previous
    // log, or only in the snapshot being written: nothing is acknowledged meanwhile.
    if (!this.handle && !this.failure) return this.opening.then(() => this.durable());
    const upTo = this.lastStrict;
    if (this.onDisk >= upTo) return undefined;
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiters.push({ upTo, resolve, reject }));
  }

  private kick(): void {
    if (this.flushing || !this.handle || this.pending.length === 0) return;
    this.flushing = this.flush().finally(() => {
      this.flushing = undefined;
      if (this.pending.length && (this.lastStrict > this.onDisk || this.waiters.length)) this.kick();
    });
  }

  private async flush(): Promise<void> {
    const lines = this.pending;
    const upTo = this.appended;
    this.pending = [];
    try {
      if (this.failure) throw this.failure;
      const line = `[${lines.join(',')}]\n`;
      await this.handle!.write(line);
      await this.handle!.datasync();
      this.size += Buffer.byteLength(line);
      this.onDisk = upTo;
      this.settleWaiters();
    } catch (err) {
      this.fail(err as Error);
      return;
    }
    this.afterFlush?.();
  }

  /** Nothing after a failed write can be acknowledged: the log would have a hole. */
  private fail(err: Error): void {
    this.failure ??= new Error(`cannot write the sandbox log ${this.file}: ${err.message}`);
    for (const w of this.waiters.splice(0)) w.reject(this.failure);
  }

  private settleWaiters(): void {
    const still: Waiter[] = [];
    for (const w of this.waiters) {
      if (w.upTo <= this.onDisk) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
  }

  /** Writes everything pending (lazy changes too) and closes the file. */
  async close(): Promise<void> {
    if (this.lazyTimer) clearTimeout(this.lazyTimer);
    this.lazyTimer = undefined;
    const handle = await this.opening.catch(() => undefined);
    if (!handle) return;
    while (this.flushing || (this.pending.length && !this.failure)) {
      if (this.flushing) await this.flushing;
      else this.kick();
    }
    await handle.close();
  }
}
