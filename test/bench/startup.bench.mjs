// `npm run bench startup`: whole-process start-up of the built binary on the commands people run
// often, each against a baseline on the same Node in the same run: `--version` ≤ 1.3×, `--help`
// and `posts --help` ≤ 1.5× `node -e 0`; `results get` and `posts view` ≤ 1.6× a bare node:http
// GET of the same resource. Paired rounds (each round runs every process once, in turn), medians
// of wall time and of CPU time (user + system, all threads: what a loaded machine disturbs least),
// each read by a preloaded probe when the process exits; peak RSS from /usr/bin/time.
//   NODE_BIN=/path/to/node   the Node to measure (default: the one running the bench)
//   STARTUP_VARIANT=/dir[,/dir…]  other built checkouts run in the same rounds: A/B of a mechanism
//   STARTUP_ROUNDS=n         rounds (default 21, after 2 unmeasured)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, measure, median } from './lib.mjs';
import { startSandboxChild } from './sandbox-child.mjs';

/** A bare node:http GET of one path of the service, printing the body: what a command cannot beat. */
const GET_SCRIPT = `const { get } = require('node:http');
get(process.env.SOCIALPUB_BASE_URL + process.argv[2], { headers: { authorization: 'Bearer ' + process.env.SOCIALPUB_API_KEY } }, (res) => {
  let b = '';
  res.setEncoding('utf8');
  res.on('data', (c) => (b += c));
  res.on('end', () => process.stdout.write(b + '\\n'));
});
`;

/** Preloaded into every measured process (the baselines too): its CPU time when it exits. */
const CPU_PROBE = `process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeFileSync(process.env.BENCH_CPU_OUT, String((u.user + u.system) / 1000)); });\n`;

export async function run() {
  const node = process.env.NODE_BIN || process.execPath;
  const variants = process.env.STARTUP_VARIANT ? process.env.STARTUP_VARIANT.split(',') : [];
  const rounds = Number(process.env.STARTUP_ROUNDS) || 21;
  const warmup = 2;
  const tmp = mkdtempSync(join(tmpdir(), 'bench-startup-'));
  const sb = await startSandboxChild(['--fixtures', '1000', '--seed', '7']);
  try {
    const get = join(tmp, 'get.cjs');
    writeFileSync(get, GET_SCRIPT);
    const probe = join(tmp, 'cpu-probe.cjs');
    writeFileSync(probe, CPU_PROBE);
    const cpuOut = join(tmp, 'cpu');
    // An empty config folder: `profile list` reads this machine's layout but no user's profiles.
    const env = sb.env({ SOCIALPUB_CONFIG_DIR: join(tmp, 'config'), NO_COLOR: '1', TZ: 'UTC' });
    const auth = { headers: { authorization: `Bearer ${sb.apiKey}` } };
    const resultId = (await fetch(`${sb.baseUrl}/api/v1/post-results?limit=1`, auth).then((r) => r.json())).data[0].id;
    const postId = (await fetch(`${sb.baseUrl}/v1/posts?limit=1`, auth).then((r) => r.json())).data[0].id;
    const bare = ['-e', '0'];
    const cases = [
      { argv: ['--version'], baseline: bare, target: 1.3 },
      { argv: ['--help'], baseline: bare, target: 1.5 },
      { argv: ['posts', '--help'], baseline: bare, target: 1.5 },
      { argv: ['profile', 'list'], baseline: bare },
      { argv: ['results', 'get', resultId], baseline: [get, `/api/v1/post-results/${resultId}`], target: 1.6 },
      { argv: ['posts', 'view', postId], baseline: [get, `/v1/posts/${postId}`], target: 1.6 },
      { argv: ['posts', 'list'], baseline: [get, '/v1/posts?limit=20'] },
    ];
    // This build first, then each variant: paired differences are against this build.
    const bins = [BIN, ...variants.map((dir) => join(dir, 'bin', 'socialpub.js'))];
    const times = cases.map(() => ({ base: { wall: [], cpu: [] }, bins: bins.map(() => ({ wall: [], cpu: [], rss: [] })) }));
    const once = async (args) => {
      const r = await measure(node, args, { env: { ...env, NODE_OPTIONS: `--require ${probe}`, BENCH_CPU_OUT: cpuOut } });
      if (r.code !== 0) throw new Error(`${args.join(' ')} exited ${r.code}: ${r.stderr.slice(0, 500)}`);
      return { ...r, cpu: Number(readFileSync(cpuOut, 'utf8')) };
    };
    console.log(`startup on ${node} (${(await measure(node, ['--version'], { keepStdout: true })).stdout.trim()}, ${rounds} rounds, load ${loadavg()[0].toFixed(1)})`);
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
    for (const [c, { argv, baseline, target }] of cases.entries()) {
      const { base, bins: [self, ...others] } = times[c];
      const ratio = median(self.wall) / median(base.wall);
      const name = `socialpub ${argv[0].startsWith('-') ? argv.join(' ') : argv.slice(0, 2).join(' ')}`;
      const vs = baseline === bare ? 'node -e 0' : 'node:http GET';
      const verdict = target === undefined ? '' : ratio <= target ? `  ✓ ≤ ${target}×` : `  ✗ target ≤ ${target}×`;
      const cpuRatio = median(self.cpu) / median(base.cpu);
      console.log(`${name.padEnd(24)} wall ${ms(self.wall)} vs ${vs} ${ms(base.wall)} = ${ratio.toFixed(2)}×${verdict} · CPU ${ms(self.cpu)} vs ${ms(base.cpu)} = ${cpuRatio.toFixed(2)}× · peak ${mib(self.rss)}`);
      const delta = (a, b) => signed(median(a.map((v, i) => v - b[i])));
      others.forEach((o, v) => {
        console.log(`  ${variants[v]}: wall ${ms(o.wall)} (${(median(o.wall) / median(base.wall)).toFixed(2)}×, paired Δ ${delta(o.wall, self.wall)}) · CPU ${ms(o.cpu)} (paired Δ ${delta(o.cpu, self.cpu)}) · peak ${mib(o.rss)}`);
      });
    }
  } finally {
    await sb.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

const ms = (values) => `${median(values).toFixed(1)} ms`;
const mib = (kib) => `${(median(kib) / 1024).toFixed(1)} MiB`;
const signed = (n) => `${n >= 0 ? '+' : ''}${n.toFixed(1)} ms`;

if (import.meta.url === `file://${process.argv[1]}`) await run();
