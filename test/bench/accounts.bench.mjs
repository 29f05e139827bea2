// `accounts list` with 50 accounts and 100,000 results in the workspace, against a bare node:http
// GET of the accounts route (one request, the body printed): health must come from a page or two
// of recent results, never from a scan of them all.
//   Target: ≤ 1.6× the bare GET script, whole-process medians.
// Run: npm run build && node test/bench/accounts.bench.mjs  (or `npm run bench accounts`)
//   STARTUP_VARIANT=/dir[,/dir…]  other built checkouts' accounts list, each against this build's
import { join } from 'node:path';
import { BIN, compare, measure, report } from './lib.mjs';
import { startSandboxProcess } from './results.bench.mjs';

const node = process.execPath;
const ACCOUNTS = 50;
const FIXTURES = 100_000;

// The least a client can do: one GET of the accounts route, the body to stdout.
const BARE_GET = `
const http = require('node:http');
const url = new URL('/v1/social-accounts?limit=100', process.env.SOCIALPUB_BASE_URL);
http.get(url, { headers: { authorization: 'Bearer ' + process.env.SOCIALPUB_API_KEY } }, (res) => {
  if (res.statusCode !== 200) process.exitCode = 1;
  res.pipe(process.stdout);
});`;

export async function run() {
  const sandbox = await startSandboxProcess({ fixtures: FIXTURES, extraArgs: ['--accounts', String(ACCOUNTS)] });
  try {
    const subject = { cmd: node, args: [BIN, 'accounts', 'list', '-o', 'tsv'], options: { env: sandbox.env } };
    // Checked once before timing: every account is listed, and health was found for most of them.
    const check = await measure(subject.cmd, subject.args, { env: sandbox.env, keepStdout: true });
    if (check.code !== 0) throw new Error(`accounts list exited ${check.code}: ${check.stderr.slice(0, 500)}`);
    const rows = check.stdout.trim().split('\n');
    if (rows.length !== ACCOUNTS) throw new Error(`accounts list printed ${rows.length} rows, not ${ACCOUNTS}`);
    const withSuccess = rows.filter((r) => /\t\d{4}-\d\d-\d\dT[^\t]*\t/.test(r)).length;
    console.log(`accounts list: ${rows.length} accounts, ${withSuccess} with a last success from recent results`);
    report(
      await compare({
        name: `accounts list (${ACCOUNTS} accounts, ${FIXTURES.toLocaleString('en-US')} results) vs bare GET /v1/social-accounts`,
        subject,
        baseline: { cmd: node, args: ['-e', BARE_GET], options: { env: sandbox.env } },
      }),
      1.6,
    );
    for (const dir of process.env.STARTUP_VARIANT ? process.env.STARTUP_VARIANT.split(',') : []) {
      report(
        await compare({
          name: `${dir}: accounts list vs this build's`,
          subject: { cmd: node, args: [join(dir, 'bin', 'socialpub.js'), ...subject.args.slice(1)], options: subject.options },
          baseline: subject,
        }),
      );
    }
    // For reference on the same machine at the same time: the one-request command the start-up
    // target was set for (overhead.bench.mjs), against the same bare GET.
    const page = await fetch(`${sandbox.baseUrl}/api/v1/post-results?limit=1`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } }).then((r) => r.json());
    report(
      await compare({
        name: 'reference: results get ID vs bare GET /v1/social-accounts',
        subject: { cmd: node, args: [BIN, 'results', 'get', page.data[0].id], options: { env: sandbox.env } },
        baseline: { cmd: node, args: ['-e', BARE_GET], options: { env: sandbox.env } },
      }),
    );
  } finally {
    await sandbox.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
