// `--data FILE` from start to stop: the file locked for this sandbox (lock.ts), symbolic links
// refused, stale temporary files removed, the snapshot loaded and its log read (start); after
// the state is rebuilt, compacted: a new snapshot (generation + 1) written atomically and an
// empty log of that generation started, before the first request; at a clean stop, the log
// written out, compacted into the snapshot and removed, and the lock released.
import { rmSync } from 'node:fs';
import { loadState, prepareFolder, refuseLink, removeStaleTemps, writeAtomically, type SavedState } from '../persistence.js';
import type { Change } from './replay.js';
import { Journal } from './journal.js';
import { logFileOf, readLog } from './log-file.js';
import { lockDataFile, type DataFileLock } from './lock.js';

export interface OpenedData {
  saved: SavedState | undefined;
  /** Changes after the snapshot, to replay onto it. */
  changes: Change[];
  /** Held until the sandbox stops (or fails to start). */
  lock: DataFileLock;
  /** What start-up found worth telling (a torn last line dropped). */
  notices: string[];
}

export function openDataFile(file: string): OpenedData {
  prepareFolder(file);
  // Before anything else: another sandbox's temporary files are not stale.
  const lock = lockDataFile(file);
  try {
    refuseLink(file);
    refuseLink(logFileOf(file));
    removeStaleTemps(file);
    const saved = loadState(file);
    // A log without its snapshot cannot be replayed onto anything; compaction replaces it.
    const log = saved ? readLog(logFileOf(file), saved.journal ?? 0) : { changes: [], notices: [] };
    return { saved, changes: log.changes, lock, notices: log.notices };
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** How the data file reaches the running state. */
export interface DataFileHost {
  /** The whole state, as the snapshot of `generation`. */
  snapshot(generation: number): SavedState;
  /** From now on, changes go to this log. */
  switchJournal(journal: Journal): void;
}

/** Past this size the log is folded into a new snapshot while the sandbox runs. */
export const DEFAULT_COMPACT_BYTES = 64 * 1024 * 1024;

export class DataFile {
  private compacting: Promise<void> | undefined;
  private stopped = false;

  private constructor(
    readonly file: string,
    private generation: number,
    public journal: Journal,
    private readonly host: DataFileHost,
    private readonly compactBytes: number,
  ) {
    this.watch(journal);
  }

  /** Writes the rebuilt state as the new snapshot and starts its (empty) log. */
  static async start(file: string, previousGeneration: number, first: SavedState, host: DataFileHost, compactBytes = DEFAULT_COMPACT_BYTES): Promise<DataFile> {
    const generation = previousGeneration + 1;
    await writeAtomically(file, JSON.stringify({ ...first, journal: generation }));
    const journal = await Journal.create(logFileOf(file), generation);
    host.switchJournal(journal);
    return new DataFile(file, generation, journal, host, compactBytes);
  }

  private watch(journal: Journal): void {
    journal.afterFlush = () => {
      if (journal.size > this.compactBytes && !this.compacting && !this.stopped && journal === this.journal) this.compact();
    };
  }

  /**
   * Folds the log into a new snapshot while requests go on: the state is captured now, new
   * changes go to the next log at once, and that log acknowledges nothing until the previous
   * log is closed and the new snapshot renamed into place. A crash at any point leaves a
   * snapshot with its own log (or with an older one, already contained in it).
   */
  private compact(): void {
    const previous = this.journal;
    const generation = this.generation + 1;
    const text = JSON.stringify(this.host.snapshot(generation));
    const written = (async () => {
      await previous.close();
      await writeAtomically(this.file, text);
    })();
    const next = Journal.after(written, logFileOf(this.file), generation);
    this.journal = next;
    this.watch(next);
    this.host.switchJournal(next);
    this.compacting = next
      .ready()
      .then(() => {
        this.generation = generation;
      })
      .catch(() => {
        // The next log reports the failure to every request that needs it (500, not acknowledged).
      })
      .finally(() => {
        this.compacting = undefined;
      });
  }

  /** A clean stop: everything written, folded into the snapshot, the log removed. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.compacting;
    await this.journal.close();
    this.generation++;
    await writeAtomically(this.file, JSON.stringify(this.host.snapshot(this.generation)));
    rmSync(logFileOf(this.file), { force: true });
  }
}
