// End to end on one machine: the sandbox publishes a scheduled post (manual clock, no sleeping)
// and delivers one signed webhook per target to `socialpub listen` (run in-process), which
// prints exactly one event per target, matching the post's results.
import { afterEach, describe, expect, it } from 'vitest';
import type { runCli, RunResult } from '../helpers/run-cli.js';
import { as, manualSandbox, text, type TestSandbox } from './sandbox-support.js';
import { freePort } from '../helpers/ports.js';
import { startListenCli } from '../helpers/listen-ready.js';

const PLATFORMS = ['twitter-x', 'bluesky', 'linkedin', 'threads'];


interface ResultRow {
  id: string;
  post_id: string;
  platform: string;
  success: boolean;
  error: { code: string; message: string } | null;
}

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

/** Starts `listen` on a known port with the sandbox's secret and clock; returns the running CLI. */
async function startListen(sandbox: TestSandbox, port: number, argv: string[], options: Parameters<typeof runCli>[1] = {}): Promise<{ done: Promise<RunResult> }> {
  const { ready, done } = startListenCli(['--port', String(port), '--secret', sandbox.webhookSecret, ...argv], { clock: sandbox.clock, ...options });
  await ready;
  // Wrapped: an async function returning the promise itself would wait for the CLI to finish.
  return { done };
}

describe('listen ← sandbox', () => {
  it('a scheduled post publishes and listen prints one NDJSON event per target, matching the results', async () => {
    const port = await freePort();
    sb = await manualSandbox({ failureRate: 0.5, seed: 5, webhookUrl: `http://127.0.0.1:${port}/webhooks` });
    const running = await startListen(sb, port, ['--json', '--max-events', String(PLATFORMS.length)]);
    const demo = as(sb, 'demo');
    const post = (await demo.post('/v1/schedule', { payloads: text(PLATFORMS), scheduledAt: new Date(sb.clock.now() + 60_000).toISOString() })).body;
    expect(post.status).toBe('scheduled');

    await sb.clock.advance(60_000);
    await sb.settle();
    const r = await running.done;
    expect(r.code).toBe(0);

    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(events).toHaveLength(PLATFORMS.length);
    expect(events.map((e) => e.platform).sort()).toEqual([...PLATFORMS].sort());
    const rows = (await demo.get(`/api/v1/post-results?post_id=${post.id}`)).body.data as ResultRow[];
    expect(rows).toHaveLength(PLATFORMS.length);
    expect(rows.some((row) => !row.success)).toBe(true); // the seed gives a mix: both renderings are exercised
    for (const e of events) {
      const row = rows.find((x) => x.id === e.resultId)!;
      expect(row, e.resultId).toBeDefined();
      expect(e).toMatchObject({ type: 'post.result', postId: post.id, platform: row.platform, status: row.success ? 'published' : 'failed', verified: true });
      expect(e.webhookId).toMatch(/^msg_/);
      if (!row.success) expect(e.error).toMatchObject({ code: row.error!.code, message: row.error!.message });
      else expect(e.error).toBeUndefined();
      expect(e.receivedAt).toBe(new Date(sb.clock.now()).toISOString());
    }
    // The listener answered every first attempt with 2xx: nothing to retry.
    expect(sb.deliveries.map((d) => [d.status, d.attempt])).toEqual(PLATFORMS.map(() => [204, 1]));
    expect(r.stderr).toMatch(/summary: received 4 · printed 4 · duplicates 0 · rejected 0/);
  });

  it('on a terminal: one line per target with ✓ published / ✗ failed, the post id and the error', async () => {
    const port = await freePort();
    sb = await manualSandbox({ failureRate: 0.5, seed: 5, webhookUrl: `http://127.0.0.1:${port}/webhooks` });
    const running = await startListen(sb, port, ['--max-events', String(PLATFORMS.length)], { tty: true, env: { NO_COLOR: '1', TZ: 'UTC' } });
    const demo = as(sb, 'demo');
    const post = (await demo.post('/v1/schedule', { payloads: text(PLATFORMS), scheduledAt: new Date(sb.clock.now() + 60_000).toISOString() })).body;
    await sb.clock.advance(60_000);
    await sb.settle();
    const r = await running.done;
    expect(r.code).toBe(0);
    // An event wider than the terminal continues on indented lines: one event, one unindented line.
    const lines = r.stdout.trim().replace(/\n {2,}/g, ' ').split('\n');
    expect(lines).toHaveLength(PLATFORMS.length);
    for (const l of r.stdout.trim().split('\n')) expect(l.length, l).toBeLessThanOrEqual(120);
    const rows = (await demo.get(`/api/v1/post-results?post_id=${post.id}`)).body.data as ResultRow[];
    expect(rows).toHaveLength(PLATFORMS.length);
    for (const row of rows) {
      const line = lines.find((l) => l.includes(` ${row.platform} `) || l.includes(`  ${row.platform}`))!;
      expect(line, row.platform).toBeDefined();
      expect(line).toContain(post.id);
      if (row.success) expect(line).toMatch(/✓ published/);
      else expect(line).toMatch(new RegExp(`✗ failed .*${row.error!.code}`));
    }
  });

  it('a listener started late still gets every event once: the sandbox retries with the same webhook-id', async () => {
    const port = await freePort();
    sb = await manualSandbox({ failureRate: 0, seed: 7, webhookUrl: `http://127.0.0.1:${port}/webhooks` });
    const demo = as(sb, 'demo');
    await demo.post('/v1/schedule', { payloads: text(['twitter-x', 'bluesky']), scheduledAt: new Date(sb.clock.now() + 1000).toISOString() });
    await sb.clock.advance(1000);
    await sb.settle();
    // Nobody was listening: both first attempts failed and are scheduled again.
    expect(sb.deliveries.map((d) => [d.status, d.willRetry])).toEqual([
      [0, true],
      [0, true],
    ]);
    const firstIds = sb.deliveries.map((d) => d.webhookId).sort();

    const running = await startListen(sb, port, ['--json', '--max-events', '2']);
    await sb.clock.advance(5_000);
    await sb.settle();
    const r = await running.done;
    expect(r.code).toBe(0);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(events.map((e) => e.webhookId).sort()).toEqual(firstIds);
    expect(events.every((e) => e.status === 'published')).toBe(true);
  });
});
