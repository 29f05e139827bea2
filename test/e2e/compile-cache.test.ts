// The built binary keeps V8's compiled code (Node's compile cache) in the user's cache folder:
// made private, never used when others can write it, off with NODE_DISABLE_COMPILE_CACHE.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt } from './ensure-built.js';
import { VERSION } from '../../src/version.js';

const tmp = mkdtempSync(join(tmpdir(), 'socialpub-compile-cache-'));

beforeAll(ensureBuilt, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
function home(): string {
  const dir = join(tmp, `home-${n++}`);
  mkdirSync(dir);
  return dir;
}

function run(bin: string, homeDir: string, env: NodeJS.ProcessEnv = {}, args = ['profile', 'list']) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: homeDir, SOCIALPUB_CONFIG_DIR: join(homeDir, 'config'), ...env },
  });
  return { code: r.status, out: r.stdout + r.stderr };
}

const cacheOf = (homeDir: string) => join(homeDir, '.cache', 'socialpub', 'compile-cache');
const entries = (dir: string) => readdirSync(dir).sort();

describe('the compile cache', () => {
  it('is made in a private folder under the home, and the next run gives the same output', () => {
    const h = home();
    const first = run(BIN, h);
    expect(first.code, first.out).toBe(0);
    expect(first.out).toContain('No profiles yet');
    const dir = cacheOf(h);
    expect(entries(dir).length).toBeGreaterThan(0);
    if (process.platform !== 'win32') expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(run(BIN, h)).toEqual(first);
  });

  it('keeps a folder per version: a new version removes all but the two others written to last, and what the old layout left', () => {
    const h = home();
    const dir = cacheOf(h);
    const day = 86_400;
    const now = Date.now() / 1000;
    // Node's own folder from before the cache had a folder per version, and three older versions.
    for (const [name, age] of [['v22.13.0-x64-1a2b3c4d-0', 1], ['0.0.1', 30], ['0.0.2', 20], ['0.0.3', 10]] as const) {
      mkdirSync(join(dir, name), { recursive: true, mode: 0o700 });
      writeFileSync(join(dir, name, 'entry'), 'x');
      utimesSync(join(dir, name), now - age * day, now - age * day);
    }
    chmodSync(dir, 0o700);
    expect(run(BIN, h).code).toBe(0);
    expect(entries(dir)).toEqual(['0.0.2', '0.0.3', VERSION].sort());
    expect(readdirSync(join(dir, VERSION)).length).toBeGreaterThan(0);
    // Only the run that makes this version's folder looks at the others.
    mkdirSync(join(dir, '0.0.0'), { mode: 0o700 });
    expect(run(BIN, h).code).toBe(0);
    expect(entries(dir)).toEqual(['0.0.0', '0.0.2', '0.0.3', VERSION].sort());
  });

  it('is off with NODE_DISABLE_COMPILE_CACHE, and never makes a home that does not exist', () => {
    const h = home();
    expect(run(BIN, h, { NODE_DISABLE_COMPILE_CACHE: '1' }).code).toBe(0);
    expect(existsSync(join(h, '.cache'))).toBe(false);
    const missing = join(tmp, 'no-such-home');
    expect(run(BIN, missing, { SOCIALPUB_CONFIG_DIR: join(tmp, 'elsewhere') }).code).toBe(0);
    expect(existsSync(missing)).toBe(false);
  });

  it.skipIf(process.platform === 'win32')('is not used from a folder that others can write', () => {
    const h = home();
    const dir = cacheOf(h);
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o777);
    const r = run(BIN, h);
    expect(r.code, r.out).toBe(0);
    expect(entries(dir)).toEqual([]);
  });
});
