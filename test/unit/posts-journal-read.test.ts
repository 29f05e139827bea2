// A bulk journal that exists but cannot be read is an error, not "no journal": otherwise a
// re-run would silently go through every row again.
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/posts/bulk/journal.js';

const dir = mkdtempSync(join(tmpdir(), 'socialpub-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('reading a bulk journal', () => {
  it('a missing journal is a first run', () => {
    const state = readJournal(join(dir, 'none.journal'));
    expect(state.done.size).toBe(0);
    expect(state.runs).toBe(0);
  });

  it('an unreadable one says so and names the way out', () => {
    const path = join(dir, 'a-folder.journal');
    mkdirSync(path);
    expect(() => readJournal(path)).toThrow(/cannot read the bulk journal .*--no-resume/);
  });
});
