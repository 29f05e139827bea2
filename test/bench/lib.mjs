// Benchmark helpers: whole-process timings (wall clock around spawn) with peak memory
// (/usr/bin/time's max RSS when the machine has it), medians over alternating runs.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = new URL('../../', import.meta.url).pathname;
export const BIN = join(ROOT, 'bin', 'socialpub.js');
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** The environment for measured processes: NODE_EXTRA_CA_CERTS slows every Node 20 start. */
export function benchEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * Runs one process to the end. Returns wall-clock ms, peak RSS in KiB (or undefined),
 * exit code, and stdout byte count (stdout is drained, not kept, unless keepStdout).
 */
export function measure(cmd, args, { env = benchEnv(), stdin, keepStdout = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  const timeFile = join(dir, 'time');
  const [file, argv] = TIME ? [TIME, ['-f', '%M', '-o', timeFile, cmd, ...args]] : [cmd, args];
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(file, argv, { env, stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let bytes = 0;
    const out = [];
    let err = '';
    child.stdout.on('data', (c) => {
      bytes += c.length;
      if (keepStdout) out.push(c);
    });
    child.stderr.on('data', (c) => (err += c));
    if (stdin !== undefined) child.stdin.end(stdin);
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      let maxRssKb;
      try {
        maxRssKb = TIME ? Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop()) : undefined;
      } catch {
        // no time(1) figure: the run is still measured
      }
      rmSync(dir, { recursive: true, force: true });
      resolve({ ms, maxRssKb, code, bytes, stdout: keepStdout ? Buffer.concat(out).toString() : undefined, stderr: err });
    });
  });
}

/**
 * Runs subject and baseline alternately `runs` times (after `warmup` unmeasured rounds) and
 * returns medians and the ratio subject/baseline.
 */
export async function compare({ name, subject, baseline, runs = 11, warmup = 2 }) {
  const s = [];
  const b = [];
  const sMem = [];
  const bMem = [];
  for (let i = 0; i < warmup + runs; i++) {
    const rb = await measure(baseline.cmd, baseline.args, baseline.options);
    const rs = await measure(subject.cmd, subject.args, subject.options);
    if (rs.code !== 0) throw new Error(`${name}: subject exited ${rs.code}: ${rs.stderr.slice(0, 500)}`);
    if (rb.code !== 0) throw new Error(`${name}: baseline exited ${rb.code}: ${rb.stderr.slice(0, 500)}`);
    if (i < warmup) continue;
    s.push(rs.ms);
    b.push(rb.ms);
    if (rs.maxRssKb) sMem.push(rs.maxRssKb);
    if (rb.maxRssKb) bMem.push(rb.maxRssKb);
  }
  const result = {
    name,
    subjectMs: median(s),
    baselineMs: median(b),
    ratio: median(s) / median(b),
    subjectPeakMiB: sMem.length ? Math.max(...sMem) / 1024 : undefined,
    baselinePeakMiB: bMem.length ? Math.max(...bMem) / 1024 : undefined,
    runs,
  };
  return result;
}

export function report(result, target) {
  const mem = result.subjectPeakMiB ? ` · peak ${result.subjectPeakMiB.toFixed(1)} MiB (baseline ${result.baselinePeakMiB?.toFixed(1)} MiB)` : '';
  const verdict = target === undefined ? '' : result.ratio <= target ? `  ✓ ≤ ${target}×` : `  ✗ target ≤ ${target}×`;
  console.log(`${result.name}: ${result.subjectMs.toFixed(1)} ms vs ${result.baselineMs.toFixed(1)} ms = ${result.ratio.toFixed(2)}× (median of ${result.runs})${mem}${verdict}`);
  return result;
}
