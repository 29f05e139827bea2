// What a crash leaves on disk is enough to go on: the files of a running sandbox are copied
// (the database, its WAL and shared-memory index, exactly as a kill -9 would leave them, the
// WAL not yet folded back) and a second sandbox starts from the copy. Rate windows and pending
// webhook retries carry over, as do idempotency records.
import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, START, text } from './sandbox-support.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-crash-'));
let receiver: Server;
let receiverUrl = '';
const received: { id: string; status: number }[] = [];
let answer = 500;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push({ id: String(req.headers['webhook-id']), status: answer });
      res.statusCode = answer;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** The data files as a crash would leave them, copied to a fresh folder. */
function crashImage(file: string, name: string): string {
  const to = mkdtempSync(join(dir, `${name}-`));
  for (const f of readdirSync(join(file, '..'))) copyFileSync(join(file, '..', f), join(to, f));
  return join(to, 'state.db');
}

describe('after a crash', () => {
  it('keeps rate windows, idempotency records and pending webhook retries', async () => {
    const file = join(mkdtempSync(join(dir, 'live-')), 'state.db');
    const clock = createManualClock(START);
    const live = await startSandbox({ port: 0, clock, dataFile: file, failureRate: 0, writeLimit: 4, webhookUrl: receiverUrl, webhookRetryDelaysMs: [60_000] });
    let restarted: Sandbox | undefined;
    try {
      const key = live.key('demo');
      const first = await call(live, 'POST', '/v1/posts', { key, body: { payloads: text(['linkedin']) }, headers: { 'idempotency-key': 'carry-1' } });
      expect(first.status).toBe(201);
      await call(live, 'POST', '/v1/schedule', { key, body: { payloads: text(['bluesky']), scheduledAt: new Date(START + 1_000).toISOString() } });
      await clock.advance(1_000);
      // The receiver refused the first attempt; a retry is due a minute later.
      expect(received).toEqual([{ id: expect.stringMatching(/^msg_/), status: 500 }]);
      expect(live.deliveries.at(-1)).toMatchObject({ attempt: 1, willRetry: true });
      const third = await call(live, 'POST', '/v1/posts', { key, body: { payloads: text(['threads']) } });
      expect(third.headers.get('ratelimit-remaining')).toBe('1');

      const image = crashImage(file, 'image');
      // The changes are still in the WAL, as a kill -9 leaves them.
      expect(statSync(`${image}-wal`).size).toBeGreaterThan(0);
      answer = 204;
      const later = createManualClock(START + 1_000);
      restarted = await startSandbox({ port: 0, clock: later, dataFile: image, writeLimit: 4, webhookUrl: receiverUrl, webhookRetryDelaysMs: [60_000] });
      expect(restarted.workspaces).toEqual(live.workspaces);
      // Three writes counted before the crash: one left.
      const fourth = await call(restarted, 'POST', '/v1/posts', { key, body: { payloads: text(['threads']) } });
      expect(fourth.status).toBe(201);
      expect(fourth.headers.get('ratelimit-remaining')).toBe('0');
      expect((await call(restarted, 'POST', '/v1/posts', { key, body: { payloads: text(['threads']) } })).status).toBe(429);
      // The idempotency record replays (a replay counts as nothing).
      const replay = await call(restarted, 'POST', '/v1/posts', { key, body: { payloads: text(['linkedin']) }, headers: { 'idempotency-key': 'carry-1' } });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.id).toBe(first.body.id);
      // The retry is still due, with the same webhook-id.
      await later.advance(60_000 - 1);
      expect(received).toHaveLength(1);
      await later.advance(1);
      expect(received).toEqual([received[0], { id: received[0]!.id, status: 204 }]);
      expect(restarted.deliveries.at(-1)).toMatchObject({ webhookId: received[0]!.id, attempt: 2, status: 204, willRetry: false });
    } finally {
      await live.close();
      await restarted?.close();
    }
  });
});
