// The built binary keeps V8's compiled code in the user's cache folder (Node 22.1+: Node's own
// compile cache; Node 20: its chunks' code through node:vm): made private, never trusted when
// others can write it, off with NODE_DISABLE_COMPILE_CACHE, and never the reason a changed file
// runs stale code.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, ensureBuilt } from './ensure-built.js';

const tmp = mkdtempSync(join(tmpdir(), 'socialpub-compile-cache-'));
// module.enableCompileCache is public from Node 22.1.
const builtIn = Number(process.versions.node.split('.')[0]) >= 23 || /^22\.([1-9]|\d\d)\./.test(process.versions.node);

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

  it.skipIf(builtIn)('on Node 20 holds the code of the files a run loaded, one private file each, kept while they are unchanged', () => {
    const h = home();
    expect(run(BIN, h).code).toBe(0);
    const dir = cacheOf(h);
    const files = entries(dir);
    // The core pack and the chunks `profile list` loads besides it.
    expect(files.length).toBeGreaterThan(1);
    for (const file of files) {
      expect(file).toMatch(/^[a-z0-9]+-v20\.[\d.]+-\d+-\d+-\d+-\d+\.v8$/);
      if (process.platform !== 'win32') expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
    }
    const written = files.map((f) => statSync(join(dir, f)).mtimeMs);
    // Accepted as they are: not written again by a later run of the same command.
    expect(run(BIN, h).code).toBe(0);
    expect(entries(dir)).toEqual(files);
    expect(files.map((f) => statSync(join(dir, f)).mtimeMs)).toEqual(written);
  });

  it.skipIf(builtIn)('on Node 20 drops the files of copies not seen for a month when it writes, and keeps the others', () => {
    const h = home();
    const dir = cacheOf(h);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const old = join(dir, 'gone-v20.0.0-1-2-3-4.v8');
    const recent = join(dir, 'elsewhere-v20.0.0-1-2-3-4.v8');
    writeFileSync(old, 'x');
    writeFileSync(recent, 'x');
    const monthAgo = (Date.now() - 31 * 24 * 3600 * 1000) / 1000;
    utimesSync(old, monthAgo, monthAgo);
    expect(run(BIN, h).code).toBe(0);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(recent)).toBe(true);
  });

  it.skipIf(builtIn)('on Node 20 a damaged cache (cut short, overwritten, emptied) is refused and made again, never the end of a run', () => {
    const h = home();
    const first = run(BIN, h);
    expect(first.code).toBe(0);
    const dir = cacheOf(h);
    const files = entries(dir);
    expect(files.length).toBeGreaterThan(2);
    const sizes = files.map((f) => statSync(join(dir, f)).size);
    writeFileSync(join(dir, files[0]!), readFileSync(join(dir, files[0]!)).subarray(0, 100));
    writeFileSync(join(dir, files[1]!), Buffer.alloc(sizes[1]!, 0x5a));
    writeFileSync(join(dir, files[2]!), '');
    expect(run(BIN, h)).toEqual(first);
    // Made again, whole.
    expect(entries(dir)).toEqual(files);
    expect(files.map((f) => statSync(join(dir, f)).size)).toEqual(sizes);
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
    // The same in the core pack.
    const lisst = ['profile', 'lisst'];
    expect(run(bin, h, {}, lisst).out).toContain("unknown command 'lisst'");
    const core = join(chunks, 'core.cjs');
    const text = readFileSync(core, 'utf8');
    expect(text).toContain('unknown command');
    writeFileSync(core, text.replaceAll('unknown command', 'UNKNOWN COMMAND'));
    expect(run(bin, h, {}, lisst).out).toContain("UNKNOWN COMMAND 'lisst'");
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
