// The data file's two halves: the snapshot (atomic: a reader never sees half a file; private;
// the last write wins; no temporary file left, even after a crash) and the write-ahead log
// (nothing acknowledged before fsync; a torn last line ignored; a log of another generation
// skipped).
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Journal } from '../../src/sandbox/durable/journal.js';
import { readLog as readLogFile } from '../../src/sandbox/durable/log-file.js';
import { removeStaleTemps, StateFileError, STATE_FORMAT, writeAtomically, type SavedState } from '../../src/sandbox/persistence.js';

/** The changes only (the notices have their own tests). */
const readLog = (file: string, generation: number) => readLogFile(file, generation).changes;

const dir = mkdtempSync(join(tmpdir(), 'sandbox-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const state = (n: number): SavedState => ({
  format: STATE_FORMAT,
  version: 2,
  savedAt: new Date(0).toISOString(),
  entropy: [1, 2, 3, 4],
  boot: n,
  webhookSecret: 'whsec_x',
  // Big enough that a torn write would be seen by a reader polling meanwhile.
  workspaces: [{ name: 'demo', tag: 1, apiKey: 'k', addon: true, posts: [], rows: Array.from({ length: 20_000 }, (_, i) => [i, n % 9, 1, i]), media: [], idempotency: [] }],
});

describe('snapshot writes', () => {
  it('replace the file atomically while writes keep coming, and end with the last state', async () => {
    const file = join(dir, 'state.json');
    let reads = 0;
    let stop = false;
    const reader = (async () => {
      while (!stop) {
        try {
          const parsed = JSON.parse(readFileSync(file, 'utf8')) as SavedState;
          expect(parsed.workspaces[0]!.rows).toHaveLength(20_000);
          reads++;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
        await new Promise((r) => setImmediate(r));
      }
    })();
    for (let n = 1; n <= 12; n++) await writeAtomically(file, JSON.stringify(state(n)));
    stop = true;
    await reader;
    expect(reads).toBeGreaterThan(5);
    expect((JSON.parse(readFileSync(file, 'utf8')) as SavedState).boot).toBe(12);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('removes the temporary files a crash left behind, and only those', () => {
    const folder = mkdtempSync(join(dir, 'stale-'));
    const file = join(folder, 'state.json');
    for (const name of ['state.json', 'state.json.4242.7.tmp', 'state.json.99.tmp', 'other.json.1.2.tmp', 'state.json.notes.tmp']) writeFileSync(join(folder, name), 'x');
    expect(removeStaleTemps(file).sort()).toEqual(['state.json.4242.7.tmp', 'state.json.99.tmp']);
    expect(readdirSync(folder).sort()).toEqual(['other.json.1.2.tmp', 'state.json', 'state.json.notes.tmp']);
  });
});

describe('the write-ahead log', () => {
  const hit = (at: number) => ({ t: 'hit' as const, w: 1, k: 'write' as const, at });

  it('is on disk when durable() resolves, one line per batch, and private', async () => {
    const file = join(dir, 'a.wal');
    const journal = await Journal.create(file, 7);
    journal.append(hit(1));
    journal.append(hit(2));
    const waiting = journal.durable();
    expect(waiting).toBeInstanceOf(Promise);
    await waiting;
    // Read by another reader, as a restarted process would.
    expect(readLog(file, 7)).toEqual([hit(1), hit(2)]);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2);
    expect(journal.durable()).toBeUndefined();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // A lazy change does not make anyone wait; close() writes it.
    journal.append(hit(3), true);
    expect(journal.durable()).toBeUndefined();
    await journal.close();
    expect(readLog(file, 7)).toEqual([hit(1), hit(2), hit(3)]);
  });

  it('ignores a torn last line and a log of another generation, and refuses damage before the end', async () => {
    const file = join(dir, 'b.wal');
    const journal = await Journal.create(file, 3);
    journal.append(hit(1));
    await journal.durable();
    await journal.close();
    appendFileSync(file, '[{"t":"hit","w":1,"k":"wr');
    expect(readLog(file, 3)).toEqual([hit(1)]);
    expect(readLog(file, 4)).toEqual([]);
    expect(readLog(join(dir, 'missing.wal'), 3)).toEqual([]);
    const [header, first] = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, `${header}\n${first}\n[garbage\n${first}\n`);
    expect(() => readLog(file, 3)).toThrow(StateFileError);
  });

  it('started behind a compaction, acknowledges nothing (not even earlier changes) until the compaction is done', async () => {
    const file = join(dir, 'c.wal');
    let open!: () => void;
    const compaction = new Promise<void>((resolve) => (open = resolve));
    const journal = Journal.after(compaction, file, 9);
    // A request whose change went to the previous log asks this one: it must wait too.
    const earlier = journal.durable();
    expect(earlier).toBeInstanceOf(Promise);
    journal.append(hit(5));
    let done = false;
    const later = journal.durable()!.then(() => (done = true));
    // Several turns of the event loop: without the gate, the write and its fsync would be done.
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    expect(readLog(file, 9)).toEqual([]);
    open();
    await Promise.all([earlier, later]);
    expect(readLog(file, 9)).toEqual([hit(5)]);
    await journal.close();
  });
});
