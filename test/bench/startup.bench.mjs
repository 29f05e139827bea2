// `npm run bench startup`: whole-process start-up of the built binary on the commands people run
// often, each against a baseline on the same Node in the same run: `--version` ≤ 1.3×, `--help`
// and `posts --help` ≤ 1.5× `node -e 0`; `results get` and `posts view` ≤ 1.6× a bare node:http
// GET of the same resource. Paired rounds (each round runs every process once, in turn), medians
// of wall time and of CPU time (user + system, all threads: what a loaded machine disturbs least),
// each read by a preloaded probe when the process exits; peak RSS from /usr/bin/time.
//   NODE_BIN=/path/to/node   the Node to measure (default: the one running the bench)
//   STARTUP_VARIANT=/dir[,/dir…]  other built checkouts run in the same rounds: A/B of a mechanism
//   STARTUP_AFTER_RUN_CACHE=1  also this build with a V8 code cache taken after the run
//                            (after-run-cache.cjs): what Node's compile cache leaves to compile
//   STARTUP_ROUNDS=n         rounds (default 21, after 2 unmeasured)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildsUnderTest, pairedHeader, pairedRounds, pairedTools, reportPaired } from './paired.mjs';
import { startSandboxChild } from './sandbox-child.mjs';

export async function run() {
  const node = process.env.NODE_BIN || process.execPath;
  const { bins, variants } = buildsUnderTest();
  const rounds = Number(process.env.STARTUP_ROUNDS) || 21;
  const warmup = 2;
  const tmp = mkdtempSync(join(tmpdir(), 'bench-startup-'));
  const sb = await startSandboxChild(['--fixtures', '1000', '--seed', '7']);
  try {
    // An empty config folder: `profile list` reads this machine's layout but no user's profiles.
    const env = sb.env({ SOCIALPUB_CONFIG_DIR: join(tmp, 'config'), NO_COLOR: '1', TZ: 'UTC' });
    const { get, once } = pairedTools(tmp, node, env);
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
    console.log(await pairedHeader('startup', node, rounds));
    const times = await pairedRounds({ cases, bins, rounds, warmup, once });
    const named = cases.map((c) => ({
      ...c,
      name: `socialpub ${c.argv[0].startsWith('-') ? c.argv.join(' ') : c.argv.slice(0, 2).join(' ')}`,
      vs: c.baseline === bare ? 'node -e 0' : 'node:http GET',
    }));
    reportPaired({ cases: named, times, variants });
  } finally {
    await sb.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
