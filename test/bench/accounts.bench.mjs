// `accounts list` with 50 accounts and 100,000 results in the workspace, against a bare node:http
// GET of the accounts route (one request, the body printed): health must come from a page of
// recent results, never from a scan of them all.
//   Target: ≤ 1.6× the bare GET script, whole-process medians of wall time.
// Paired rounds as in startup.bench.mjs (each round runs every process once, in turn), medians of
// wall time and of CPU time (user + system, read by a preloaded probe when the process exits: what
// a loaded machine disturbs least), and for reference `results get` against a bare GET of its own
// resource, the one-request command the start-up target was set for.
// Run: npm run build && node test/bench/accounts.bench.mjs  (or `npm run bench accounts`)
//   NODE_BIN=/path/to/node   the Node to measure (default: the one running the bench)
//   STARTUP_VARIANT=/dir[,/dir…]  other built checkouts run in the same rounds: A/B of a change
//   STARTUP_ROUNDS=n         rounds (default 15, after 2 unmeasured)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, measure, median } from './lib.mjs';
import { startSandboxProcess } from './results.bench.mjs';

const ACCOUNTS = 50;
const FIXTURES = 100_000;

/** The least a client can do: one GET of a path of the service, the body to stdout. */
const GET_SCRIPT = `const { get } = require('node:http');
get(process.env.SOCIALPUB_BASE_URL + process.argv[2], { headers: { authorization: 'Bearer ' + process.env.SOCIALPUB_API_KEY } }, (res) => {
  if (res.statusCode !== 200) process.exitCode = 1;
  res.pipe(process.stdout);
});
`;

/** Preloaded into every measured process (the baselines too): its CPU time when it exits. */
const CPU_PROBE = `process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeFileSync(process.env.BENCH_CPU_OUT, String((u.user + u.system) / 1000)); });\n`;

export async function run() {
  const node = process.env.NODE_BIN || process.execPath;
  const variants = process.env.STARTUP_VARIANT ? process.env.STARTUP_VARIANT.split(',') : [];
  const rounds = Number(process.env.STARTUP_ROUNDS) || 15;
  const warmup = 2;
  const tmp = mkdtempSync(join(tmpdir(), 'bench-accounts-'));
  const sandbox = await startSandboxProcess({ fixtures: FIXTURES, extraArgs: ['--accounts', String(ACCOUNTS)] });
  try {
    const get = join(tmp, 'get.cjs');
    writeFileSync(get, GET_SCRIPT);
    const probe = join(tmp, 'cpu-probe.cjs');
    writeFileSync(probe, CPU_PROBE);
    const cpuOut = join(tmp, 'cpu');
    const env = { ...sandbox.env, NODE_OPTIONS: `--require ${probe}`, BENCH_CPU_OUT: cpuOut };
    const once = async (args, keepStdout = false) => {
      const r = await measure(node, args, { env, keepStdout });
      if (r.code !== 0) throw new Error(`${args.join(' ')} exited ${r.code}: ${r.stderr.slice(0, 500)}`);
      return { ...r, cpu: Number(readFileSync(cpuOut, 'utf8')) };
    };
    const bins = [BIN, ...variants.map((dir) => join(dir, 'bin', 'socialpub.js'))];
    // Checked once per build before timing: every account is listed, and health was found for most of them.
    for (const bin of bins) {
      const rows = (await once([bin, 'accounts', 'list', '-o', 'tsv'], true)).stdout.trim().split('\n');
      if (rows.length !== ACCOUNTS) throw new Error(`${bin}: accounts list printed ${rows.length} rows, not ${ACCOUNTS}`);
      const withSuccess = rows.filter((r) => /\t\d{4}-\d\d-\d\dT[^\t]*\t/.test(r)).length;
      console.log(`${bin}: accounts list: ${rows.length} accounts, ${withSuccess} with a last success from recent results`);
    }
    const page = await fetch(`${sandbox.baseUrl}/api/v1/post-results?limit=1`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } }).then((r) => r.json());
    const resultId = page.data[0].id;
    const cases = [
      { name: 'accounts list', argv: ['accounts', 'list', '-o', 'tsv'], baseline: [get, '/v1/social-accounts?limit=100'], target: 1.6 },
      { name: 'results get (reference)', argv: ['results', 'get', resultId], baseline: [get, `/api/v1/post-results/${resultId}`] },
    ];
    const times = cases.map(() => ({ base: { wall: [], cpu: [] }, bins: bins.map(() => ({ wall: [], cpu: [], rss: [] })) }));
    console.log(`accounts (${ACCOUNTS} accounts, ${FIXTURES.toLocaleString('en-US')} results) on ${node} (${(await measure(node, ['--version'], { keepStdout: true })).stdout.trim()}, ${rounds} rounds, load ${loadavg()[0].toFixed(1)})`);
    for (let i = 0; i < warmup + rounds; i++) {
      for (const [c, { argv, baseline }] of cases.entries()) {
        const base = await once(baseline);
        const runs = [];
        // The builds in a rotating order, so that none always follows the baseline.
        for (let k = 0; k < bins.length; k++) {
          const b = (i + k) % bins.length;
          runs[b] = await once([bins[b], ...argv]);
        }
        if (i < warmup) continue;
        const t = times[c];
        t.base.wall.push(base.ms);
        t.base.cpu.push(base.cpu);
        runs.forEach((r, b) => (t.bins[b].wall.push(r.ms), t.bins[b].cpu.push(r.cpu), t.bins[b].rss.push(r.maxRssKb)));
      }
    }
    for (const [c, { name, target }] of cases.entries()) {
      const { base, bins: [self, ...others] } = times[c];
      const ratio = median(self.wall) / median(base.wall);
      const verdict = target === undefined ? '' : ratio <= target ? `  ✓ ≤ ${target}×` : `  ✗ target ≤ ${target}×`;
      console.log(`${name.padEnd(24)} wall ${ms(self.wall)} vs node:http GET ${ms(base.wall)} = ${ratio.toFixed(2)}×${verdict} · CPU ${ms(self.cpu)} vs ${ms(base.cpu)} = ${(median(self.cpu) / median(base.cpu)).toFixed(2)}× · peak ${mib(self.rss)}`);
      const delta = (a, b) => signed(median(a.map((v, j) => v - b[j])));
      others.forEach((o, v) => {
        console.log(`  ${variants[v]}: wall ${ms(o.wall)} (${(median(o.wall) / median(base.wall)).toFixed(2)}×, paired Δ ${delta(o.wall, self.wall)}) · CPU ${ms(o.cpu)} (${(median(o.cpu) / median(base.cpu)).toFixed(2)}×, paired Δ ${delta(o.cpu, self.cpu)}) · peak ${mib(o.rss)}`);
      });
    }
  } finally {
    await sandbox.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

const ms = (values) => `${median(values).toFixed(1)} ms`;
const mib = (kib) => `${(median(kib) / 1024).toFixed(1)} MiB`;
const signed = (n) => `${n >= 0 ? '+' : ''}${n.toFixed(1)} ms`;

if (import.meta.url === `file://${process.argv[1]}`) await run();
