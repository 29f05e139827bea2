// The open database and how changes reach it. Changes run inside transaction(), which joins the
// open batch (one SQLite transaction, begun by the first change of this turn of the event loop)
// and rolls back its own part if it throws. The batch commits once the turn is over
// (synchronous=FULL: one fsync of the WAL for every change of the turn, a group commit), and
// no answer leaves before committed() resolves: a response reveals only what a kill -9 or a
// power cut cannot take back. Requests counted in a rate window are kept in memory until the
// next commit: a write's count joins the commit before its answer, reads are written within a
// second (an fsync per GET would cost more than the count is worth).
// A damaged page met by any statement (SQLITE_CORRUPT, SQLITE_NOTADB) ends the serving: that
// statement and every later one throw a DatabaseDamagedError, and committed() rejects with it,
// so every answer from then on is a 500 naming the damage and the fix (open.ts, checkPages).
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { Blobs } from './blobs.js';
import { damagedMessage, DatabaseDamagedError, isDamage, isSqliteError, storageError, type StorageError } from './errors.js';
import type { DataFileLock } from './lock.js';

const LAZY_FLUSH_MS = 1_000;

export interface Hit {
  workspace: number;
  kind: 'read' | 'write';
  at: number;
}

/** A prepared statement that watches for damage. */
export interface Statement {
  get(...params: SQLInputValue[]): ReturnType<StatementSync['get']>;
  all(...params: SQLInputValue[]): ReturnType<StatementSync['all']>;
  run(...params: SQLInputValue[]): void;
}

interface Batch {
  done: Promise<void>;
  resolve: () => void;
  reject: (err: StorageError) => void;
  timer: NodeJS.Immediate;
}

export class Store {
  private readonly statements = new Map<string, Statement>();
  /** Set once a statement met a damaged page: nothing is served any more. */
  private damage: { error: DatabaseDamagedError; refusal: Promise<never> } | undefined;
  private depth = 0;
  private batch: Batch | undefined;
  private hits: Hit[] = [];
  private writeHits = false;
  private lazyTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    readonly db: DatabaseSync,
    readonly blobs: Blobs,
    /** The data file, or ':memory:'. */
    readonly where: string,
    private readonly lock: DataFileLock | undefined,
    /** Whether the database held a sandbox already (false: created now). */
    readonly restored: boolean,
  ) {}

  /** A prepared statement, prepared once per text. */
  sql(text: string): Statement {
    let s = this.statements.get(text);
    if (!s) {
      const prepared = this.guard(() => this.db.prepare(text));
      s = {
        get: (...params) => this.guard(() => prepared.get(...params)),
        all: (...params) => this.guard(() => prepared.all(...params)),
        run: (...params) => void this.guard(() => prepared.run(...params)),
      };
      this.statements.set(text, s);
    }
    return s;
  }

  /** Runs a step on the database; damage met there (or before) is thrown as the DatabaseDamagedError. */
  private guard<T>(step: () => T): T {
    if (this.damage) throw this.damage.error;
    try {
      return step();
    } catch (err) {
      if (!isDamage(err)) throw err;
      const error = new DatabaseDamagedError(`${damagedMessage(this.where, err)}. Met while serving: the sandbox stopped serving it; stop the sandbox first`);
      const refusal = Promise.reject(error);
      refusal.catch(() => undefined);
      this.damage = { error, refusal };
      throw error;
    }
  }

  run(text: string, ...params: SQLInputValue[]): void {
    this.sql(text).run(...params);
  }

  /**
   * Runs `fn` in the open batch; when it throws, its changes are undone and the error goes on
   * (the database's own errors as a StorageError). Its changes are durable once committed()
   * resolves. Nested calls are part of the outer one.
   */
  transaction<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    this.open();
    this.depth++;
    try {
      this.guard(() => this.db.exec('SAVEPOINT work'));
      try {
        const value = fn();
        this.guard(() => this.db.exec('RELEASE work'));
        return value;
      } catch (err) {
        this.db.exec('ROLLBACK TO work');
        this.db.exec('RELEASE work');
        throw err;
      }
    } catch (err) {
      throw isSqliteError(err) ? storageError(err, this.where) : err;
    } finally {
      this.depth--;
    }
  }

  /**
   * Resolves once every change made so far (and every write counted) is committed; rejects with
   * a StorageError when that commit failed (then none of the batch happened). Undefined when
   * nothing is waiting.
   */
  committed(): Promise<void> | undefined {
    if (this.damage) return this.damage.refusal;
    if (this.writeHits && !this.closed) this.open();
    return this.batch?.done;
  }

  private open(): void {
    if (this.batch) return;
    try {
      this.guard(() => this.db.exec('BEGIN IMMEDIATE'));
    } catch (err) {
      throw storageError(err, this.where);
    }
    let resolve!: () => void;
    let reject!: (err: StorageError) => void;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Whoever waits hears of a failure; a batch nobody waits for must not crash the process.
    done.catch(() => undefined);
    this.batch = { done, resolve, reject, timer: setImmediate(() => this.commit()) };
  }

  /** Commits the open batch, with the counts so far. */
  private commit(): void {
    const batch = this.batch;
    if (!batch) return;
    this.batch = undefined;
    clearImmediate(batch.timer);
    const hits = this.hits;
    this.hits = [];
    this.writeHits = false;
    try {
      this.saveHits(hits);
      this.guard(() => this.db.exec('COMMIT'));
    } catch (err) {
      try {
        this.db.exec('ROLLBACK');
      } catch {
        // SQLite may have rolled back already (SQLITE_FULL does, in some cases).
      }
      // The counts are kept for the next commit.
      this.hits = [...hits, ...this.hits];
      this.writeHits ||= hits.some((h) => h.kind === 'write');
      batch.reject(storageError(err, this.where));
      return;
    }
    batch.resolve();
  }

  private saveHits(hits: readonly Hit[]): void {
    if (hits.length === 0) return;
    let latest = 0;
    for (const h of hits) {
      this.run('INSERT INTO rate_hits (workspace, kind, at) VALUES (?, ?, ?)', h.workspace, h.kind, h.at);
      latest = Math.max(latest, h.at);
    }
    // Hits an hour old count for nothing: the table keeps about one window's worth.
    this.run('DELETE FROM rate_hits WHERE at <= ?', latest - 2 * 3_600_000);
  }

  /** A request counted in a rate window: a write joins the commit before its answer, a read the next commit. */
  hit(h: Hit): void {
    if (this.closed) return;
    this.hits.push(h);
    if (h.kind === 'write') this.writeHits = true;
    else this.lazyTimer ??= setTimeout(() => {
      this.lazyTimer = undefined;
      this.flushQuietly();
    }, LAZY_FLUSH_MS).unref();
  }

  private flushQuietly(): void {
    if (this.hits.length === 0 || this.closed) return;
    try {
      this.open();
    } catch {
      // Counts only: kept in memory, written with the next commit.
    }
  }

  /** Commits what is pending and closes the database (its WAL folded back in) and the lock. */
  close(): void {
    if (this.closed) return;
    if (this.lazyTimer) clearTimeout(this.lazyTimer);
    this.flushQuietly();
    this.commit();
    this.closed = true;
    try {
      this.db.close();
    } finally {
      this.lock?.release();
    }
  }
}
