// The open database and how changes reach it. Every change a request makes runs inside
// transaction(): committed (synchronous=FULL: the WAL is fsync'd at each commit) before the
// function returns, so a response sent after it reveals only what a kill -9 or a power cut
// cannot take back. Requests counted in a rate window are kept in memory until the next commit:
// a write's count joins the commit before its answer (flushWrites), reads are written within a
// second (an fsync per GET would cost more than the count is worth).
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { Blobs } from './blobs.js';
import { isSqliteError, storageError } from './errors.js';
import type { DataFileLock } from './lock.js';

const LAZY_FLUSH_MS = 1_000;

export interface Hit {
  workspace: number;
  kind: 'read' | 'write';
  at: number;
}

export class Store {
  private readonly statements = new Map<string, StatementSync>();
  private depth = 0;
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
  sql(text: string): StatementSync {
    let s = this.statements.get(text);
    if (!s) this.statements.set(text, (s = this.db.prepare(text)));
    return s;
  }

  run(text: string, ...params: SQLInputValue[]): void {
    this.sql(text).run(...params);
  }

  /**
   * Runs `fn` and commits what it changed, with the counted requests, before returning. When
   * `fn` throws, its changes are rolled back (the counts are still committed) and the error
   * goes on. A commit that fails throws a StorageError: nothing of it happened. Nested calls
   * join the outer transaction.
   */
  transaction<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    const hits = this.hits;
    this.hits = [];
    this.writeHits = false;
    this.depth++;
    let outcome: { ok: true; value: T } | { ok: false; err: unknown } | undefined;
    try {
      this.db.exec('BEGIN IMMEDIATE');
      this.saveHits(hits);
      this.db.exec('SAVEPOINT work');
      try {
        outcome = { ok: true, value: fn() };
        this.db.exec('RELEASE work');
      } catch (err) {
        outcome = { ok: false, err };
        this.db.exec('ROLLBACK TO work');
        this.db.exec('RELEASE work');
      }
      this.db.exec('COMMIT');
    } catch (err) {
      this.abandon(hits);
      // A handler's own error (a 4xx) stays as it is; the database's is the storage's.
      throw outcome && !outcome.ok && !isSqliteError(outcome.err) ? outcome.err : storageError(err, this.where);
    } finally {
      this.depth--;
    }
    if (!outcome.ok) throw isSqliteError(outcome.err) ? storageError(outcome.err, this.where) : outcome.err;
    return outcome.value;
  }

  /** After a failed commit: the transaction undone, the counts kept for the next one. */
  private abandon(hits: Hit[]): void {
    try {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
    } catch {
      // SQLite may have rolled back already (SQLITE_FULL does, in some cases).
    }
    this.hits = [...hits, ...this.hits];
    this.writeHits ||= hits.some((h) => h.kind === 'write');
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

  /** Commits the counts of write requests (before an answer that reveals them). Throws a StorageError. */
  flushWrites(): void {
    if (this.writeHits) this.transaction(() => undefined);
  }

  private flushQuietly(): void {
    if (this.hits.length === 0 || this.closed) return;
    try {
      this.transaction(() => undefined);
    } catch {
      // Counts only: kept in memory, written with the next commit.
    }
  }

  /** Writes what is pending and closes the database (its WAL folded back in) and the lock. */
  close(): void {
    if (this.closed) return;
    if (this.lazyTimer) clearTimeout(this.lazyTimer);
    this.flushQuietly();
    this.closed = true;
    try {
      this.db.close();
    } finally {
      this.lock?.release();
    }
  }
}
