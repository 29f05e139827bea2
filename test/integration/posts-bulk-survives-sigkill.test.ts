// R2: a bulk file of 200 rows; the built binary is SIGKILLed at five deterministic-random points
// (after a number of journal lines appears, or after a random short delay, each plus a few ms so
// that kills land mid-request too) and run again each time; the end state is exactly 200
// scheduled posts, each row once. The sandbox runs in this process on the real clock (the binary
// has no other), with a write limit high enough not to pace.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, ensureBuilt } from '../e2e/ensure-built.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { allPosts, demoKey, postTotal, type Sandbox } from './posts-support.js';

const ROWS = 200;
const KILLS = 5;
let sb: Sandbox;
let tmp: string;

beforeAll(async () => {
  await ensureBuilt();
  sb = await startSandbox({ port: 0, seed: 4242, writeLimit: 100_000, readLimit: 1_000_000, failureRate: 0 });
  tmp = mkdtempSync(join(tmpdir(), 'posts-r2-'));
}, 180_000);
afterAll(async () => {
  await sb?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** Small seeded PRNG (mulberry32): the kill schedule is the same on every run of the test. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function journalLines(configDir: string): string[] {
  const dir = join(configDir, 'journals');
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir);
  return files.length ? readFileSync(join(dir, files[0]!), 'utf8').split('\n').filter(Boolean) : [];
}

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  child: ChildProcess;
  done: Promise<void>;
}

function start(file: string, configDir: string): Outcome {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: join(tmp, 'home'),
    SOCIALPUB_CONFIG_DIR: configDir,
    SOCIALPUB_BASE_URL: sb.url,
    SOCIALPUB_API_KEY: demoKey(sb),
    NO_COLOR: '1',
  };
  const child = spawn(process.execPath, [BIN, 'posts', 'schedule', '--from-file', file, '--json'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const o = { code: null, signal: null, stdout: '', stderr: '', child } as unknown as Outcome;
  child.stdout.setEncoding('utf8').on('data', (c: string) => (o.stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (o.stderr += c));
  o.done = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      o.code = code;
      o.signal = signal;
      resolve();
    }),
  );
  return o;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('bulk schedule survives SIGKILL', () => {
  it(`${ROWS} rows, killed ${KILLS} times, end as exactly ${ROWS} scheduled posts`, { timeout: 120_000 }, async () => {
    const base = Date.now() + 2 * 86_400_000;
    const file = join(tmp, 'campaign.ndjson');
    writeFileSync(
      file,
      Array.from({ length: ROWS }, (_, i) => JSON.stringify({ payloads: { bluesky: { text: `R2 row ${i}` } }, scheduledAt: new Date(base + i * 60_000).toISOString(), title: `row ${i}` })).join('\n') + '\n',
    );
    const configDir = join(tmp, 'config');
    const random = prng(20261201);
    const started = Date.now();
    const kills: string[] = [];
    let doneBefore = 0;
    let inFlight = 0;

    for (let k = 0; k < KILLS; k++) {
      const run = start(file, configDir);
      const countDone = () => journalLines(configDir).filter((l) => l.includes('"t":"done"')).length;
      let how: string;
      if (k % 2 === 0) {
        // After a few more rows are journaled as done, plus a jitter of 0–15 ms.
        const target = Math.min(ROWS - 10, doneBefore + 5 + Math.floor(random() * 35));
        while (countDone() < target && run.code === null && run.signal === null) await sleep(2);
        const jitter = Math.floor(random() * 15);
        await sleep(jitter);
        how = `after ${target} done rows +${jitter} ms`;
      } else {
        // Mid-request: as soon as a row has been sent but is not yet journaled as done (its POST
        // is in flight), after a random number of further rows. Progress, not wall-clock time,
        // picks the moment, so a fast or a slow machine kills at the same kinds of points.
        const target = Math.min(ROWS - 10 * (KILLS - k), doneBefore + Math.floor(random() * 30));
        const inFlightNow = () => {
          const lines = journalLines(configDir);
          const last = lines[lines.length - 1];
          return last !== undefined && last.includes('"t":"send"');
        };
        while ((countDone() < target || !inFlightNow()) && run.code === null && run.signal === null) await sleep(1);
        how = `mid-request after ${countDone()} done rows`;
      }
      run.child.kill('SIGKILL');
      await run.done;
      expect(run.signal, `run ${k + 1} finished before it could be killed: ${run.stderr}`).toBe('SIGKILL');
      const now = countDone();
      const lines = journalLines(configDir);
      const sent = new Set(lines.filter((l) => l.includes('"t":"send"')).map((l) => JSON.parse(l).row as number));
      for (const l of lines.filter((x) => x.includes('"t":"done"'))) sent.delete(JSON.parse(l).row as number);
      if (sent.size) inFlight++;
      kills.push(`${how}: ${now} rows journaled as done${sent.size ? ', one in flight' : ''}`);
      doneBefore = now;
    }

    const last = start(file, configDir);
    await last.done;
    const seconds = (Date.now() - started) / 1000;
    expect(last.code, last.stderr).toBe(0);
    const summary = JSON.parse(last.stdout);
    const schedules = sb.requests.filter((q) => q.method === 'POST' && q.path === '/v1/schedule').length;
    console.log(
      `${ROWS} rows, ${KILLS} SIGKILLs (${kills.join('; ')}); final run: ${summary.created} created, ${summary.alreadyDone} already done; ` +
        `${schedules} POST /v1/schedule requests in all (${schedules - ROWS} re-sent after a kill, answered by an idempotent replay); ` +
        `${inFlight} kills left a row sent but not journaled as done; ${seconds.toFixed(1)} s`,
    );
    expect(summary).toMatchObject({ total: ROWS, failed: 0 });
    expect(summary.created + summary.alreadyDone).toBe(ROWS);
    expect(await postTotal(sb, 'scheduled')).toBe(ROWS);
    expect(await postTotal(sb)).toBe(ROWS);
    const texts = (await allPosts(sb)).map((p) => (p.payloads as Record<string, { text: string }>).bluesky!.text);
    expect(new Set(texts).size).toBe(ROWS);
    // Kills happened at different points of the run, not all before it started.
    expect(new Set(kills.map((k) => k.split(': ')[1])).size).toBeGreaterThan(2);
  });
});
