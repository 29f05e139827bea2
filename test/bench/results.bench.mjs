// Paging concurrency, memory and throughput of `results list --all -o ndjson`: the built binary against the
// sandbox started as a separate process (`socialpub sandbox --json`), whole-process figures.
//   Concurrency: with --latency 10ms over 100,000 results, default pages in flight ≤ 0.35× one page in flight.
//   Memory: peak RSS at 1,000,000 results ≤ 1.15× that at 100,000, and under 160 MiB.
//   Throughput: rows per second without added latency.
// Run: npm run build && node test/bench/results.bench.mjs  (or `npm run bench results`)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BIN, benchEnv, compare, measure, median, report } from './lib.mjs';

const node = process.execPath;

/** Starts `socialpub sandbox` and resolves with its ready line once it prints one. */
export async function startSandboxProcess({ fixtures, latency, extraArgs = [] }) {
  const args = [BIN, 'sandbox', '--port', '0', '--json', '--fixtures', String(fixtures), '--read-limit', '1000000000', '--seed', '42', ...extraArgs];
  if (latency) args.push('--latency', latency);
  const child = spawn(node, args, { env: benchEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const lines = createInterface({ input: child.stdout });
  const ready = await new Promise((resolve, reject) => {
    lines.once('line', (line) => {
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(new Error(`sandbox printed a line that is not JSON: ${line}`));
      }
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code} before it was ready: ${stderr.slice(0, 800)}`)));
  });
  const demo = ready.workspaces.find((w) => w.name === 'demo');
  // A throwaway config folder: the measured CLI must not read the real one.
  const configDir = mkdtempSync(join(tmpdir(), 'socialpub-bench-'));
  return {
    baseUrl: ready.baseUrl,
    apiKey: demo.apiKey,
    env: benchEnv({ SOCIALPUB_BASE_URL: ready.baseUrl, SOCIALPUB_API_KEY: demo.apiKey, SOCIALPUB_CONFIG_DIR: configDir }),
    close: () =>
      new Promise((resolve) => {
        rmSync(configDir, { recursive: true, force: true });
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

const listAll = (extra = []) => [BIN, 'results', 'list', '--all', '-o', 'ndjson', ...extra];

/** One run kept whole, to check the output is every row exactly once before timing anything. */
async function checkRows(sandbox, expected) {
  const r = await measure(node, listAll(), { env: sandbox.env, keepStdout: true });
  if (r.code !== 0) throw new Error(`results list exited ${r.code}: ${r.stderr.slice(0, 500)}`);
  const ids = new Set();
  let n = 0;
  for (const line of r.stdout.split('\n')) {
    if (!line) continue;
    n++;
    ids.add(JSON.parse(line).id);
  }
  if (n !== expected || ids.size !== expected) throw new Error(`expected ${expected} distinct rows, got ${n} rows / ${ids.size} ids`);
}

export async function run({ runs = 3, only = ['p3', 'p4', 'throughput'] } = {}) {
  const out = {};
  // Concurrency: latency-bound paging, default concurrency vs one page in flight.
  if (only.includes('p3') || only.includes('p4')) {
    const sandbox = await startSandboxProcess({ fixtures: 100_000, latency: '10ms' });
    try {
      await checkRows(sandbox, 100_000);
      const options = { env: sandbox.env };
      out.p3 = report(
        await compare({
          name: 'concurrency: results list --all -o ndjson, 100,000 rows, --latency 10ms: default vs --concurrency 1',
          subject: { cmd: node, args: listAll(), options },
          baseline: { cmd: node, args: listAll(['--concurrency', '1']), options },
          runs,
          warmup: 1,
        }),
        0.35,
      );
      out.p4small = out.p3.subjectPeakMiB;
    } finally {
      await sandbox.close();
    }
  }
  // Memory: the same command at ten times the rows.
  if (only.includes('p4')) {
    const sandbox = await startSandboxProcess({ fixtures: 1_000_000, latency: '10ms' });
    try {
      const mem = [];
      const ms = [];
      for (let i = 0; i < runs; i++) {
        const r = await measure(node, listAll(), { env: sandbox.env });
        if (r.code !== 0) throw new Error(`1M run exited ${r.code}: ${r.stderr.slice(0, 500)}`);
        if (r.maxRssKb) mem.push(r.maxRssKb / 1024);
        ms.push(r.ms);
      }
      const big = Math.max(...mem);
      const small = out.p4small;
      const ratio = big / small;
      const ok = ratio <= 1.15 && big < 160;
      console.log(
        `memory: peak RSS 1,000,000 rows ${big.toFixed(1)} MiB vs 100,000 rows ${small.toFixed(1)} MiB = ${ratio.toFixed(2)}× (max of ${runs}; ${(median(ms) / 1000).toFixed(1)} s median)  ${ok ? '✓' : '✗'} target ≤ 1.15× and < 160 MiB`,
      );
      out.p4 = { bigMiB: big, smallMiB: small, ratio };
    } finally {
      await sandbox.close();
    }
  }
  // Throughput without added latency.
  for (const rows of only.includes('throughput') ? [100_000, 1_000_000] : []) {
    const sandbox = await startSandboxProcess({ fixtures: rows });
    try {
      const ms = [];
      for (let i = 0; i < runs + 1; i++) {
        const r = await measure(node, listAll(), { env: sandbox.env });
        if (r.code !== 0) throw new Error(`throughput run exited ${r.code}: ${r.stderr.slice(0, 500)}`);
        if (i > 0) ms.push(r.ms);
      }
      const m = median(ms);
      console.log(`throughput: results list --all -o ndjson, ${rows.toLocaleString('en-US')} rows, no added latency: ${(m / 1000).toFixed(2)} s, ${Math.round(rows / (m / 1000)).toLocaleString('en-US')} rows/s (median of ${runs}, whole process)`);
      out[`throughput${rows}`] = rows / (m / 1000);
    } finally {
      await sandbox.close();
    }
  }
  return out;
}

// `node test/bench/results.bench.mjs [p3|p4|throughput]...` runs some of them.
if (import.meta.url === `file://${process.argv[1]}`) await run(process.argv.length > 2 ? { only: process.argv.slice(2) } : {});
