// The sandbox at scale, started as its own process (`socialpub sandbox --fixtures 1000000`):
//   load: time to the ready line and resident memory with a million results;
//   S1: a page at offset 999,900 costs ≤ 2× a page at offset 0 (also with a 3-platform filter
//       and a status-filtered posts page): medians of alternating requests;
//   S2: page reads per second with autocannon (10 connections), target well over 1,000 req/s:
//       median of 3 runs.
// Run: npm run build && node test/bench/sandbox.bench.mjs   (or `npm run bench sandbox`)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { BIN, benchEnv, median } from './lib.mjs';

const FIXTURES = 1_000_000;

async function startSandbox() {
  const started = process.hrtime.bigint();
  const args = [BIN, 'sandbox', '--port', '0', '--json', '--fixtures', String(FIXTURES), '--read-limit', '1000000000', '--seed', '42'];
  const child = spawn(process.execPath, args, { env: benchEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const ready = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)));
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code}: ${stderr.slice(0, 800)}`)));
  });
  const readyMs = Number(process.hrtime.bigint() - started) / 1e6;
  const key = ready.workspaces.find((w) => w.name === 'demo').apiKey;
  return {
    child,
    readyMs,
    url: ready.baseUrl,
    headers: { authorization: `Bearer ${key}` },
    /** Resident and peak resident memory of the sandbox process, in MiB (Linux). */
    memory() {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
        return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
      } catch {
        return { rss: NaN, peak: NaN };
      }
    },
    close: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGINT');
      }),
  };
}

async function timed(sb, path) {
  const t = process.hrtime.bigint();
  const res = await fetch(sb.url + path, { headers: sb.headers });
  const body = await res.json();
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return { ms, body };
}

/** Alternating requests to both paths; medians after a warm-up. */
async function compareOffsets(sb, name, shallow, deep, rounds = 400, warmup = 50) {
  const a = [];
  const b = [];
  for (let i = 0; i < warmup + rounds; i++) {
    const ra = await timed(sb, shallow);
    const rb = await timed(sb, deep);
    if (rb.body.data.length === 0) throw new Error(`${deep}: empty page`);
    if (i < warmup) continue;
    a.push(ra.ms);
    b.push(rb.ms);
  }
  const ratio = median(b) / median(a);
  const verdict = ratio <= 2 ? '✓ ≤ 2×' : '✗ target ≤ 2×';
  console.log(`${name}: deep ${median(b).toFixed(2)} ms vs first ${median(a).toFixed(2)} ms = ${ratio.toFixed(2)}× (median of ${rounds})  ${verdict}`);
}

async function throughput(sb, name, path, runs = 3) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    const r = await autocannon({ url: sb.url + path, headers: sb.headers, connections: 10, duration: 4 });
    if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    results.push(r);
  }
  const rps = median(results.map((r) => r.requests.average));
  const p50 = median(results.map((r) => r.latency.p50));
  const p99 = median(results.map((r) => r.latency.p99));
  console.log(`${name}: ${Math.round(rps).toLocaleString('en-US')} req/s, latency p50 ${p50} ms, p99 ${p99} ms (10 connections, median of ${runs} × 4 s)  ${rps > 1000 ? '✓ > 1,000' : '✗ target > 1,000'}`);
}

export async function run() {
  const sb = await startSandbox();
  try {
    const loaded = sb.memory();
    console.log(`sandbox load: ${FIXTURES.toLocaleString('en-US')} fixtures, ready line after ${sb.readyMs.toFixed(0)} ms (process start included), RSS ${loaded.rss.toFixed(0)} MiB`);
    const results = '/api/v1/post-results';
    await compareOffsets(sb, 'S1 results page offset 999,900 vs 0 (limit 100)', `${results}?offset=0&limit=100`, `${results}?offset=999900&limit=100`);
    const filter = 'platform=twitter-x&platform=bluesky&platform=linkedin';
    const { body } = await timed(sb, `${results}?${filter}&limit=1`);
    const deep = body.meta.total - 100;
    await compareOffsets(sb, `S1 3-platform filter offset ${deep.toLocaleString('en-US')} vs 0`, `${results}?${filter}&offset=0&limit=100`, `${results}?${filter}&offset=${deep}&limit=100`);
    const posts = (await timed(sb, '/v1/posts?status=failed&limit=1')).body.meta.total;
    await compareOffsets(sb, `S1 posts status=failed offset ${(posts - 100).toLocaleString('en-US')} vs 0`, '/v1/posts?status=failed&offset=0&limit=100', `/v1/posts?status=failed&offset=${posts - 100}&limit=100`, 200, 20);
    await throughput(sb, 'S2 page reads, first page (limit 10)', `${results}`);
    await throughput(sb, 'S2 page reads, offset 999,900 (limit 100)', `${results}?offset=999900&limit=100`);
    await throughput(sb, 'S2 page reads, 3-platform filter deep (limit 10)', `${results}?${filter}&offset=${deep}`);
    const after = sb.memory();
    console.log(`sandbox memory after the load tests: RSS ${after.rss.toFixed(0)} MiB, peak ${after.peak.toFixed(0)} MiB  ${after.peak < 1024 ? '✓ < 1 GiB' : '✗ target < 1 GiB'}`);
  } finally {
    await sb.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
