// 300 `posts create` runs through a sandbox with chaos 0.2 (500s, connection resets,
// responses lost after the work was committed, 429s with Retry-After, responses slower than the
// client's timeout) end with exactly 300 posts: none duplicated, none lost. The client's own
// idempotency key (one per run, reused on every retry) is what makes this hold.
// Fast: the CLI's clock does not really sleep through backoff or Retry-After. Slow responses take
// 4 s against a 2 s --timeout: an honest answer from this in-process sandbox, shared with ten
// runs on a loaded machine, can take several hundred ms (at 400 ms, 127 of the 300 runs spent
// every retry on timeouts when two copies of the suite ran at once).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { runCli } from '../helpers/run-cli.js';
import { allPosts, demoKey, postTotal, type Sandbox } from './posts-support.js';

const RUNS = 300;
const CONCURRENCY = 10;
let sb: Sandbox;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 20261201, chaos: 0.2, chaosSlowMs: 4_000, writeLimit: 1_000_000, readLimit: 1_000_000 });
});
afterAll(async () => {
  await sb?.close();
});

describe('creates under chaos', () => {
  it(`${RUNS} posts create runs make exactly ${RUNS} posts`, { timeout: 120_000 }, async () => {
    const clock = { now: () => Date.now(), sleep: async () => {} };
    const env = { SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: demoKey(sb) };
    const started = Date.now();
    const codes: number[] = [];
    const failures: string[] = [];
    const attempts = { total: 0, timeouts: 0, replayed: 0 };
    let next = 0;
    const worker = async () => {
      while (next < RUNS) {
        const i = next++;
        // --max-retries 8: at a 20 % fault rate, 9 faults in a row (0.2^9) is about one run in 2 million.
        const r = await runCli(['--debug', '--timeout', '2s', '--max-retries', '8', 'posts', 'create', '--platform', 'bluesky', '--text', `R1 post ${i}`, '-q'], { env, clock });
        codes[i] = r.code;
        // The client's --debug trace: one line per attempt.
        const lines = r.stderr.split('\n').filter((l) => /POST \S+\/v1\/posts → /.test(l));
        attempts.total += lines.length;
        attempts.timeouts += lines.filter((l) => l.includes('→ timeout')).length;
        attempts.replayed += lines.filter((l) => l.includes('(replayed)')).length;
        if (r.code !== 0) failures.push(`run ${i}: exit ${r.code}: ${r.stderr}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (Date.now() - started) / 1000;

    const creates = sb.requests.filter((q) => q.method === 'POST' && q.path === '/v1/posts');
    const faults: Record<string, number> = {};
    for (const q of creates) if (q.fault) faults[q.fault] = (faults[q.fault] ?? 0) + 1;
    const retries = attempts.total - RUNS;
    console.log(
      `R1: ${RUNS} runs in ${seconds.toFixed(1)} s; ${attempts.total} attempts (${retries} retries: ${attempts.timeouts} timeouts, ` +
        `${attempts.replayed} answered by an idempotent replay); faults in the sandbox log: ${JSON.stringify(faults)} (slow ones go unlogged: the client hung up)`,
    );

    expect(failures).toEqual([]);
    expect(await postTotal(sb)).toBe(RUNS);
    const texts = new Set((await allPosts(sb)).map((p) => (p.payloads as Record<string, { text: string }>).bluesky!.text));
    expect(texts.size).toBe(RUNS);
    // The chaos really happened, including responses lost after the post was committed.
    expect(retries).toBeGreaterThan(20);
    expect(faults.lost ?? 0).toBeGreaterThan(0);
    expect(attempts.timeouts).toBeGreaterThan(0);
    expect(attempts.replayed).toBeGreaterThan(0);
  });
});
