// Output shaping and support-staff commands over 100,000 results, whole process against a
// sandbox process: `results list --all -o ndjson` alone, with --fields, with --jq '.id', and
// `results stats` over the same rows (target: stats ≤ 1.1× the plain listing), and `-o csv`
// against `-o tsv` (target ≤ 1.1×: quoting must not cost more than tabs).
// Run: npm run build && node test/bench/shaping.bench.mjs  (or `npm run bench shaping`)
import { BIN, compare, report } from './lib.mjs';
import { startSandboxProcess } from './results.bench.mjs';

const node = process.execPath;
const ROWS = 100_000;

export async function run({ runs = 5 } = {}) {
  const sandbox = await startSandboxProcess({ fixtures: ROWS });
  try {
    const plain = { cmd: node, args: [BIN, 'results', 'list', '--all', '-o', 'ndjson'] };
    const opts = { options: { env: sandbox.env } };
    const with_ = (name, extra) => ({ name, subject: { cmd: node, args: [...plain.args, ...extra], ...opts }, baseline: { ...plain, ...opts }, runs, warmup: 1 });
    const fields = await compare(with_(`--fields id,platform,error.code vs plain ndjson (${ROWS.toLocaleString('en-US')} rows)`, ['--fields', 'id,platform,error.code']));
    report(fields);
    const jq = await compare(with_(`--jq '.id' vs plain ndjson (${ROWS.toLocaleString('en-US')} rows)`, ['--jq', '.id']));
    report(jq);
    const stats = await compare({
      name: `results stats vs results list --all -o ndjson (${ROWS.toLocaleString('en-US')} rows)`,
      subject: { cmd: node, args: [BIN, 'results', 'stats', '--json'], ...opts },
      baseline: { ...plain, ...opts },
      runs,
      warmup: 1,
    });
    report(stats, 1.1);
    const tsv = { cmd: node, args: [BIN, 'results', 'list', '--all', '-o', 'tsv'], ...opts };
    const csv = await compare({ name: `-o csv vs -o tsv (${ROWS.toLocaleString('en-US')} rows)`, subject: { ...tsv, args: [BIN, 'results', 'list', '--all', '-o', 'csv'] }, baseline: tsv, runs, warmup: 1 });
    report(csv, 1.1);
    for (const r of [fields, jq, stats, csv]) {
      console.log(`  ${r.name}: ${Math.round((ROWS / r.subjectMs) * 1000).toLocaleString('en-US')} rows/s (baseline ${Math.round((ROWS / r.baselineMs) * 1000).toLocaleString('en-US')} rows/s)`);
    }
  } finally {
    await sandbox.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
