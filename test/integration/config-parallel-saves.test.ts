// Twelve processes save a profile each into one config folder at the same moment (as twelve
// parallel `auth login --profile pN` do): every save that returned is in the file afterwards,
// the file stays private and no lock or temporary file is left. A lock left by a process
// killed mid-save does not block the next save.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProfileStore } from '../../src/config/store.js';
import { bundleChildScript } from '../helpers/child-script.js';
import { deadPid } from '../helpers/dead-pid.js';

const dir = mkdtempSync(join(tmpdir(), 'config-parallel-'));
let script = '';

beforeAll(async () => {
  // One save per process, started together: each waits for a "go" file so that the saves overlap.
  script = await bundleChildScript(
    `import { existsSync } from 'node:fs';
        import { openProfileStore } from './src/config/store.ts';
        const [configDir, name, go] = process.argv.slice(2);
        console.log('ready');
        while (!existsSync(go)) await new Promise((r) => setTimeout(r, 2));
        await openProfileStore(configDir, { keyring: null }).set(name, { baseUrl: 'http://127.0.0.1:1', apiKey: 'sk_test_' + name.padEnd(12, 'x') });
        console.log('Saved ' + name);`,
    join(dir, 'save-one.mjs'),
  );
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  /** Resolves once the process is loaded and waiting for the "go" file. */
  ready: Promise<void>;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function run(args: string[]): Run {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
    if (stdout.startsWith('ready\n')) markReady();
  });
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => {
      markReady();
      resolve({ code, stdout, stderr });
    }),
  );
  return { ready, done };
}

describe('parallel saves of the profiles file', () => {
  it('twelve processes, twelve profiles', async () => {
    const configDir = join(dir, 'twelve');
    const go = join(dir, 'go-twelve');
    const names = Array.from({ length: 12 }, (_, i) => `p${i + 1}`);
    const runs = names.map((n) => run([configDir, n, go]));
    // Every process loaded and polling: the saves start together.
    await Promise.all(runs.map((r) => r.ready));
    writeFileSync(go, '');
    const outcomes = await Promise.all(runs.map((r) => r.done));
    expect(outcomes.map((o) => o.code)).toEqual(names.map(() => 0));
    expect(outcomes.map((o) => o.stdout)).toEqual(names.map((n) => `ready\nSaved ${n}\n`));
    const store = openProfileStore(configDir, { keyring: null });
    expect(store.names()).toEqual([...names].sort());
    for (const n of names) expect(store.get(n)?.apiKey).toBe(`sk_test_${n.padEnd(12, 'x')}`);
    expect(readdirSync(configDir)).toEqual(['config.json']);
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
  }, 60_000);

  it('a lock left by a process that died is stale', async () => {
    const configDir = join(dir, 'stale');
    const store = openProfileStore(configDir, { keyring: null });
    await store.set('first', {});
    const dead = await deadPid();
    writeFileSync(join(configDir, 'config.json.lock'), JSON.stringify({ pid: dead, token: 'left-by-a-crash' }));
    await openProfileStore(configDir, { keyring: null }).set('second', {});
    expect(JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')).profiles).toEqual({ first: {}, second: {} });
    expect(readdirSync(configDir)).toEqual(['config.json']);
  });
});
