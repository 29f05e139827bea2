// Folders in the temporary folder that name their process: removed by it, and by a later process
// once it is gone without removing them; a folder whose process lives, or that names none, stays.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deadPid } from '../helpers/dead-pid.js';
import { makeOwnedTempDir, removeStaleTempDirs } from '../../src/files/owned-temp-dir.js';

const PREFIX = 'socialpub-owned-test-';
let root: string;
let saved: string | undefined;
beforeEach(() => {
  // os.tmpdir() reads TMPDIR at each call: every folder of these tests is made inside `root`.
  root = mkdtempSync(join(tmpdir(), 'socialpub-owned-'));
  saved = process.env.TMPDIR;
  process.env.TMPDIR = root;
});
afterEach(() => {
  if (saved === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = saved;
  rmSync(root, { recursive: true, force: true });
});

describe('owned temporary folders', () => {
  it('are private to this process and removed by it', () => {
    const dir = makeOwnedTempDir(PREFIX);
    expect(dir.path.startsWith(join(root, PREFIX))).toBe(true);
    expect(statSync(dir.path).mode & 0o777).toBe(0o700);
    expect(removeStaleTempDirs(PREFIX)).toEqual([]);
    dir.remove();
    dir.remove();
    expect(readdirSync(root)).toEqual([]);
  });

  it('one whose process is gone is removed by the next, and said; a live one and one naming no process stay', async () => {
    const live = makeOwnedTempDir(PREFIX);
    const pid = await deadPid();
    const stale = join(root, `${PREFIX}stale`);
    mkdirSync(stale, { mode: 0o700 });
    writeFileSync(join(stale, 'owner.lock'), `${JSON.stringify({ pid, token: 'abc' })}\n`);
    writeFileSync(join(stale, 'demo.key'), 'sk_sandbox_old\n');
    const unowned = join(root, `${PREFIX}unowned`);
    mkdirSync(unowned);
    const other = join(root, 'someone-else-stale');
    mkdirSync(other);
    writeFileSync(join(other, 'owner.lock'), `${JSON.stringify({ pid, token: 'abc' })}\n`);

    expect(removeStaleTempDirs(PREFIX)).toEqual([{ path: stale, pid }]);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(live.path) && existsSync(unowned) && existsSync(other)).toBe(true);
    live.remove();
  });
});
