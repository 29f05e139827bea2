// `npm run bench startup`: whole-process start-up of the built binary on the commands people run
// often, each against a baseline on the same Node in the same run: `--version` ≤ 1.3×, `--help`
// and `posts --help` ≤ 1.5× `node -e 0`; `results get` and `posts view` ≤ 1.6× a bare node:http
// GET of the same resource. Paired rounds (each round runs every process once, in turn), medians.
//   NODE_BIN=/path/to/node   the Node to measure (default: the one running the bench)
//   STARTUP_VARIANT=/dir     a second built checkout run in the same rounds: A/B of a mechanism
//   STARTUP_ROUNDS=n         rounds (default 21, after 2 unmeasured)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

export async function run() {
  const node = process.env.NODE_BIN || process.execPath;
  const variant = process.env.STARTUP_VARIANT ? join(process.env.STARTUP_VARIANT, 'bin', 'socialpub.js') : undefined;
  const rounds = Number(process.env.STARTUP_ROUNDS) || 21;
  const warmup = 2;
  const tmp = mkdtempSync(join(tmpdir(), 'bench-startup-'));
  const sb = await startSandboxChild(['--fixtures', '1000', '--seed', '7']);
  try {
    const get = join(tmp, 'get.cjs');
    writeFileSync(get, GET_SCRIPT);
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
    const times = cases.map(() => ({ base: [], subject: [], variant: [], rss: [], variantRss: [] }));
    const once = async (args) => {
      const r = await measure(node, args, { env });
      if (r.code !== 0) throw new Error(`${args.join(' ')} exited ${r.code}: ${r.stderr.slice(0, 500)}`);
      return r;
    };
    console.log(`startup on ${node} (${(await measure(node, ['--version'], { keepStdout: true })).stdout.trim()}, ${rounds} rounds, load ${loadavg()[0].toFixed(1)})${variant ? `, variant ${variant}` : ''}`);
    for (let i = 0; i < warmup + rounds; i++) {
      for (const [c, { argv, baseline }] of cases.entries()) {
        const base = await once(baseline);
        // Subject and variant in turn first, so that neither always follows the baseline.
        const order = variant && i % 2 ? ['variant', 'subject'] : ['subject', 'variant'];
        const r = {};
        for (const which of order) if (which === 'subject' || variant) r[which] = await once([which === 'subject' ? BIN : variant, ...argv]);
        if (i < warmup) continue;
        const t = times[c];
        t.base.push(base.ms);
        t.subject.push(r.subject.ms);
        t.rss.push(r.subject.maxRssKb);
        if (variant) t.variant.push(r.variant.ms), t.variantRss.push(r.variant.maxRssKb);
      }
    }
    for (const [c, { argv, baseline, target }] of cases.entries()) {
      const t = times[c];
      const ratio = median(t.subject) / median(t.base);
      const name = `socialpub ${argv[0].startsWith('-') ? argv.join(' ') : argv.slice(0, 2).join(' ')}`;
      const vs = baseline === bare ? 'node -e 0' : 'node:http GET';
      const verdict = target === undefined ? '' : ratio <= target ? `  ✓ ≤ ${target}×` : `  ✗ target ≤ ${target}×`;
      let line = `${name.padEnd(26)} ${median(t.subject).toFixed(1)} ms vs ${vs} ${median(t.base).toFixed(1)} ms = ${ratio.toFixed(2)}×, peak ${(median(t.rss) / 1024).toFixed(1)} MiB${verdict}`;
      if (variant) {
        const diff = median(t.variant.map((v, i) => v - t.subject[i]));
        line += ` | variant ${median(t.variant).toFixed(1)} ms (${(median(t.variant) / median(t.base)).toFixed(2)}×, paired Δ ${diff >= 0 ? '+' : ''}${diff.toFixed(1)} ms, peak ${(median(t.variantRss) / 1024).toFixed(1)} MiB)`;
      }
      console.log(line);
    }
  } finally {
    await sb.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
