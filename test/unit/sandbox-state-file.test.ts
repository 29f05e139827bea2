// The state writer: debounced, atomic (a reader never sees half a file), private (0600), and
// the last change always lands.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StateWriter, STATE_FORMAT, type SavedState } from '../../src/sandbox/persistence.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const state = (n: number): SavedState => ({
  format: STATE_FORMAT,
  version: 1,
  savedAt: new Date(0).toISOString(),
  entropy: [1, 2, 3, 4],
  boot: n,
  webhookSecret: 'whsec_x',
  // Big enough that a torn write would be seen by a reader polling meanwhile.
  workspaces: [{ name: 'demo', tag: 1, apiKey: 'k', addon: true, posts: [], rows: Array.from({ length: 20_000 }, (_, i) => [i, n % 9, 1, i]), media: [], idempotency: [] }],
});

describe('StateWriter', () => {
  it('replaces the file atomically while changes keep coming, and ends with the last state', async () => {
    const file = join(dir, 'state.json');
    let n = 0;
    const writer = new StateWriter(file, () => state(n), 1);
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
    for (n = 1; n <= 30; n++) {
      writer.schedule();
      await new Promise((r) => setTimeout(r, 2));
    }
    n = 30;
    writer.schedule();
    await writer.flush();
    stop = true;
    await reader;
    expect(reads).toBeGreaterThan(5);
    expect((JSON.parse(readFileSync(file, 'utf8')) as SavedState).boot).toBe(30);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
