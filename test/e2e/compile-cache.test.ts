// The built binary keeps V8's compiled code of dist/ in the user's cache folder: made private,
// used again while it matches, replaced when it does not, never trusted when others can write
// it, off with NODE_DISABLE_COMPILE_CACHE, and never the reason a changed file runs stale code.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, ensureBuilt } from './ensure-built.js';

const tmp = mkdtempSync(join(tmpdir(), 'socialpub-compile-cache-'));
// Node 22.1+ keeps the cache itself (module.enableCompileCache); Node 20 goes through ours.
const builtIn = Number(process.versions.node.split('.')[0]) >= 23 || /^22\.([1-9]|\d\d)\./.test(process.versions.node);
const folderName = builtIn ? 'compile-cache' : `v8-${process.version}-${process.arch}`;

beforeAll(ensureBuilt, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
function home(): string {
  const dir = join(tmp, `home-${n++}`);
  mkdirSync(dir);
  return dir;
}

function run(bin: string, homeDir: string, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [bin, 'profile', 'list'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: homeDir, SOCIALPUB_CONFIG_DIR: join(homeDir, 'config'), ...env },
  });
  return { code: r.status, out: r.stdout + r.stderr };
}

const cacheOf = (homeDir: string) => join(homeDir, '.cache', 'socialpub', folderName);
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

  it.skipIf(builtIn)('keeps one 0600 file per module, used again unchanged while it matches', () => {
    const h = home();
    run(BIN, h);
    const dir = cacheOf(h);
    const before = new Map(entries(dir).map((f) => [f, statSync(join(dir, f)).mtimeMs]));
    expect([...before.keys()].some((f) => f.startsWith('main.cjs-'))).toBe(true);
    for (const f of before.keys()) expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
    run(BIN, h);
    // V8 accepted every file: none was written again, and no temporary file was left.
    expect(new Map(entries(dir).map((f) => [f, statSync(join(dir, f)).mtimeMs]))).toEqual(before);
  });

  it.skipIf(builtIn)('replaces data V8 rejects (here: garbage) and still runs', () => {
    const h = home();
    const good = run(BIN, h);
    const dir = cacheOf(h);
    for (const f of entries(dir)) writeFileSync(join(dir, f), 'not V8 code cache data');
    expect(run(BIN, h)).toEqual(good);
    for (const f of entries(dir)) expect(readFileSync(join(dir, f), 'utf8')).not.toBe('not V8 code cache data');
  });

  it.skipIf(builtIn)('drops replaced entries, month-old ones and stray temporary files when it writes', () => {
    const h = home();
    run(BIN, h);
    const dir = cacheOf(h);
    const main = entries(dir).find((f) => f.startsWith('main.cjs-'))!;
    const old = Date.now() / 1000 - 40 * 24 * 3600;
    writeFileSync(join(dir, 'main.cjs-1-2-3'), 'an older main.cjs');
    writeFileSync(join(dir, 'chunk-GONE.cjs-1-2-3'), 'a version no longer installed');
    utimesSync(join(dir, 'chunk-GONE.cjs-1-2-3'), old, old);
    writeFileSync(join(dir, 'chunk-OTHER.cjs-1-2-3'), 'another install, used last week');
    writeFileSync(join(dir, 'x.cjs-1-2-3.999.tmp'), 'left by a killed run');
    utimesSync(join(dir, 'x.cjs-1-2-3.999.tmp'), old, old);
    // Nothing is pruned while nothing is written.
    run(BIN, h);
    expect(entries(dir)).toContain('main.cjs-1-2-3');
    rmSync(join(dir, main));
    run(BIN, h);
    const after = entries(dir);
    expect(after).toContain(main);
    expect(after).toContain('chunk-OTHER.cjs-1-2-3');
    for (const gone of ['main.cjs-1-2-3', 'chunk-GONE.cjs-1-2-3', 'x.cjs-1-2-3.999.tmp']) expect(after).not.toContain(gone);
  });

  it('runs a changed file as changed, even with the same name and length', () => {
    // An installed copy whose message is edited in place between two runs.
    const install = join(tmp, 'install');
    mkdirSync(install);
    for (const part of ['bin', 'dist']) cpSync(join(ROOT, part), join(install, part), { recursive: true });
    const h = home();
    const bin = join(install, 'bin', 'socialpub.js');
    expect(run(bin, h).out).toContain('No profiles yet');
    const chunks = join(install, 'dist', 'chunks');
    const file = readdirSync(chunks).map((f) => join(chunks, f)).find((f) => f.endsWith('.cjs') && readFileSync(f, 'utf8').includes('No profiles yet'))!;
    writeFileSync(file, readFileSync(file, 'utf8').replace('No profiles yet', 'NO PROFILES YET'));
    const after = run(bin, h);
    expect(after.code, after.out).toBe(0);
    expect(after.out).toContain('NO PROFILES YET');
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
