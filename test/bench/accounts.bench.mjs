// `accounts list` with 50 accounts and 100,000 results in the workspace, against a bare node:http
// GET of the accounts route (one request, the body printed): health must come from a page of
// recent results, never from a scan of them all.
//   Target: ≤ 1.6× the bare GET script, whole-process medians of wall time.
// Paired rounds as in startup.bench.mjs (paired.mjs), and for reference `results get` against a
// bare GET of its own resource: the one-request command the start-up target was set for.
// Run: npm run build && node test/bench/accounts.bench.mjs  (or `npm run bench accounts`)
//   NODE_BIN=/path/to/node   the Node to measure (default: the one running the bench)
//   STARTUP_VARIANT=/dir[,/dir…]  other built checkouts run in the same rounds: A/B of a change
//   STARTUP_AFTER_RUN_CACHE=1  also this build with a V8 code cache taken after the run (paired.mjs)
//   STARTUP_ROUNDS=n         rounds (default 15, after 2 unmeasured)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildsUnderTest, pairedHeader, pairedRounds, pairedTools, reportPaired } from './paired.mjs';
import { startSandboxProcess } from './results.bench.mjs';

const ACCOUNTS = 50;
const FIXTURES = 100_000;

export async function run() {
  const node = process.env.NODE_BIN || process.execPath;
  const { bins, variants } = buildsUnderTest();
  const rounds = Number(process.env.STARTUP_ROUNDS) || 15;
  const tmp = mkdtempSync(join(tmpdir(), 'bench-accounts-'));
  const sandbox = await startSandboxProcess({ fixtures: FIXTURES, extraArgs: ['--accounts', String(ACCOUNTS)] });
  try {
    const { get, once } = pairedTools(tmp, node, sandbox.env);
    // Checked once per build before timing: every account is listed, and how many have a last outcome.
    for (const start of bins) {
      const bin = start.join(' ');
      const rows = (await once([...start, 'accounts', 'list', '-o', 'tsv'], true)).stdout.trim().split('\n');
      if (rows.length !== ACCOUNTS) throw new Error(`${bin}: accounts list printed ${rows.length} rows, not ${ACCOUNTS}`);
      // The last two columns: last success, last failure.
      const told = rows.filter((r) => r.split('\t').slice(-2).some(Boolean)).length;
      console.log(`${bin}: accounts list: ${rows.length} accounts, ${told} with a last success or failure from recent results`);
    }
    const page = await fetch(`${sandbox.baseUrl}/api/v1/post-results?limit=1`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } }).then((r) => r.json());
    const resultId = page.data[0].id;
    const cases = [
      { name: 'accounts list', vs: 'node:http GET', argv: ['accounts', 'list', '-o', 'tsv'], baseline: [get, '/v1/social-accounts?limit=100'], target: 1.6 },
      { name: 'results get (reference)', vs: 'node:http GET', argv: ['results', 'get', resultId], baseline: [get, `/api/v1/post-results/${resultId}`] },
    ];
    console.log(await pairedHeader(`accounts (${ACCOUNTS} accounts, ${FIXTURES.toLocaleString('en-US')} results)`, node, rounds));
    reportPaired({ cases, times: await pairedRounds({ cases, bins, rounds, once }), variants });
  } finally {
    await sandbox.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
