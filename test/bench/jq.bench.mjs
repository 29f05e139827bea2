// --fields and --jq cost per row: 100k results-like rows written as NDJSON to a discarding sink,
// plain vs with pickFields vs through jq '.id' (batched per page of 100 and per 1,000 rows), plus
// jq's load time (import + WebAssembly instantiation + first compile) in a fresh process.
// jq.ts is bundled with the bundle script's pipeline (scripts/bundle.mjs) into a temp
// folder, as the package ships it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundle } from '../../scripts/bundle.mjs';
import { benchEnv, median, ROOT } from './lib.mjs';

const CHILD = `
const mode = process.argv[2];
const t0 = performance.now();
const { compileJq, pickFields, ndjsonWriter } = await import('./entry.cjs');
if (mode === 'load') {
  await compileJq('.id');
  process.stdout.write(String(performance.now() - t0));
  process.exit(0);
}
const N = 100_000;
const row = (i) => ({ id: 'res_' + String(i).padStart(8, '0'), post_id: 'post_' + (i % 997), platform: ['bluesky', 'x', 'mastodon', 'linkedin'][i % 4], status: i % 7 ? 'published' : 'failed', error: i % 7 ? null : { code: 'rate_limited', message: 'Too many requests, retry later' }, platform_data: { url: 'https://bsky.app/profile/socialpub.example/post/' + i }, attempt: 1, created_at: '2026-11-20T10:00:00.000Z' });
let bytes = 0;
const sink = { write: (s) => { bytes += s.length; return true; } };
const start = performance.now();
if (mode === 'plain' || mode === 'fields') {
  const w = ndjsonWriter(sink);
  for (let i = 0; i < N; i++) await w.write(mode === 'fields' ? pickFields(row(i), ['id', 'status', 'error.code']) : row(i));
  await w.end();
} else {
  const batch = Number(mode.split(':')[1]);
  const p = await compileJq('.id');
  for (let i = 0; i < N; i += batch) {
    const rows = [];
    for (let j = i; j < i + batch; j++) rows.push(row(j));
    const lines = p.runEach(rows);
    sink.write(lines.join('\\n') + '\\n');
  }
}
process.stdout.write(String(performance.now() - start));
`;

export async function run({ runs = 3 } = {}) {
  const tmp = mkdtempSync(join(tmpdir(), 'bench-jq-'));
  try {
    const entry = join(tmp, 'entry.ts');
    writeFileSync(entry, `export { compileJq } from ${JSON.stringify(join(ROOT, 'src/output/jq.ts'))};\nexport { pickFields } from ${JSON.stringify(join(ROOT, 'src/output/fields.ts'))};\nexport { ndjsonWriter } from ${JSON.stringify(join(ROOT, 'src/output/writers.ts'))};\n`);
    await bundle({ entryPoints: [entry], outdir: join(tmp, 'dist'), outbase: tmp });
    execFileSync(process.execPath, [join(ROOT, 'scripts/copy-jq-wasm.mjs'), join(tmp, 'dist')]);
    writeFileSync(join(tmp, 'dist', 'child.mjs'), CHILD);
    const time = (mode) => Number(execFileSync(process.execPath, [join(tmp, 'dist', 'child.mjs'), mode], { cwd: join(tmp, 'dist'), env: benchEnv() }).toString());
    const modes = ['load', 'plain', 'fields', 'jq:100', 'jq:1000'];
    const results = Object.fromEntries(modes.map((m) => [m, []]));
    for (let r = 0; r < runs; r++) for (const m of modes) results[m].push(time(m));
    const ms = (m) => median(results[m]);
    console.log(`jq load (import + instantiate + compile '.id'), fresh process: ${ms('load').toFixed(0)} ms (median of ${runs})`);
    const plain = ms('plain');
    for (const m of modes.slice(1)) {
      const t = ms(m);
      console.log(`100k rows ${m.padEnd(8)} ${t.toFixed(0).padStart(6)} ms  ${Math.round(100_000 / (t / 1000)).toLocaleString('en-US').padStart(10)} rows/s  ${(t / plain).toFixed(1)}× plain NDJSON`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
