// The publisher on the injected clock and the signed webhook deliveries, checked by a real
// receiver that verifies every signature with its own HMAC (node:crypto, not the wire helper).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FAILURE_CODES } from '../../src/sandbox/index.js';
import { allRows, as, manualSandbox, text, type TestSandbox } from './sandbox-support.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

// Where an endless reply stops on its own, so that the test ends even if nobody hangs up: far
// past what the two kernels' socket buffers take on loopback (tcp_wmem's 4 MiB plus some of
// tcp_rmem by default; 3.75 MiB measured), so a reply that reaches it was read by the sandbox.
const ENDLESS_CAP = 64 * 1024 * 1024;

/**
 * A webhook receiver whose answers the test scripts: a status per delivery, 'hang', or
 * 'endless' (200, then bytes until the sandbox hangs up, counted in `streamed`).
 */
class Receiver {
  received: Received[] = [];
  plan: (number | 'hang' | 'endless')[] = [];
  /** Bytes of the endless reply accepted by the socket, and when it closed. */
  streamed = 0;
  streamClosed: Promise<void> | undefined;
  /** Whether the endless reply reached ENDLESS_CAP before the connection closed. */
  endlessCapped = false;
  private server!: Server;
  private hanging: (() => void)[] = [];
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        const next = this.plan.shift() ?? 204;
        if (next === 'hang') {
          this.hanging.push(() => res.destroy());
          return;
        }
        if (next === 'endless') {
          this.streamClosed = this.endless(res);
          return;
        }
        res.statusCode = next;
        res.end();
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
    return this;
  }

  /** Writes only as fast as the socket takes it (waiting for 'drain'), so `streamed` is what went out. */
  private async endless(res: ServerResponse): Promise<void> {
    const closed = new Promise<void>((r) => res.once('close', r));
    let open = true;
    void closed.then(() => (open = false));
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    const chunk = Buffer.alloc(16 * 1024, 0x61);
    while (open && this.streamed < ENDLESS_CAP) {
      this.streamed += chunk.length;
      if (!res.write(chunk)) await Promise.race([new Promise((r) => res.once('drain', r)), closed]);
    }
    if (open) this.endlessCapped = true;
    res.end();
    await closed;
  }

  async stop(): Promise<void> {
    for (const h of this.hanging) h();
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

/** Standard Webhooks verification written out independently of src/wire/webhook-signing.ts. */
function verify(secret: string, r: Received): boolean {
  const id = r.headers['webhook-id'] as string;
  const ts = r.headers['webhook-timestamp'] as string;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${ts}.${r.body}`).digest();
  return String(r.headers['webhook-signature'])
    .split(' ')
    .some((part) => {
      const [version, sig] = part.split(',');
      const given = Buffer.from(sig ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

let receiver: Receiver;
let sb: TestSandbox;
const at = (ms: number) => new Date(sb.clock.now() + ms).toISOString();

beforeAll(async () => {
  receiver = await new Receiver().start();
});
afterAll(() => receiver.stop());
afterEach(async () => {
  await sb?.close();
  receiver.received = [];
  receiver.plan = [];
  receiver.streamed = 0;
  receiver.streamClosed = undefined;
  receiver.endlessCapped = false;
});

describe('publisher', () => {
  it('publishes a scheduled post when its time comes on the clock, one result per platform', async () => {
    sb = await manualSandbox({ failureRate: 0 });
    const demo = as(sb, 'demo');
    const post = (await demo.post('/v1/schedule', { payloads: text(['twitter-x', 'linkedin', 'threads']), scheduledAt: at(30 * 60_000) })).body;
    const draft = (await demo.post('/v1/posts', { payloads: text(['bluesky']) })).body;

    await sb.clock.advance(30 * 60_000 - 1);
    expect((await demo.get(`/v1/posts/${post.id}`)).body.status).toBe('scheduled');
    expect((await demo.get('/api/v1/post-results')).body.meta.total).toBe(0);

    await sb.clock.advance(1);
    const published = (await demo.get(`/v1/posts/${post.id}`)).body;
    expect(published.status).toBe('published');
    const results = (await demo.get(`/api/v1/post-results?post_id=${post.id}`)).body;
    expect(results.meta.total).toBe(3);
    expect(results.data.map((r: { platform: string }) => r.platform).sort()).toEqual(['linkedin', 'threads', 'twitter-x']);
    expect(results.data.every((r: { success: boolean; created_at: string }) => r.success && r.created_at === post.scheduledAt)).toBe(true);

    // Drafts never publish, however long we wait.
    await sb.clock.advance(30 * 24 * 3_600_000);
    expect((await demo.get(`/v1/posts/${draft.id}`)).body.status).toBe('draft');
    expect((await demo.get('/api/v1/post-results')).body.meta.total).toBe(3);
  });

  it('marks a post failed when any target fails, with realistic error codes, at the configured rate', async () => {
    sb = await manualSandbox({ failureRate: 1 });
    const demo = as(sb, 'demo');
    const post = (await demo.post('/v1/schedule', { payloads: text(['instagram', 'youtube']), scheduledAt: at(1000) })).body;
    await sb.clock.advance(1000);
    expect((await demo.get(`/v1/posts/${post.id}`)).body.status).toBe('failed');
    const rows = (await demo.get(`/api/v1/post-results?post_id=${post.id}`)).body.data;
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r.success).toBe(false);
      expect(FAILURE_CODES).toContain(r.error.code);
    }
  });

  it('draws outcomes from the seed and the failure rate: the same seed gives the same results', async () => {
    const run = async () => {
      sb = await manualSandbox({ failureRate: 0.5, seed: 99 });
      const demo = as(sb, 'demo');
      for (let i = 0; i < 12; i++) await demo.post('/v1/schedule', { payloads: text(['twitter-x', 'bluesky', 'linkedin']), scheduledAt: at(1000 + i) });
      await sb.clock.advance(60_000);
      const { rows } = await allRows(sb, demo.key, '/api/v1/post-results');
      const posts = (await allRows(sb, demo.key, '/v1/posts')).rows;
      await sb.close();
      return { rows, posts };
    };
    const a = await run();
    const b = await run();
    expect(b.rows).toEqual(a.rows);
    const failed = a.rows.filter((r: { success: boolean }) => !r.success).length;
    expect(failed).toBeGreaterThan(6);
    expect(failed).toBeLessThan(30);
    // A post is failed exactly when one of its rows failed.
    expect(a.posts).toHaveLength(12);
    for (const p of a.posts) {
      const mine = a.rows.filter((r: { post_id: string }) => r.post_id === p.id);
      expect(p.status).toBe(mine.some((r: { success: boolean }) => !r.success) ? 'failed' : 'published');
    }
  });
});

describe('webhook deliveries', () => {
  it('delivers each result, signed per Standard Webhooks with the sandbox secret', async () => {
    sb = await manualSandbox({ failureRate: 0.5, webhookUrl: receiver.url, seed: 5 });
    const demo = as(sb, 'demo');
    const post = (await demo.post('/v1/schedule', { payloads: text(['twitter-x', 'bluesky', 'linkedin', 'threads']), scheduledAt: at(60_000) })).body;
    await sb.clock.advance(60_000);
    await sb.settle();
    expect(receiver.received).toHaveLength(4);
    const rows = (await demo.get(`/api/v1/post-results?post_id=${post.id}`)).body.data as { id: string; platform: string; success: boolean; error: unknown }[];
    for (const r of receiver.received) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['webhook-id']).toMatch(/^msg_/);
      expect(r.headers['webhook-timestamp']).toBe(String(Math.floor(sb.clock.now() / 1000)));
      expect(verify(sb.webhookSecret, r)).toBe(true);
      expect(verify(`whsec_${Buffer.from('another secret!!').toString('base64')}`, r)).toBe(false);
      const body = JSON.parse(r.body);
      const row = rows.find((x) => x.id === body.resultId)!;
      expect(row).toBeDefined();
      expect(body).toEqual({
        type: 'post.result',
        postId: post.id,
        platform: row.platform,
        status: row.success ? 'published' : 'failed',
        resultId: row.id,
        ...(row.success ? {} : { error: row.error }),
      });
    }
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(4);
    expect(sb.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
  });

  it('retries a failed delivery with backoff on the clock, keeping the webhook-id, re-signing each attempt', async () => {
    sb = await manualSandbox({ failureRate: 0, webhookUrl: receiver.url, webhookRetryDelaysMs: [1000, 4000, 16000] });
    receiver.plan = [500, 503];
    const demo = as(sb, 'demo');
    await demo.post('/v1/schedule', { payloads: text(['bluesky']), scheduledAt: at(1000) });
    await sb.clock.advance(1000);
    expect(receiver.received).toHaveLength(1);
    await sb.clock.advance(999);
    expect(receiver.received).toHaveLength(1);
    await sb.clock.advance(1);
    expect(receiver.received).toHaveLength(2);
    await sb.clock.advance(4000);
    expect(receiver.received).toHaveLength(3);
    await sb.clock.advance(60_000);
    expect(receiver.received).toHaveLength(3);
    const [a, b, c] = receiver.received;
    expect(new Set([a, b, c].map((r) => r!.headers['webhook-id'])).size).toBe(1);
    expect([a, b, c].map((r) => Number(r!.headers['webhook-timestamp']) - Number(a!.headers['webhook-timestamp']))).toEqual([0, 1, 5]);
    expect([a, b, c].every((r) => verify(sb.webhookSecret, r!))).toBe(true);
    expect(sb.deliveries.map((d) => [d.attempt, d.status, d.willRetry])).toEqual([
      [1, 500, true],
      [2, 503, true],
      [3, 204, false],
    ]);
  });

  it('gives up after the last delay of the schedule', async () => {
    sb = await manualSandbox({ failureRate: 0, webhookUrl: receiver.url, webhookRetryDelaysMs: [10, 20] });
    receiver.plan = [500, 500, 500, 500];
    await as(sb, 'demo').post('/v1/schedule', { payloads: text(['bluesky']), scheduledAt: at(1) });
    await sb.clock.advance(10_000);
    expect(receiver.received).toHaveLength(3);
    expect(sb.deliveries.at(-1)).toMatchObject({ attempt: 3, status: 500, willRetry: false });
  });

  it('retries a receiver that does not answer in time', async () => {
    sb = await manualSandbox({ failureRate: 0, webhookUrl: receiver.url, webhookRetryDelaysMs: [1000], webhookTimeoutMs: 100 });
    receiver.plan = ['hang'];
    await as(sb, 'demo').post('/v1/schedule', { payloads: text(['threads']), scheduledAt: at(1) });
    await sb.clock.advance(1);
    expect(sb.deliveries[0]).toMatchObject({ attempt: 1, status: 0, willRetry: true, error: expect.stringMatching(/no answer within 100 ms/) });
    await sb.clock.advance(1000);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
    expect(sb.deliveries[1]).toMatchObject({ attempt: 2, status: 204 });
  });

  it('reads a few KB of an endless reply, then hangs up; the 200 counts as delivered', async () => {
    // A long timeout: only the cap, not the clock, can end the reading.
    sb = await manualSandbox({ failureRate: 0, webhookUrl: receiver.url, webhookTimeoutMs: 120_000 });
    receiver.plan = ['endless'];
    await as(sb, 'demo').post('/v1/schedule', { payloads: text(['bluesky']), scheduledAt: at(1) });
    await sb.clock.advance(1);
    expect(sb.deliveries).toEqual([expect.objectContaining({ attempt: 1, status: 200, willRetry: false })]);
    expect(sb.deliveries[0]!.error).toBeUndefined();
    // The sandbox hung up: what went out is what the socket buffers hold, never the whole reply.
    await receiver.streamClosed;
    expect(receiver.endlessCapped).toBe(false);
    expect(receiver.streamed).toBeGreaterThan(0);
    expect(receiver.streamed).toBeLessThan(ENDLESS_CAP / 2);
    console.log(`endless reply: ${receiver.streamed} bytes went out before the sandbox hung up`);
  });

  it('never blocks the API while a delivery is pending, and follows setWebhookUrl', async () => {
    sb = await manualSandbox({ failureRate: 0, webhookTimeoutMs: 5000 });
    const demo = as(sb, 'demo');
    await demo.post('/v1/schedule', { payloads: text(['linkedin']), scheduledAt: at(1) });
    await sb.clock.advance(1);
    expect(receiver.received).toHaveLength(0);

    sb.setWebhookUrl(receiver.url);
    receiver.plan = ['hang'];
    await demo.post('/v1/schedule', { payloads: text(['linkedin']), scheduledAt: at(1) });
    const advancing = sb.clock.advance(1);
    // The receiver holds the delivery…
    while (receiver.received.length < 1) await new Promise((r) => setImmediate(r));
    const list = await demo.get('/api/v1/post-results');
    expect(list.status).toBe(200);
    expect(list.body.meta.total).toBe(2);
    // …and has still not answered it when the API has.
    expect(sb.deliveries).toHaveLength(0);
    expect(receiver.received).toHaveLength(1);
    await sb.close();
    await advancing;
  });
});
