// The bulk journal: one append-only NDJSON file per (profile, base URL, file content), in the
// config folder. Each event is one line, written before the run moves on (a row's outcome also
// fsync'd), so a kill at any moment (SIGKILL included) loses at most the line being written,
// which is then ignored. Losing it costs nothing: the row's key is derived from its content, so
// a re-send is replayed.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../keys.js';

export type JournalEntry =
  | { t: 'run'; at: string; file: string; rows: number; resume: boolean; v: 1 }
  | { t: 'send'; row: number; key: string }
  | { t: 'media'; row: number; path: string; url: string }
  | { t: 'done'; row: number; key: string; id: string | null; status: string | null; scheduledAt: string | null; replayed: boolean }
  | { t: 'fail'; row: number; key: string; code: string; message: string; requestId?: string | null };

export interface RowRecord {
  key: string;
  id: string | null;
  status: string | null;
  scheduledAt: string | null;
}

export interface JournalState {
  /** Rows finished (created or replayed), by row index. */
  done: Map<number, RowRecord>;
  /** The same, by the row's key (derived from its content): a row unchanged in an edited file is found. */
  doneByKey?: Map<string, RowRecord>;
  /** Media uploaded for unfinished rows: row → (path → URL). */
  media: Map<number, Map<string, string>>;
  /** Last failure per row (cleared when the row is done later). */
  failed: Map<number, { code: string; message: string }>;
  /**
   * Rows an earlier run sent and never saw done (killed with the request in flight), with when
   * that run started (epoch ms): the service may have made them.
   */
  sent?: Map<number, number>;
  runs: number;
}

export function journalPath(configDir: string, profile: string, baseUrl: string, contentHash: string): string {
  const id = sha256Hex(`${profile}\u0000${baseUrl}\u0000${contentHash}`).slice(0, 24);
  const safe = profile.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40);
  return join(configDir, 'journals', `${safe}-${id}.ndjson`);
}

/**
 * The rows finished on this service by this profile, whatever file they came from: a file edited
 * after a run gets a journal of its own, and its unchanged rows (same key) are found here.
 */
export function doneKeysPath(configDir: string, profile: string, baseUrl: string): string {
  const id = sha256Hex(`${profile}\u0000${baseUrl}`).slice(0, 24);
  const safe = profile.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40);
  // Beside the journals, not among them: one file per profile and service, whatever the bulk file.
  return join(configDir, 'bulk-done', `${safe}-${id}.ndjson`);
}

/** Reads a journal; a torn last line (killed mid-write) and unreadable lines are skipped. */
export function readJournal(path: string): JournalState {
  const state: JournalState = { done: new Map(), media: new Map(), failed: new Map(), runs: 0 };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    // No journal yet is the normal first run; any other failure must not pass for one, or a
    // re-run would send every row again (keys still prevent duplicates, but the user should know).
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return state;
    throw new Error(`cannot read the bulk journal ${path}: ${(err as Error).message}; fix its permissions, or run with --no-resume to go through every row again (keys still prevent duplicates)`, { cause: err });
  }
  let runAt = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let e: JournalEntry;
    try {
      e = JSON.parse(line) as JournalEntry;
    } catch {
      continue;
    }
    switch (e.t) {
      case 'run':
        state.runs++;
        runAt = Date.parse(e.at) || 0;
        break;
      case 'send':
        (state.sent ??= new Map()).set(e.row, runAt);
        break;
      case 'media': {
        const m = state.media.get(e.row) ?? new Map<string, string>();
        m.set(e.path, e.url);
        state.media.set(e.row, m);
        break;
      }
      case 'done':
        state.sent?.delete(e.row);
        state.done.set(e.row, { key: e.key, id: e.id, status: e.status, scheduledAt: e.scheduledAt });
        (state.doneByKey ??= new Map()).set(e.key, { key: e.key, id: e.id, status: e.status, scheduledAt: e.scheduledAt });
        state.failed.delete(e.row);
        break;
      case 'fail':
        if (!state.done.has(e.row)) state.failed.set(e.row, { code: e.code, message: e.message });
        break;
    }
  }
  return state;
}

export interface JournalWriter {
  readonly path: string;
  append(entry: JournalEntry): void;
  close(): void;
}

/** Opens for appending (0600 in a 0700 folder); makes sure a torn last line stays on its own. */
export function openJournal(path: string): JournalWriter {
  const dir = join(path, '..');
  const created = !existsSync(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let needsNewline = false;
  if (!created) {
    const text = readFileSync(path, 'utf8');
    needsNewline = text.length > 0 && !text.endsWith('\n');
  }
  const fd = openSync(path, 'a', 0o600);
  if (created) {
    // The new file's name must survive a crash too.
    try {
      const dfd = openSync(dir, 'r');
      fsyncSync(dfd);
      closeSync(dfd);
    } catch {
      // Some platforms cannot fsync a folder; the entries themselves are still synced.
    }
  }
  let open = true;
  return {
    path,
    append(entry) {
      if (!open) return;
      writeSync(fd, (needsNewline ? '\n' : '') + JSON.stringify(entry) + '\n');
      needsNewline = false;
      // A row's outcome is synced before the run moves on. The other lines need no sync: a killed
      // process loses nothing already written, and after a power cut a lost "send" or "media"
      // line only means a re-send with the same derived key, which the service replays.
      if (entry.t === 'done' || entry.t === 'fail') fsyncSync(fd);
    },
    close() {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}
