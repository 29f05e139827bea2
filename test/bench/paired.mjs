// Paired rounds for whole-process benchmarks against a baseline (startup.bench.mjs,
// accounts.bench.mjs): each round runs every case's baseline and then this build and each
// variant build once, in a rotating order; medians of wall time and of CPU time (user + system,
// all threads: what a loaded machine disturbs least), read by a preloaded probe when the process
// exits; peak RSS from /usr/bin/time. Variants are told by their median paired difference
// against this build, which a load that comes and goes disturbs less than the medians.
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN, measure, median } from './lib.mjs';

/** A bare node:http GET of one path of the service, printing the body: what a command cannot beat. */
const GET_SCRIPT = `const { get } = require('node:http');
get(process.env.SOCIALPUB_BASE_URL + process.argv[2], { headers: { authorization: 'Bearer ' + process.env.SOCIALPUB_API_KEY } }, (res) => {
  if (res.statusCode !== 200) process.exitCode = 1;
  let b = '';
  res.setEncoding('utf8');
  res.on('data', (c) => (b += c));
  res.on('end', () => process.stdout.write(b + '\\n'));
});
`;

/** Preloaded into every measured process (the baselines too): its CPU time when it exits. */
const CPU_PROBE = `process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeFileSync(process.env.BENCH_CPU_OUT, String((u.user + u.system) / 1000)); });\n`;

/**
 * Writes the GET script and the probe into `tmp`. Returns the GET script's path and `once(args)`:
 * one measured run of `node args` (wall ms, CPU ms, peak RSS), which must exit 0.
 */
export function pairedTools(tmp, node, env) {
  const get = join(tmp, 'get.cjs');
  writeFileSync(get, GET_SCRIPT);
  const probe = join(tmp, 'cpu-probe.cjs');
  writeFileSync(probe, CPU_PROBE);
  const cpuOut = join(tmp, 'cpu');
  const once = async (args, keepStdout = false) => {
    const r = await measure(node, args, { env: { ...env, NODE_OPTIONS: `--require ${probe}`, BENCH_CPU_OUT: cpuOut, BENCH_AFTER_RUN_CACHE: join(tmp, 'after-run-cache') }, keepStdout });
    if (r.code !== 0) throw new Error(`${args.join(' ')} exited ${r.code}: ${r.stderr.slice(0, 500)}`);
    return { ...r, cpu: Number(readFileSync(cpuOut, 'utf8')) };
  };
  return { get, once };
}

/**
 * The builds a run measures, as the node arguments that start each: this build first, then each
 * STARTUP_VARIANT (built checkouts, comma-separated), then, with STARTUP_AFTER_RUN_CACHE=1, this
 * build with a code cache taken after the run (after-run-cache.cjs). `variants` names all but the first.
 */
export function buildsUnderTest(env = process.env) {
  const dirs = env.STARTUP_VARIANT ? env.STARTUP_VARIANT.split(',') : [];
  const bins = [[BIN], ...dirs.map((dir) => [join(dir, 'bin', 'socialpub.js')])];
  const variants = [...dirs];
  if (env.STARTUP_AFTER_RUN_CACHE === '1') {
    bins.push(['--require', join(dirname(fileURLToPath(import.meta.url)), 'after-run-cache.cjs'), BIN]);
    variants.push('this build, code cache taken after the run');
  }
  return { bins, variants };
}

/** The line a run starts with: what is measured, on which Node, how many rounds, under what load. */
export async function pairedHeader(title, node, rounds) {
  const version = (await measure(node, ['--version'], { keepStdout: true })).stdout.trim();
  return `${title} on ${node} (${version}, ${rounds} rounds, load ${loadavg()[0].toFixed(1)})`;
}

/**
 * Runs `warmup + rounds` rounds of every case ({ argv, baseline }: the arguments after a build's
 * bin, and the baseline's whole argument list) over `bins` (buildsUnderTest: this build first). Returns per case
 * the baseline's and each build's wall and CPU times and peak RSS.
 */
export async function pairedRounds({ cases, bins, rounds, warmup = 2, once }) {
  const times = cases.map(() => ({ base: { wall: [], cpu: [] }, bins: bins.map(() => ({ wall: [], cpu: [], rss: [] })) }));
  for (let i = 0; i < warmup + rounds; i++) {
    for (const [c, { argv, baseline }] of cases.entries()) {
      const base = await once(baseline);
      const runs = [];
      // The builds in a rotating order, so that none always follows the baseline.
      for (let k = 0; k < bins.length; k++) {
        const b = (i + k) % bins.length;
        runs[b] = await once([...bins[b], ...argv]);
      }
      if (i < warmup) continue;
      const t = times[c];
      t.base.wall.push(base.ms);
      t.base.cpu.push(base.cpu);
      runs.forEach((r, b) => (t.bins[b].wall.push(r.ms), t.bins[b].cpu.push(r.cpu), t.bins[b].rss.push(r.maxRssKb)));
    }
  }
  return times;
}

/** One line per case (`name`, `vs` the baseline's name, optional `target` on the wall ratio), one per variant under it. */
export function reportPaired({ cases, times, variants }) {
  for (const [c, { name, vs, target }] of cases.entries()) {
    const { base, bins: [self, ...others] } = times[c];
    const ratio = median(self.wall) / median(base.wall);
    const verdict = target === undefined ? '' : ratio <= target ? `  ✓ ≤ ${target}×` : `  ✗ target ≤ ${target}×`;
    const cpuRatio = median(self.cpu) / median(base.cpu);
    console.log(`${name.padEnd(24)} wall ${ms(self.wall)} vs ${vs} ${ms(base.wall)} = ${ratio.toFixed(2)}×${verdict} · CPU ${ms(self.cpu)} vs ${ms(base.cpu)} = ${cpuRatio.toFixed(2)}× · peak ${mib(self.rss)}`);
    const delta = (a, b) => signed(median(a.map((v, i) => v - b[i])));
    others.forEach((o, v) => {
      console.log(
        `  ${variants[v]}: wall ${ms(o.wall)} (${(median(o.wall) / median(base.wall)).toFixed(2)}×, paired Δ ${delta(o.wall, self.wall)}) · CPU ${ms(o.cpu)} (${(median(o.cpu) / median(base.cpu)).toFixed(2)}×, paired Δ ${delta(o.cpu, self.cpu)}) · peak ${mib(o.rss)}`,
      );
    });
  }
}

const ms = (values) => `${median(values).toFixed(1)} ms`;
const mib = (kib) => `${(median(kib) / 1024).toFixed(1)} MiB`;
const signed = (n) => `${n >= 0 ? '+' : ''}${n.toFixed(1)} ms`;
