// The built binary, several copies at once on one file: twelve parallel `auth login --profile
// pN` into one config folder all land (each printed that it saved), and a second `socialpub
// sandbox --data FILE` on a file in use exits 1 naming the first one's pid, while a restart
// after the first was killed (kill -9) starts on the same file.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProfileStore } from '../../src/config/store.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { BIN, ROOT, ensureBuilt } from './ensure-built.js';

let sandbox: Sandbox;
const tmp = mkdtempSync(join(tmpdir(), 'socialpub-concurrent-'));
const children = new Set<ChildProcess>();

beforeAll(async () => {
  await ensureBuilt();
  sandbox = await startSandbox({ port: 0, seed: 7, readLimit: 1_000 });
}, 120_000);
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await sandbox?.close();
  rmSync(tmp, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function socialpub(args: string[], configDir: string, stdin = ''): Started {
  const env = { PATH: process.env.PATH ?? '', HOME: join(tmp, 'home'), SOCIALPUB_CONFIG_DIR: configDir, NO_COLOR: '1' };
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  child.stdin.end(stdin);
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

describe('several copies of the binary at once', () => {
  it('twelve parallel `auth login --profile pN`: twelve profiles', async () => {
    const configDir = join(tmp, 'config');
    const names = Array.from({ length: 12 }, (_, i) => `p${i + 1}`);
    const key = sandbox.key('demo');
    const runs = await Promise.all(names.map((n) => socialpub(['auth', 'login', '--profile', n, '--with-key', '--base-url', sandbox.url], configDir, `${key}\n`).done));
    expect(runs.map((r) => r.code)).toEqual(names.map(() => 0));
    for (const r of runs) expect(r.stderr).toMatch(/Saved/);
    const store = openProfileStore(configDir, { keyring: null });
    expect(store.names()).toEqual([...names].sort());
    for (const n of names) expect(store.get(n)?.apiKey).toBe(key);
    expect(readdirSync(configDir)).toEqual(['config.json']);
  }, 60_000);

  it('`sandbox --data FILE` twice: the second exits 1 naming the first one; after kill -9 the file starts again', async () => {
    const file = join(tmp, 'data', 'state.db');
    const args = ['sandbox', '--port', '0', '--json', '--data', file];
    const first = socialpub(args, join(tmp, 'config-sb'));
    await new Promise<void>((resolve, reject) => {
      first.done.then((r) => reject(new Error(`sandbox exited ${r.code}: ${r.stderr}`)), reject);
      createInterface({ input: first.child.stdout! }).once('line', () => resolve());
    });
    const second = await socialpub(args, join(tmp, 'config-sb')).done;
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    expect(second.stderr).toContain(`error: ${file} is in use by another sandbox (pid ${first.child.pid},`);

    first.child.kill('SIGKILL');
    await first.done;
    const again = socialpub(args, join(tmp, 'config-sb'));
    const ready = await new Promise<string>((resolve, reject) => {
      again.done.then((r) => reject(new Error(`sandbox exited ${r.code}: ${r.stderr}`)), reject);
      createInterface({ input: again.child.stdout! }).once('line', resolve);
    });
    expect(JSON.parse(ready).baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // A clean stop (its exit code is the signal handling's business) leaves no lock behind.
    again.child.kill('SIGTERM');
    await again.done;
    expect(readdirSync(join(tmp, 'data'))).toEqual(['state.db']);
  }, 60_000);
});
