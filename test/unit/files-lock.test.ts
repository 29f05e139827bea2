// The lock file shared by the profiles' saves and the sandbox's --data file: placed whole or not
// at all, held while its process lives, stale once it is gone, and a stale lock broken only when
// it is still the one that was read.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deadPid } from '../helpers/dead-pid.js';
import { breakStaleLock, holderAlive, lockToken, placeLock, readLock, releaseLock } from '../../src/files/lock.js';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'socialpub-lock-'));
  path = join(dir, 'data.json.lock');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the shared lock file', () => {
  it('is held: a second placer is refused and reads the holder, who is alive', () => {
    const mine = { pid: process.pid, token: lockToken(), startedAt: 'then' };
    expect(placeLock(path, mine)).toBe(true);
    const other = { pid: process.pid, token: lockToken() };
    expect(placeLock(path, other)).toBe(false);
    const found = readLock<typeof mine>(path);
    expect(found?.holder).toEqual(mine);
    expect(holderAlive(found!.holder!, path)).toBe(true);
    // Only the lock file is left: the temporary file it was linked from is gone.
    expect(readdirSync(dir)).toEqual(['data.json.lock']);
    releaseLock(path, mine.token);
    expect(readLock(path)).toBeUndefined();
    expect(placeLock(path, other)).toBe(true);
  });

  it('is stale once its process is dead, and breaking it lets the next placer in', async () => {
    const stale = JSON.stringify({ pid: await deadPid(), token: 'left-by-a-crash' });
    writeFileSync(path, stale);
    const found = readLock(path)!;
    expect(found.text).toBe(stale);
    expect(holderAlive(found.holder!, path)).toBe(false);
    const mine = { pid: process.pid, token: lockToken() };
    expect(placeLock(path, mine)).toBe(false);
    breakStaleLock(path, found.text, mine.token);
    expect(readdirSync(dir)).toEqual([]);
    expect(placeLock(path, mine)).toBe(true);
  });

  it('is stale when it names this process but a token this process does not hold (copied along)', () => {
    writeFileSync(path, JSON.stringify({ pid: process.pid, token: 'copied' }));
    expect(holderAlive(readLock(path)!.holder!, path)).toBe(false);
  });

  it('reads a garbled lock as text without a holder', () => {
    writeFileSync(path, '{"pid":');
    expect(readLock(path)).toEqual({ text: '{"pid":', holder: undefined });
  });

  it('puts back a lock that replaced the stale one after it was read', async () => {
    writeFileSync(path, JSON.stringify({ pid: await deadPid(), token: 'stale' }));
    const staleText = readLock(path)!.text;
    // Another process broke the stale lock and placed its own before this one got to it.
    const theirs = { pid: process.pid, token: lockToken() };
    rmSync(path);
    expect(placeLock(path, theirs)).toBe(true);
    breakStaleLock(path, staleText, lockToken());
    expect(readLock(path)?.holder).toEqual(theirs);
    expect(readdirSync(dir)).toEqual(['data.json.lock']);
  });

  it('releases only its own lock, never one that replaced it', () => {
    const mine = { pid: process.pid, token: lockToken() };
    expect(placeLock(path, mine)).toBe(true);
    const replacement = JSON.stringify({ pid: process.pid, token: 'someone-else' });
    writeFileSync(path, replacement);
    releaseLock(path, mine.token);
    expect(readFileSync(path, 'utf8')).toBe(replacement);
  });

  it("throws Node's own error when the folder is missing, for the caller to word", () => {
    expect(() => placeLock(join(dir, 'gone', 'x.lock'), { pid: process.pid, token: lockToken() })).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
