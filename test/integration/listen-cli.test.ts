// `socialpub listen` run in-process (runCli) against real signed deliveries over HTTP: output
// formats, --log, --max-events, --timeout (manual clock), Ctrl-C, warnings, flag errors.
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type RunResult } from '../helpers/run-cli.js';
import type { Clock } from '../../src/cli/context.js';
import { generateWebhookSecret, sign } from '../../src/wire/webhook-signing.js';
import { freePort } from '../helpers/ports.js';
import { startListenCli } from '../helpers/listen-ready.js';

const SECRET = generateWebhookSecret(Buffer.alloc(24, 5));
const dir = mkdtempSync(join(tmpdir(), 'listen-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));


async function deliver(port: number, id: string, payload: Record<string, unknown>, secret = SECRET): Promise<number> {
  const body = JSON.stringify(payload);
  const ts = Math.floor(Date.now() / 1000);
  const res = await fetch(`http://127.0.0.1:${port}/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': sign(secret, id, ts, body) },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

/** A clock whose time moves only when the test advances it; sleeps end when their time comes. */
function manualClock() {
  let now = Date.now();
  const sleepers: Array<{ at: number; resolve: () => void }> = [];
  let started = 0;
  const clock: Clock & { advance(ms: number): Promise<void>; pending(): number; sleeps(): number } = {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        started++;
        const entry = { at: now + ms, resolve };
        sleepers.push(entry);
        signal?.addEventListener(
          'abort',
          () => {
            sleepers.splice(sleepers.indexOf(entry), 1);
            reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
          },
          { once: true },
        );
      }),
    /** Moves time on, ends the sleeps now due, and lets what they started run. */
    async advance(ms) {
      now += ms;
      for (const s of sleepers.filter((x) => x.at <= now)) {
        sleepers.splice(sleepers.indexOf(s), 1);
        s.resolve();
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
    pending: () => sleepers.length,
    /** Sleeps started so far. */
    sleeps: () => started,
  };
  return clock;
}

const published = (postId: string, platform = 'twitter-x') => ({ type: 'post.result', postId, platform, status: 'published', resultId: `res_${postId}` });
const failedPayload = (postId: string) => ({
  type: 'post.result',
  postId,
  platform: 'instagram',
  status: 'failed',
  resultId: `res_${postId}`,
  error: { code: 'TOKEN_EXPIRED', message: 'Reconnect the account', context: {} },
});

async function listenWhile(argv: string[], act: (port: number) => Promise<void>, options: Parameters<typeof runCli>[1] = {}): Promise<RunResult> {
  const port = await freePort();
  const run = startListenCli(['--port', String(port), ...argv], options);
  await run.ready;
  await act(port);
  return run.done;
}

describe('socialpub listen', () => {
  it('--json: one NDJSON object per event (payload + webhookId, receivedAt, verified), exit 0 after --max-events', async () => {
    const logFile = join(dir, 'events.ndjson');
    const r = await listenWhile(['--json', '--secret', SECRET, '--max-events', '2', '--log', logFile], async (port) => {
      expect(await deliver(port, 'msg_1', published('post_1'))).toBe(204);
      expect(await deliver(port, 'msg_1', published('post_1'))).toBe(204); // a retry
      expect(await deliver(port, 'msg_bad', published('post_x'), generateWebhookSecret(Buffer.alloc(24, 1)))).toBe(401);
      expect(await deliver(port, 'msg_2', failedPayload('post_2'))).toBe(204);
    });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ ...published('post_1'), webhookId: 'msg_1', verified: true });
    expect(lines[1]).toMatchObject({ ...failedPayload('post_2'), webhookId: 'msg_2', verified: true });
    expect(Date.parse(lines[0].receivedAt)).not.toBeNaN();
    expect(readFileSync(logFile, 'utf8')).toBe(r.stdout);
    expect(r.stderr).toMatch(/Ready! Listening for webhook deliveries on http:\/\/127\.0\.0\.1:\d+\/webhooks/);
    expect(r.stderr).toMatch(/socialpub sandbox --webhook-url http:\/\/127\.0\.0\.1:\d+\/webhooks/);
    expect(r.stderr).toMatch(/rejected 401 bad signature: .*\[msg_bad\]/);
    expect(r.stderr).toMatch(/summary: received 3 · printed 2 · duplicates 1 · rejected 1 \(bad signature 1\)/);
    expect(r.stderr).not.toContain(SECRET);
    expect(r.stderr).toContain(`whsec_…${SECRET.slice(-4)}`);
    expect(r.stdout + r.stderr).not.toContain('post_x');
  });

  it('--log creates its file 0600 (it holds every event), and points out an existing log others can read', async () => {
    const fresh = join(dir, 'fresh.ndjson');
    const r = await listenWhile(['--json', '--secret', SECRET, '--max-events', '1', '--log', fresh], async (port) => {
      expect(await deliver(port, 'msg_log', published('post_log'))).toBe(204);
    });
    expect(r.code).toBe(0);
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
    expect(readFileSync(fresh, 'utf8')).toBe(r.stdout);
    expect(r.stderr).not.toMatch(/can be read by other users/);

    const shared = join(dir, 'shared.ndjson');
    writeFileSync(shared, '');
    chmodSync(shared, 0o644);
    const again = await listenWhile(['--json', '--secret', SECRET, '--max-events', '1', '--log', shared], async (port) => {
      expect(await deliver(port, 'msg_log2', published('post_log2'))).toBe(204);
    });
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/--log file \S*shared\.ndjson can be read by other users \(mode 0644\).*chmod 600/);
    expect(statSync(shared).mode & 0o777).toBe(0o644); // the owner's own choice is kept
    expect(JSON.parse(readFileSync(shared, 'utf8'))).toMatchObject({ webhookId: 'msg_log2' });
  });

  it('terminal output: one line per event with ✓ / ✗, error code and message', async () => {
    const r = await listenWhile(['--secret', SECRET, '--max-events', '2'], async (port) => {
      await deliver(port, 'msg_a', published('post_a', 'bluesky'));
      await deliver(port, 'msg_b', failedPayload('post_b'));
    }, { tty: true, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d {2}bluesky +✓ published {2}post_a {2}res_post_a$/);
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d {2}instagram +✗ failed {5}post_b {2}res_post_b {2}TOKEN_EXPIRED {2}Reconnect the account$/);
  });

  it('terminal output fits a 60-column terminal: the message is cut, the post id stays', async () => {
    const r = await listenWhile(['--secret', SECRET, '--max-events', '1'], async (port) => {
      await deliver(port, 'msg_n', failedPayload('post_narrow'));
    }, { tty: true, columns: 60, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('instagram  ✗  post_narrow  TOKEN_EXPIRED  Reconnect the acc…\n');
  });

  it('piped without a format: TSV rows', async () => {
    const r = await listenWhile(['--secret', SECRET, '--max-events', '1'], async (port) => {
      await deliver(port, 'msg_t', failedPayload('post_t'));
    });
    expect(r.stdout.split('\t').slice(1, 6)).toEqual(['instagram', 'failed', 'post_t', 'TOKEN_EXPIRED', 'Reconnect the account']);
  });

  it('--platform / --status filter what is printed; the summary counts the rest', async () => {
    const r = await listenWhile(['--json', '--secret', SECRET, '--status', 'failed', '--max-events', '1'], async (port) => {
      await deliver(port, 'msg_p', published('post_p'));
      await deliver(port, 'msg_f', failedPayload('post_f'));
    });
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).postId)).toEqual(['post_f']);
    expect(r.stderr).toMatch(/filtered out 1/);
  });

  it('--timeout: exit 1 when no event arrives in time (manual clock), with the summary', async () => {
    const clock = manualClock();
    const r = await listenWhile(['--json', '--secret', SECRET, '--timeout', '30s'], async () => {
      expect(clock.pending()).toBe(1);
      await clock.advance(30_000);
    }, { clock });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/summary: received 0 · printed 0/);
    expect(r.stderr).toMatch(/error: no webhook event arrived within 30s/);
  });

  it('--timeout counts from the last printed event, with one sleep for the whole run rather than one per event', async () => {
    const clock = manualClock();
    const run = startListenCli(['--port', String(await freePort()), '--json', '--secret', SECRET, '--timeout', '30s'], { clock });
    let ended = false;
    void run.done.then(() => (ended = true));
    const port = Number(new URL(await run.ready).port);
    await clock.advance(20_000);
    for (const n of [1, 2, 3]) expect(await deliver(port, `msg_t${n}`, published(`post_t${n}`))).toBe(204);
    expect(clock.sleeps()).toBe(1);
    // 30 s after the start but 10 s after the events: still listening, asleep for the 20 s left.
    await clock.advance(10_000);
    expect(ended).toBe(false);
    expect(clock.pending()).toBe(1);
    await clock.advance(19_999);
    expect(ended).toBe(false);
    await clock.advance(1);
    const r = await run.done;
    expect(r.code).toBe(1);
    expect(r.stdout.trim().split('\n')).toHaveLength(3);
    expect(r.stderr).toMatch(/error: no webhook event arrived within 30s/);
    expect(clock.sleeps()).toBe(2);
  });

  it('--timeout ends on a clock whose sleeps return at once and whose time never moves', async () => {
    const r = await listenWhile(['--json', '--secret', SECRET, '--timeout', '30s'], async () => {}, { clock: { now: () => 0, sleep: async () => {} } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error: no webhook event arrived within 30s/);
  });

  it('Ctrl-C: stops cleanly with a summary (exit 130)', async () => {
    const controller = new AbortController();
    const r = await listenWhile(['--json', '--secret', SECRET], async (port) => {
      await deliver(port, 'msg_c', published('post_c'));
      await fetch(`http://127.0.0.1:${port}/webhooks`).then((x) => x.arrayBuffer());
      controller.abort();
    }, { signal: controller.signal });
    expect(r.code).toBe(130);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/summary: received 1 · printed 1 · duplicates 0 · rejected 1 \(not POST 1\)/);
    expect(r.stderr).not.toMatch(/error:/);
  });

  it('Ctrl-C on a 60-column terminal: the summary starts its own line and is broken between words', async () => {
    const controller = new AbortController();
    const r = await listenWhile(['--secret', SECRET], async (port) => {
      await deliver(port, 'msg_w', published('post_w'));
      await fetch(`http://127.0.0.1:${port}/elsewhere`).then((x) => x.arrayBuffer());
      await fetch(`http://127.0.0.1:${port}/webhooks`).then((x) => x.arrayBuffer());
      controller.abort();
    }, { signal: controller.signal, tty: true, columns: 60, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(130);
    const summary = r.stderr.slice(r.stderr.indexOf('\nsummary: ') + 1);
    expect(r.stderr).toContain('\n\nsummary: received 1 · printed 1');
    const lines = summary.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
    expect(lines.map((l) => l.trim()).join(' ')).toBe('summary: received 1 · printed 1 · duplicates 0 · rejected 2 (wrong path 1, not POST 1)');
  });

  it('without a secret: a loud warning; events are shown as unverified', async () => {
    const r = await listenWhile(['--json', '--max-events', '1'], async (port) => {
      await fetch(`http://127.0.0.1:${port}/webhooks`, { method: 'POST', body: JSON.stringify(published('post_u')) }).then((x) => x.arrayBuffer());
    });
    expect(r.stderr).toMatch(/warning: .*NO SECRET: deliveries are NOT authenticated/);
    expect(JSON.parse(r.stdout)).toMatchObject({ postId: 'post_u', verified: false, webhookId: null });
  });

  it('the secret can come from SOCIALPUB_WEBHOOK_SECRET', async () => {
    const r = await listenWhile(['--json', '--max-events', '1'], async (port) => {
      expect(await deliver(port, 'msg_env', published('post_env'))).toBe(204);
    }, { env: { SOCIALPUB_WEBHOOK_SECRET: SECRET } });
    expect(JSON.parse(r.stdout)).toMatchObject({ verified: true });
    expect(r.stderr).toMatch(/from SOCIALPUB_WEBHOOK_SECRET/);
  });

  it('--secret-file: the secret from a file (its final newline ignored), no warning', async () => {
    const file = join(dir, 'webhook-secret');
    writeFileSync(file, `${SECRET}\n`, { mode: 0o600 });
    const r = await listenWhile(['--json', '--secret-file', file, '--max-events', '1'], async (port) => {
      expect(await deliver(port, 'msg_wrong', published('post_w'), generateWebhookSecret(Buffer.alloc(24, 1)))).toBe(401);
      expect(await deliver(port, 'msg_file', published('post_file'))).toBe(204);
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ postId: 'post_file', verified: true });
    expect(r.stderr).toContain(`from --secret-file ${file}`);
    expect(r.stderr).not.toContain(SECRET);
    expect(r.stderr).not.toMatch(/warning/);
  });

  it('--secret on the command line still works, with a warning that ps shows it', async () => {
    const r = await listenWhile(['--json', '--secret', SECRET, '--max-events', '1'], async (port) => {
      expect(await deliver(port, 'msg_flag', published('post_flag'))).toBe(204);
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ verified: true });
    expect(r.stderr).toMatch(/warning: --secret on the command line is visible to other users of this machine \(ps\); use --secret-file FILE or SOCIALPUB_WEBHOOK_SECRET instead/);
    expect(r.stderr).not.toContain(SECRET);
  });

  it('--secret-file errors: missing, empty, combined with --secret (exit 2, naming the flag)', async () => {
    const missing = await runCli(['listen', '--secret-file', join(dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--secret-file: cannot read .*nope: no such file/);
    const empty = join(dir, 'empty-secret');
    writeFileSync(empty, '\n');
    const e = await runCli(['listen', '--secret-file', empty]);
    expect(e.code).toBe(2);
    expect(e.stderr).toMatch(/--secret-file: .*empty-secret is empty/);
    const both = await runCli(['listen', '--secret-file', empty, '--secret', SECRET]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--secret-file: cannot be combined with --secret/);
  });

  it('a non-loopback --host prints a warning', async () => {
    const controller = new AbortController();
    const r = await listenWhile(['--host', '0.0.0.0', '--secret', SECRET], async () => controller.abort(), { signal: controller.signal });
    expect(r.stderr).toMatch(/warning: listening on 0\.0\.0\.0, not loopback/);
  });

  it('--forward-to: each event goes to the app; its answer is shown on stderr, the data on stdout is unchanged', async () => {
    const got: string[] = [];
    const app = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        got.push(`${req.headers['webhook-id']} ${body}`);
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    const appUrl = `http://127.0.0.1:${(app.address() as net.AddressInfo).port}/in`;
    try {
      const r = await listenWhile(['--json', '--secret', SECRET, '--forward-to', appUrl, '--max-events', '1'], async (port) => {
        expect(await deliver(port, 'msg_fw', published('post_fw'))).toBe(204);
      });
      expect(r.code).toBe(0);
      expect(got).toEqual([`msg_fw ${JSON.stringify(published('post_fw'))}`]);
      expect(r.stderr).toMatch(/→ forwarded post_fw on twitter-x \(msg_fw\): app answered 202 \(\d+ ms\)/);
      expect(r.stderr).toMatch(/forwarded 1 · forward failures 0/);
      expect(JSON.parse(r.stdout)).toMatchObject({ postId: 'post_fw' });
    } finally {
      app.close();
    }
  });

  it('bad flags exit 2 and a busy port exits 1 with a hint', async () => {
    expect((await runCli(['listen', '--platform', 'myspace'])).code).toBe(2);
    expect((await runCli(['listen', '--secret', 'whsec_!!'])).code).toBe(2);
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const busy = await runCli(['listen', '--port', String((blocker.address() as net.AddressInfo).port), '--secret', SECRET]);
    blocker.close();
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/already in use/);
    expect(busy.stderr).toMatch(/--port 0/);
  });

  it("readiness is the listener's own ready line, however long start-up takes; a listen that ends first fails the wait at once, with its output", async () => {
    // Someone else's server on the port: polling the port would have taken it for the listener.
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const busy = startListenCli(['--port', String((blocker.address() as net.AddressInfo).port), '--secret', SECRET]);
      await expect(busy.ready).rejects.toThrow(/listen ended \(exit 1\) before it was ready:[\s\S]*already in use/);
    } finally {
      blocker.close();
    }
    const controller = new AbortController();
    const port = await freePort();
    const ok = startListenCli(['--port', String(port), '--secret', SECRET], { signal: controller.signal });
    expect(await ok.ready).toBe(`http://127.0.0.1:${port}/webhooks`);
    controller.abort();
    expect((await ok.done).code).toBe(130);
  });

  it('--help shows the summary and examples', async () => {
    const r = await runCli(['listen', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--max-events/);
    expect(r.stdout).toMatch(/Examples:/);
  });
});
