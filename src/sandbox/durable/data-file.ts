// `--data FILE` from start to stop: stale temporary files removed, the snapshot loaded and its
// log read (start); after the state is rebuilt, compacted: a new snapshot (generation + 1)
// written atomically and an empty log of that generation started, before the first request;
// at a clean stop, the log written out, compacted into the snapshot and removed.
import { rmSync } from 'node:fs';
import { loadState, prepareFolder, removeStaleTemps, writeAtomically, type SavedState } from '../persistence.js';
import type { Change } from './changes.js';
import { Journal, logFileOf, readLog } from './journal.js';

export interface OpenedData {
  saved: SavedState | undefined;
  /** Changes after the snapshot, to replay onto it. */
  changes: Change[];
}

export function openDataFile(file: string): OpenedData {
  prepareFolder(file);
  removeStaleTemps(file);
  const saved = loadState(file);
  // A log without its snapshot cannot be replayed onto anything; compaction replaces it.
  const changes = saved ? readLog(logFileOf(file), saved.journal ?? 0) : [];
  return { saved, changes };
}

export class DataFile {
  private constructor(
    readonly file: string,
    private generation: number,
    readonly journal: Journal,
  ) {}

  /** Writes the rebuilt state as the new snapshot and starts its (empty) log. */
  static async start(file: string, previousGeneration: number, snapshot: (generation: number) => SavedState): Promise<DataFile> {
    const generation = previousGeneration + 1;
    await writeAtomically(file, JSON.stringify(snapshot(generation)));
    const journal = await Journal.create(logFileOf(file), generation);
    return new DataFile(file, generation, journal);
  }

  /** A clean stop: everything written, folded into the snapshot, the log removed. */
  async stop(snapshot: (generation: number) => SavedState): Promise<void> {
    await this.journal.close();
    this.generation++;
    await writeAtomically(this.file, JSON.stringify(snapshot(this.generation)));
    rmSync(logFileOf(this.file), { force: true });
  }
}
