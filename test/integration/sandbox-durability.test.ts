// `--data FILE` survives kill -9: the built `socialpub sandbox` runs as a child, 32 writers
// create posts (some with idempotency keys), schedule posts and declare media, the child is
// SIGKILLed at a random moment, restarted on the same file, and every acknowledged (2xx)
// response is compared with what the restarted sandbox holds: nothing missing, no id handed
// out twice, no temporary file left, files private. Several rounds on one database.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt } from '../e2e/ensure-built.js';

// The child is the built binary: build it when this file runs on its own or before any e2e file.
beforeAll(ensureBuilt, 120_000);
const dir = mkdtempSync(join(tmpdir(), 'sandbox-kill-'));
const file = join(dir, 'state.db');
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Ready {
  baseUrl: string;
  workspaces: { name: string; apiKey: string }[];
}

async function startChild(): Promise<{ child: ChildProcess; url: string; key: string; exited: Promise<unknown> }> {
  const args = [BIN, 'sandbox', '--port', '0', '--json', '--data', file, '--write-limit', '1000000', '--read-limit', '1000000', '--failure-rate', '0'];
  // Only what the child needs: no HOME, key or profile of whoever runs the tests.
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: join(dir, 'config', 'home'), SOCIALPUB_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' };
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code}: ${stderr}`)));
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line) as Ready));
  });
  return { child, url: ready.baseUrl, key: ready.workspaces.find((w) => w.name === 'demo')!.apiKey, exited };
}

interface Acked {
  kind: 'post' | 'media';
  id: string;
  /** What was sent: the post's text or the media's name. */
  content: string;
  /** The request, when it carried an Idempotency-Key (its replay must still answer with the same id). */
  replay?: { path: string; key: string; body: string };
}

/** One writer: creates until the server goes away; returns what was acknowledged. `onAck` counts acknowledgements across writers. */
async function writer(url: string, key: string, round: number, w: number, onAck: () => void): Promise<Acked[]> {
  const acked: Acked[] = [];
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  for (let i = 0; ; i++) {
    const content = `r${round} w${w} n${i}`;
    const kind = i % 5 === 4 ? 'media' : 'post';
    let path = '/v1/posts';
    let body: unknown = { payloads: { 'twitter-x': { text: content }, bluesky: { text: content } } };
    const extra: Record<string, string> = {};
    if (kind === 'media') {
      path = '/v1/media';
      body = { name: `${content.replace(/ /g, '-')}.png`, mimeType: 'image/png', sizeBytes: 10 };
    } else if (i % 5 === 1) {
      path = '/v1/schedule';
      // Due while the writers run: the publisher adds rows and a post update to the log too.
      body = { ...(body as object), scheduledAt: new Date(Date.now() + 400 + (i % 3) * 10).toISOString() };
    } else if (i % 5 === 2) {
      extra['idempotency-key'] = `key-${content}`;
    }
    try {
      const res = await fetch(url + path, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
      const json = (await res.json()) as { id: string };
      if (res.status >= 200 && res.status < 300) {
        const replay = extra['idempotency-key'] ? { path, key: extra['idempotency-key'], body: JSON.stringify(body) } : undefined;
        acked.push({ kind, id: json.id, content: kind === 'media' ? (body as { name: string }).name : content, ...(replay ? { replay } : {}) });
        onAck();
      }
      // A schedule that reached a loaded machine after its time is refused (422): not acknowledged, not an error.
      else if (res.status !== 422) throw new Error(`unexpected ${res.status} ${JSON.stringify(json)}`);
    } catch (err) {
      if ((err as Error).message.startsWith('unexpected')) throw err;
      return acked;
    }
  }
}

async function getJson(url: string, key: string, path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url + path, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: await res.json() };
}

describe('kill -9 with --data', () => {
  it('keeps every acknowledged write and never hands an id out twice', async () => {
    const rounds: { acknowledged: number; missing: number; reused: number; replaysLost: number; files: string[]; modes: number[] }[] = [];
    const seen = new Map<string, string>();
    let reusedAcrossRounds = 0;
    for (let round = 1; round <= 4; round++) {
      const sb = await startChild();
      // A random moment in the middle of the writes, counted in acknowledgements rather than
      // wall time, so that a loaded machine kills as deep into the writes as an idle one.
      const killAfter = 20 + Math.floor(Math.random() * 100);
      let acks = 0;
      let killed!: () => void;
      const killedAt = new Promise<void>((r) => (killed = r));
      const writers = Array.from({ length: 32 }, (_, w) =>
        writer(sb.url, sb.key, round, w, () => {
          if (++acks === killAfter) killed();
        }),
      );
      // (A writer that fails ends the wait too, and the test then fails on what it threw.)
      await Promise.race([killedAt, Promise.all(writers)]);
      sb.child.kill('SIGKILL');
      await sb.exited;
      const acked = (await Promise.all(writers)).flat();
      for (const a of acked) {
        const before = seen.get(a.id);
        if (before !== undefined && before !== a.content) reusedAcrossRounds++;
        seen.set(a.id, a.content);
      }

      const again = await startChild();
      const posts = new Map<string, string>();
      for (let offset = 0; ; offset += 100) {
        const page = await getJson(again.url, again.key, `/v1/posts?offset=${offset}&limit=100`);
        expect(page.status).toBe(200);
        for (const p of page.body.data) posts.set(p.id, p.payloads['twitter-x'].text);
        if (page.body.data.length < 100) break;
      }
      let missing = 0;
      let reused = 0;
      for (const a of acked) {
        const held = a.kind === 'post' ? posts.get(a.id) : (await getJson(again.url, again.key, `/v1/media/${a.id}`)).body.name;
        if (held === undefined) missing++;
        else if (held !== a.content) reused++;
      }
      // Idempotency records are acknowledged writes too: a retry must replay, not create.
      let replaysLost = 0;
      for (const a of acked.filter((x) => x.replay).slice(0, 20)) {
        const res = await fetch(again.url + a.replay!.path, { method: 'POST', headers: { authorization: `Bearer ${again.key}`, 'content-type': 'application/json', 'idempotency-key': a.replay!.key }, body: a.replay!.body });
        const json = (await res.json()) as { id: string };
        if (res.headers.get('idempotent-replayed') !== 'true' || json.id !== a.id) replaysLost++;
      }
      const files = readdirSync(dir).filter((n) => n !== 'config').sort();
      rounds.push({ acknowledged: acked.length, missing, reused, replaysLost, files, modes: files.map((n) => statSync(join(dir, n)).mode & 0o777) });
      again.child.kill('SIGKILL');
      await again.exited;
    }
    console.log(`kill -9 rounds (acknowledged / missing / ids reused / idempotent replays lost): ${rounds.map((r) => `${r.acknowledged}/${r.missing}/${r.reused}/${r.replaysLost}`).join(', ')}`);
    expect(rounds.every((r) => r.acknowledged > 0)).toBe(true);
    expect(rounds.map((r) => r.missing)).toEqual([0, 0, 0, 0]);
    expect(rounds.map((r) => r.reused)).toEqual([0, 0, 0, 0]);
    expect(rounds.map((r) => r.replaysLost)).toEqual([0, 0, 0, 0]);
    expect(reusedAcrossRounds).toBe(0);
    // No temporary file: the database, SQLite's WAL and shared-memory index, and the running sandbox's lock, all private.
    for (const r of rounds) {
      expect(r.files).toEqual(['state.db', 'state.db-shm', 'state.db-wal', 'state.db.lock']);
      expect(r.modes).toEqual([0o600, 0o600, 0o600, 0o600]);
    }
  }, 60_000);
});
