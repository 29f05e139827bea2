// Completion's caches are one file per profile and base URL, per list: a write keeps the folder
// to the 16 most recently written of its own list (its own file and the 15 newest others), so a
// user who speaks to many servers does not grow it without end. File times are set explicitly and
// the clock is injected: nothing here sleeps.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recentPostIds, rememberPostIds } from '../../src/cli/post-id-cache.js';
import { DEFAULT_GLOBALS } from '../../src/cli/create-context.js';
import { openProfileStore } from '../../src/config/store.js';

const NOW = Date.parse('2030-01-01T12:00:00Z');
let tmp: string;
let cacheDir: string;

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'completion-bound-'));
  cacheDir = join(tmp, 'cache', 'socialpub');
  mkdirSync(cacheDir, { recursive: true });
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

const ctx = () => {
  const store = openProfileStore(join(tmp, 'config'));
  return {
    env: { HOME: tmp, XDG_CACHE_HOME: join(tmp, 'cache') },
    globals: { ...DEFAULT_GLOBALS, profile: 'acme', baseUrl: 'http://127.0.0.1:8787' },
    config: async () => store,
    clock: { now: () => NOW, sleep: async () => {} },
  };
};

/** A list's file of another profile or server, written `ageMs` before NOW (well within the list's ten minutes). */
function scopeFile(list: string, n: number, ageMs: number): string {
  const name = `${list}-${n.toString(16).padStart(16, '0')}.json`;
  const path = join(cacheDir, name);
  writeFileSync(path, JSON.stringify({ at: NOW - ageMs, ids: [`post_${n}`] }));
  utimesSync(path, (NOW - ageMs) / 1000, (NOW - ageMs) / 1000);
  return name;
}

describe('the completion cache bound', () => {
  it('a write keeps its own file and the 15 newest others of its list; the oldest go', async () => {
    // 20 other scopes, one second apart: others[0] is the newest, others[19] the oldest.
    const others = Array.from({ length: 20 }, (_, i) => scopeFile('recent-post-ids', i + 1, (i + 1) * 1000));
    // Another list's files are bounded on their own, not by this list's writes.
    const accounts = Array.from({ length: 20 }, (_, i) => scopeFile('recent-accounts', i + 1, (i + 1) * 1000));

    await rememberPostIds(ctx(), ['post_mine']);

    const left = readdirSync(cacheDir);
    const postFiles = left.filter((f) => f.startsWith('recent-post-ids-'));
    expect(postFiles).toHaveLength(16);
    expect(postFiles).toEqual(expect.arrayContaining(others.slice(0, 15)));
    for (const gone of others.slice(15)) expect(left).not.toContain(gone);
    expect(left.filter((f) => f.startsWith('recent-accounts-')).sort()).toEqual([...accounts].sort());
    // The file just written is among those kept, and reads back.
    expect(await recentPostIds(ctx())).toEqual(['post_mine']);
  });

  it('under the bound, nothing fresh is removed', async () => {
    const others = Array.from({ length: 15 }, (_, i) => scopeFile('recent-post-ids', i + 1, (i + 1) * 1000));
    await rememberPostIds(ctx(), ['post_mine']);
    const postFiles = readdirSync(cacheDir).filter((f) => f.startsWith('recent-post-ids-'));
    expect(postFiles).toHaveLength(16);
    expect(postFiles).toEqual(expect.arrayContaining(others));
  });
});
