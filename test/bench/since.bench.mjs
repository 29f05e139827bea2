// --since over a million results: the client's pages through selectWindow against the sandbox
// started as a separate process, `--since 15m` (a few hundred rows) vs reading every page.
// The commands are wired separately, so this measures the domain code and the client in this
// process (bundled from src with esbuild on the fly): pages read and wall-clock time, medians.
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
        `export { computeStats } from ${JSON.stringify(join(ROOT, 'src/results/stats.ts'))};`,
      ].join('\n'),
      resolveDir: ROOT,
      sourcefile: entry,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    outfile: out,
    logLevel: 'warning',
    external: ['undici'],
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
  const { createClient, parseWindow, selectWindow } = await loadDomain();
  const sandbox = await startSandboxProcess({ fixtures: FIXTURES });
  const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.env.SOCIALPUB_API_KEY });
  try {
    const pass = (window, concurrency) =>
      timed(async () => {
        let pages = 0;
        let rows = 0;
        const source = client.results.pages({}, { pageSize: 100, concurrency, onPage: () => pages++ });
        for await (const _ of selectWindow(source, window)) rows++;
        return { pages, rows };
      });
    const sinceWindow = () => parseWindow({ since: '15m', now: Date.now(), zone: 'UTC' });
    const cases = [
      ['--since 15m, 4 pages in flight', () => pass(sinceWindow(), 4)],
      ['--since 15m, 1 page in flight', () => pass(sinceWindow(), 1)],
      ['all pages (as --all), 4 in flight', () => pass({}, 4)],
    ];
    const results = {};
    for (const [name, fn] of cases) {
      await fn(); // warm-up
      const samples = [];
      for (let i = 0; i < runs; i++) samples.push(await fn());
      const ms = median(samples.map((s) => s.ms));
      const last = samples.at(-1);
      results[name] = { ms, pages: last.pages, rows: last.rows };
      console.log(`${name.padEnd(36)} ${String(last.rows).padStart(8)} rows  ${String(last.pages).padStart(6)} pages read  ${ms.toFixed(0).padStart(7)} ms (median of ${runs})`);
    }
    const s = results['--since 15m, 4 pages in flight'];
    const all = results['all pages (as --all), 4 in flight'];
    console.log(`--since reads ${s.pages} of ${all.pages} pages, ${(all.ms / s.ms).toFixed(0)}× faster than reading all`);
    return results;
  } finally {
    await client.close();
    await sandbox.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
