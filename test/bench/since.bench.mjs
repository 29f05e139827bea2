// --since and stats over a million results: the client's pages through selectWindow against the
// sandbox started as a separate process. `--since 15m` (a few hundred rows) vs reading every
// page; stats over every row vs serialising every row as ndjson. The commands are wired
// separately, so this measures the domain code and the client in this process (bundled from src
// with esbuild on the fly): pages read, requests sent and wall-clock time, medians.
// Run: npm run bench since   (or: npm run build && node test/bench/since.bench.mjs)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { median, ROOT } from './lib.mjs';
import { startSandboxProcess } from './results.bench.mjs';

const FIXTURES = 1_000_000;

/** Bundles the pieces under test into a temporary module and imports it. */
export async function loadDomain() {
  const dir = mkdtempSync(join(tmpdir(), 'since-bench-'));
  const entry = join(dir, 'entry.ts');
  const out = join(dir, 'domain.mjs');
  await build({
    stdin: {
      contents: [
        `export { createClient } from ${JSON.stringify(join(ROOT, 'src/client/index.ts'))};`,
        `export { parseWindow, selectWindow } from ${JSON.stringify(join(ROOT, 'src/results/since.ts'))};`,
        `export { windowRows } from ${JSON.stringify(join(ROOT, 'src/results/window-pages.ts'))};`,
        `export { computeStats } from ${JSON.stringify(join(ROOT, 'src/results/stats.ts'))};`,
      ].join('\n'),
      resolveDir: ROOT,
      sourcefile: entry,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22.13',
    outfile: out,
    logLevel: 'warning',
  });
  const mod = await import(out);
  rmSync(dir, { recursive: true, force: true });
  return mod;
}

async function timed(fn) {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, ...value };
}

export async function run({ runs = 3 } = {}) {
  const { createClient, parseWindow, selectWindow, windowRows, computeStats } = await loadDomain();
  const sandbox = await startSandboxProcess({ fixtures: FIXTURES });
  let requests = 0;
  // Every attempt leaves one trace line, answered or cancelled in flight: that counts requests sent.
  const debug = (line) => {
    if (line.startsWith('GET ')) requests++;
  };
  const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.env.SOCIALPUB_API_KEY, debug });
  try {
    const pass = (window, concurrency, consume = async (rows) => {
      let n = 0;
      for await (const _ of rows) n++;
      return n;
    }) =>
      timed(async () => {
        let pages = 0;
        const before = requests;
        const source = client.results.pages({}, { pageSize: 100, concurrency, onPage: () => pages++ });
        const rows = await consume(selectWindow(source, window));
        return { pages, requests: requests - before, rows };
      });
    const sinceWindow = () => parseWindow({ since: '15m', now: Date.now(), zone: 'UTC' });
    const ndjson = async (rows) => {
      // What `-o ndjson` does per row at the least: serialise it and hand it to a sink.
      let n = 0;
      let bytes = 0;
      for await (const row of rows) {
        bytes += (JSON.stringify(row) + '\n').length;
        n++;
      }
      return bytes > 0 ? n : 0;
    };
    const stats = async (rows) => (await computeStats(rows, 'platform')).total;
    const line = (name, r, ms, n) =>
      console.log(`${name.padEnd(40)} ${String(r.rows).padStart(8)} rows ${String(r.pages).padStart(6)} pages read ${String(r.requests).padStart(6)} requests ${ms.toFixed(0).padStart(7)} ms (median of ${n})`);
    const results = {};
    for (const [name, fn] of [
      ['--since 15m, 4 pages in flight', () => pass(sinceWindow(), 4)],
      ['--since 15m, 1 page in flight', () => pass(sinceWindow(), 1)],
    ]) {
      await fn(); // warm-up
      const samples = [];
      for (let i = 0; i < runs; i++) samples.push(await fn());
      results[name] = { ...samples.at(-1), ms: median(samples.map((x) => x.ms)) };
      line(name, results[name], results[name].ms, runs);
    }
    // A window four weeks back: --until seeks its start instead of paging through ~930,000 newer rows.
    const oldWindow = () => {
      const until = Date.now() - 28 * 86_400_000;
      return { since: until - 15 * 60_000, until };
    };
    const seekPass = () =>
      timed(async () => {
        let pages = 0;
        let skipped = 0;
        const before = requests;
        let rows = 0;
        for await (const _ of windowRows(client, {}, oldWindow(), { pageSize: 100, concurrency: 1, onPage: () => pages++, onSeek: (o) => (skipped = o) })) rows++;
        return { pages, requests: requests - before, rows, skipped };
      });
    {
      await seekPass();
      const samples = [];
      for (let i = 0; i < runs; i++) samples.push(await seekPass());
      const name = '--since/--until 15m four weeks back';
      results[name] = { ...samples.at(-1), ms: median(samples.map((x) => x.ms)) };
      line(name, results[name], results[name].ms, runs);
      console.log(`  (seeking skipped ${results[name].skipped} newer rows, ${Math.ceil(results[name].skipped / 100)} pages, with single-row probes)`);
    }
    // CPU per row alone, no HTTP: the same rows counted vs serialised (shows what stats adds on top of paging).
    {
      const page = [];
      for await (const p of client.results.pages({}, { pageSize: 100, concurrency: 1 })) {
        page.push(...p);
        break;
      }
      const million = { *[Symbol.iterator]() { for (let i = 0; i < FIXTURES; i++) yield page[i % page.length]; } };
      const cpu = async (fn) => {
        const samples = [];
        for (let i = 0; i < runs + 1; i++) samples.push((await timed(async () => ({ n: await fn() }))).ms);
        return median(samples.slice(1));
      };
      const serialise = await cpu(async () => {
        let bytes = 0;
        for (const row of million) bytes += (JSON.stringify(row) + '\n').length;
        return bytes;
      });
      const count = await cpu(async () => (await computeStats(million, 'platform')).total);
      console.log(`CPU only, 1,000,000 rows in memory: ndjson serialisation ${serialise.toFixed(0)} ms, stats by platform ${count.toFixed(0)} ms`);
      results.cpu = { serialise, count };
    }
    // The full reads alternate, so drift on a shared machine hits both alike.
    const full = { 'all pages → ndjson, 4 in flight': [], 'all pages → stats by platform, 4 in flight': [] };
    for (let i = 0; i < runs; i++) {
      full['all pages → ndjson, 4 in flight'].push(await pass({}, 4, ndjson));
      full['all pages → stats by platform, 4 in flight'].push(await pass({}, 4, stats));
    }
    for (const [name, samples] of Object.entries(full)) {
      results[name] = { ...samples.at(-1), ms: median(samples.map((x) => x.ms)) };
      line(name, results[name], results[name].ms, runs);
    }
    const s = results['--since 15m, 4 pages in flight'];
    const all = results['all pages → ndjson, 4 in flight'];
    const st = results['all pages → stats by platform, 4 in flight'];
    console.log(`--since reads ${s.pages} of ${all.pages} pages (${s.requests} requests), ${(all.ms / s.ms).toFixed(0)}× faster than reading all`);
    console.log(`stats over every row: ${(st.ms / all.ms).toFixed(2)}× the time of serialising every row as ndjson (target ≤ 1.1×)`);
    return results;
  } finally {
    await client.close();
    await sandbox.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
