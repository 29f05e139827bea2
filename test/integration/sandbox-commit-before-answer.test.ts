// The central promise of `--data`: a write is committed, and the commit is on the disk, before
// its 2xx answer. Checked from outside the process with strace, on the sandbox as a child:
// - order: every 2xx answer to a write (the `writev` of "HTTP/1.1 2…" on its socket) comes
//   after an fsync of the database's WAL made since that request was read. Fails if the sync is
//   removed (synchronous=OFF or NORMAL: no fsync at commit) or if the answer goes first.
// - crash: the child is killed (SIGKILL injected by strace) at the K-th write to its WAL, for
//   several K; every write answered 2xx before the kill is there after a restart, and no id
//   is handed out twice. Fails if the answer goes before the commit.
// Both need strace and permission to trace (root, or ptrace_scope 0); otherwise skipped, named.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleChildScript } from '../helpers/child-script.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-commit-'));
const children = new Set<ChildProcess>();
let childScript = '';
const traced = spawnSync('strace', ['-qq', '-o', '/dev/null', 'true']);
const noStrace = traced.error ? 'strace is not installed' : traced.status !== 0 ? `strace cannot trace here: ${String(traced.stderr).trim()}` : undefined;

beforeAll(async () => {
  childScript = await bundleChildScript(
    `import { startSandbox } from './src/sandbox/index.ts';
        const sb = await startSandbox({ port: 0, dataFile: process.argv[2], writeLimit: 1000000, failureRate: 0 });
        process.on('SIGTERM', () => sb.close().then(() => process.exit(0)));
        console.log(JSON.stringify({ url: sb.url, key: sb.key('demo'), pid: process.pid }));`,
    join(dir, 'child.mjs'),
  );
}, 60_000);
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Child {
  child: ChildProcess;
  url: string;
  key: string;
  /** The sandbox's own pid (under strace, the child is strace). */
  pid: number;
  exited: Promise<NodeJS.Signals | null>;
}

/** Starts the sandbox on `file`, under strace with `straceArgs` when given; undefined when it died before it was ready. */
async function start(file: string, straceArgs?: string[]): Promise<Child | undefined> {
  const node = [process.execPath, childScript, file];
  const [cmd, ...args] = straceArgs ? ['strace', '-f', '-qq', ...straceArgs, '--', ...node] : node;
  const child = spawn(cmd!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal ?? (stderr.includes('+++ killed by SIGKILL') ? 'SIGKILL' : null))));
  const ready = await new Promise<{ url: string; key: string; pid: number } | undefined>((resolve) => {
    child.once('exit', () => resolve(undefined));
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line) as { url: string; key: string; pid: number }));
  });
  return ready && { child, exited, ...ready };
}

async function stop(c: Child): Promise<void> {
  process.kill(c.pid, 'SIGTERM');
  await c.exited;
}

async function send(c: Child, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(c.url + path, {
    method,
    headers: { authorization: `Bearer ${c.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** One of each kind of write the API takes, each awaited: how many were answered 2xx. */
async function everyKindOfWrite(c: Child): Promise<number> {
  const statuses: number[] = [];
  const run = async (method: string, path: string, body?: unknown) => {
    const r = await send(c, method, path, body);
    statuses.push(r.status);
    return r.body;
  };
  const future = new Date(Date.now() + 3_600_000).toISOString();
  const draft = await run('POST', '/v1/posts', { payloads: { bluesky: { text: 'a draft' } } });
  await run('PATCH', `/v1/posts/${draft.id}`, { title: 'renamed' });
  await run('POST', '/v1/schedule', { postId: draft.id, scheduledAt: future });
  const other = await run('POST', '/v1/schedule', { payloads: { threads: { text: 'later' } }, scheduledAt: future });
  await run('DELETE', `/v1/posts/${other.id}`);
  const media = await run('POST', '/v1/media', { name: 'dot.png', mimeType: 'image/png', sizeBytes: 3 });
  await run('PUT', `/v1/media/${media.id}/upload`, new Uint8Array([1, 2, 3]));
  expect(statuses).toEqual([201, 200, 201, 201, 204, 201, 200]);
  return statuses.length;
}

describe.skipIf(noStrace !== undefined)(`commit before answer (strace)${noStrace ? ` — skipped: ${noStrace}` : ''}`, () => {
  it('every 2xx answer to a write follows an fsync of the WAL made after its request arrived', async () => {
    const file = join(dir, 'order.db');
    const log = join(dir, 'order.strace');
    const c = (await start(file, ['-y', '-s', '24', '-e', 'trace=read,write,writev,fsync,fdatasync', '-o', log]))!;
    const writes = await everyKindOfWrite(c);
    await stop(c);

    let requestPending = false;
    let syncedSinceRequest = false;
    const answers: { synced: boolean; line: string }[] = [];
    for (const line of readFileSync(log, 'utf8').split('\n')) {
      if (/ read\(\d+<socket:.*"(POST|PUT|PATCH|DELETE) \//.test(line)) {
        requestPending = true;
        syncedSinceRequest = false;
      } else if (/ f(data)?sync\(\d+<[^>]*order\.db-wal>\)\s+= 0/.test(line)) {
        syncedSinceRequest = true;
      } else if (requestPending && / write(v)?\(\d+<socket:.*"HTTP\/1\.1 2\d\d /.test(line)) {
        answers.push({ synced: syncedSinceRequest, line: line.slice(0, 120) });
        requestPending = false;
      }
    }
    expect(answers).toHaveLength(writes);
    expect(answers.filter((a) => !a.synced)).toEqual([]);
  }, 60_000);

  it('killed at the K-th write to its WAL, it keeps every write it answered, and hands no id out twice', async () => {
    const file = join(dir, 'crash.db');
    // The database made once (schema, keys), so each K counts from the same start-up.
    await stop((await start(file))!);
    const acknowledged = new Map<string, string>();
    let killedMidway = 0;
    for (const k of [9, 17, 30, 45, 70]) {
      const c = await start(file, ['-P', `${file}-wal`, '-e', 'trace=pwrite64,write', '-e', `inject=pwrite64,write:signal=KILL:when=${k}`, '-o', '/dev/null']);
      if (!c) continue; // killed during start-up: nothing was answered
      let answered = 0;
      for (let i = 0; i < 40; i++) {
        const text = `k${k} n${i}`;
        const r = await send(c, 'POST', '/v1/posts', { payloads: { bluesky: { text } } }).catch(() => undefined);
        if (!r) break;
        expect(r.status).toBe(201);
        expect(acknowledged.has(r.body.id)).toBe(false);
        acknowledged.set(r.body.id, text);
        answered++;
      }
      const signal = await c.exited;
      if (answered > 0 && signal === 'SIGKILL') killedMidway++;
      if (signal !== 'SIGKILL') await stop(c);
    }
    expect(killedMidway).toBeGreaterThanOrEqual(2);

    const again = (await start(file))!;
    try {
      const missing: string[] = [];
      for (const [id, text] of acknowledged) {
        const r = await send(again, 'GET', `/v1/posts/${id}`);
        if (r.status !== 200 || r.body.payloads.bluesky.text !== text) missing.push(`${id} (${text}): ${r.status}`);
      }
      expect(missing).toEqual([]);
      const next = await send(again, 'POST', '/v1/posts', { payloads: { bluesky: { text: 'after the crashes' } } });
      expect(acknowledged.has(next.body.id)).toBe(false);
    } finally {
      await stop(again);
    }
  }, 120_000);
});
