// What the built binary loads on its common paths, piped as scripts run it: none of Node's
// heavier modules that those paths do not use (http for a command that sends nothing; https
// with tls and crypto for an http URL). Each is milliseconds of start-up (`npm run bench
// startup`, `npm run bench overhead`); this keeps them from coming back unseen.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { BIN, ensureBuilt, ROOT } from './ensure-built.js';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
const tmp = mkdtempSync(join(tmpdir(), 'socialpub-startup-modules-'));
const recorder = join(tmp, 'record.cjs');
let sb: Sandbox;

beforeAll(async () => {
  await ensureBuilt();
  // Preloaded into the binary's process: writes the built-in modules it loaded when it exits.
  writeFileSync(
    recorder,
    `process.on('exit', () => { const fs = require('node:fs'); fs.writeFileSync(process.env.RECORD_TO, process.moduleLoadList.join('\\n')); fs.writeFileSync(process.env.RECORD_TO + '.files', Object.keys(require.cache).join('\\n')); });\n`,
  );
  sb = await startSandbox({ port: 0, seed: 3, fixtures: 20 });
}, 120_000);
afterAll(async () => {
  await sb?.close();
  rmSync(tmp, { recursive: true, force: true });
});

let n = 0;
/** Runs the binary with stdout and stderr piped; returns its exit code and the modules it loaded. */
async function modulesOf(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; out: string; modules: string[]; files: string[] }> {
  const record = join(tmp, `modules-${n++}.txt`);
  // Not spawnSync: the sandbox answering the child lives in this process's event loop.
  const child = spawn(process.execPath, [BIN, ...argv], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, HOME: join(tmp, 'home'), SOCIALPUB_CONFIG_DIR: join(tmp, 'config'), NODE_OPTIONS: `--require ${recorder}`, RECORD_TO: record, ...env },
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c));
  child.stderr.on('data', (c: Buffer) => (out += c));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, out, modules: readFileSync(record, 'utf8').split('\n'), files: readFileSync(`${record}.files`, 'utf8').split('\n') };
}

/** The loaded files of the build that hold zod's core (its `$constructor`): none, or the wire schemas' own. */
const zodCopies = (files: string[]) => files.filter((f) => f.endsWith('.cjs') && readFileSync(f, 'utf8').includes('$constructor')).map((f) => f.replace(/.*[\\/]/, ''));

const loaded = (modules: string[], names: string[]) => names.filter((name) => modules.includes(`NativeModule ${name}`));

describe('the start-up path, piped', () => {
  it('profile list loads no http, https or crypto', async () => {
    const r = await modulesOf(['profile', 'list']);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('No profiles yet');
    expect(loaded(r.modules, ['fs', 'path'])).toEqual(['fs', 'path']);
    expect(loaded(r.modules, ['crypto', 'https', 'http', 'tls'])).toEqual([]);
  });

  it('results get over http loads no https, tls or crypto', async () => {
    const key = sb.workspaces.find((w) => w.name === 'demo')!.apiKey;
    const env = { SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: key };
    // The whole list (20 rows): a cut one says so on stderr, which this reads with stdout.
    const list = await modulesOf(['results', 'list', '--limit', '50', '--json'], env);
    expect(list.code, list.out).toBe(0);
    const id = (JSON.parse(list.out) as Array<{ id: string }>)[0]!.id;
    const r = await modulesOf(['results', 'get', id], env);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain(id);
    expect(loaded(r.modules, ['http'])).toEqual(['http']);
    expect(loaded(r.modules, ['https', 'tls', 'crypto'])).toEqual([]);
    // An answer that fits is taken by the plain checks (src/wire/response-checks.ts): no zod at all.
    expect(zodCopies(r.files)).toEqual([]);
    // The layers (scripts/bundle.mjs): the program, an action, a request each one file, not ~40 chunks.
    const built = r.files.filter((f) => f.endsWith('.cjs'));
    expect(built.filter((f) => /[\\/](cli[\\/]entry|action|request|shared)\.cjs$/.test(f))).toHaveLength(4);
    expect(built.length).toBeLessThanOrEqual(20);
  });

  it('the sandbox library loads no part of the command line', async () => {
    const record = join(tmp, 'library.txt');
    const child = spawn(process.execPath, ['-e', `require(${JSON.stringify(join(ROOT, 'dist', 'sandbox', 'index.cjs'))})`], {
      stdio: 'ignore',
      env: { PATH: process.env.PATH, NODE_OPTIONS: `--require ${recorder}`, RECORD_TO: record },
    });
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(0);
    const files = readFileSync(`${record}.files`, 'utf8').split('\n').filter((f) => f.endsWith('.cjs'));
    expect(files.some((f) => f.endsWith('shared.cjs'))).toBe(true);
    expect(files.filter((f) => /[\\/](cli[\\/]entry|action|request)\.cjs$/.test(f))).toEqual([]);
  });

  it('posts view loads no zod, and no crypto (the retry plan holds it)', async () => {
    const key = sb.workspaces.find((w) => w.name === 'demo')!.apiKey;
    const env = { SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: key };
    const page = (await fetch(`${sb.url}/v1/posts?limit=1`, { headers: { authorization: `Bearer ${key}` } }).then((res) => res.json())) as { data: Array<{ id: string }> };
    const id = page.data[0]!.id;
    const r = await modulesOf(['posts', 'view', id], env);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain(id);
    expect(zodCopies(r.files)).toEqual([]);
    expect(loaded(r.modules, ['crypto'])).toEqual([]);
  });

  it('an answer that breaks its schema loads zod with the wire schemas, to say what is wrong', async () => {
    // A service whose post has a number for its status: the plain check refuses it, zod words it.
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'post_1', status: 7, payloads: {} })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const r = await modulesOf(['posts', 'view', 'post_1', '--json'], { SOCIALPUB_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, SOCIALPUB_API_KEY: 'sk_test_shape' });
      expect(r.code, r.out).not.toBe(0);
      expect(r.out).toContain('status: expected string, got number');
      expect(zodCopies(r.files)).toEqual(['wire-schemas.cjs']);
    } finally {
      server.close();
    }
  });

  it('posts check without --account loads none of the client: it never sends a request', async () => {
    const r = await modulesOf(['posts', 'check', '--platform', 'bluesky', '--text', 'Hello', '--json']);
    expect(r.code, r.out).toBe(0);
    expect(r.files.filter((f) => /[\\/](request|check-accounts[^\\/]*)\.cjs$/.test(f))).toEqual([]);
    expect(loaded(r.modules, ['http', 'https', 'crypto'])).toEqual([]);
  });

  it('accounts list and its help load no zod, and no node:fs/promises', async () => {
    const key = sb.workspaces.find((w) => w.name === 'demo')!.apiKey;
    const r = await modulesOf(['accounts', 'list', '--json'], { SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: key });
    expect(r.code, r.out).toBe(0);
    expect(zodCopies(r.files)).toEqual([]);
    // The completion cache it writes is one small file: no node:fs/promises (and its readline) for it.
    expect(loaded(r.modules, ['fs/promises', 'internal/readline/interface'])).toEqual([]);
    const help = await modulesOf(['accounts', 'list', '--help']);
    expect(help.code, help.out).toBe(0);
    expect(zodCopies(help.files)).toEqual([]);
  });
});
