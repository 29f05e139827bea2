// Support triage at scale, the built binary against `socialpub sandbox` in its own process:
//   stats: `results stats --by post` over 1,000,000 results at --latency 20ms
//          ≤ 1.1× `results list --all -o ndjson` over the same, and peak RSS ≤ 200 MiB, piped
//          as JSON and as TSV alike.
//   follow: `results list --follow` prints a new result within 2 poll intervals of the service
//          having it (the interval is the follow's own, told by --debug).
// Run: npm run bench triage   (or: node test/bench/triage.bench.mjs [stats] [follow])
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { BIN, compare, measure, median, report } from './lib.mjs';
import { startSandboxProcess } from './results.bench.mjs';

const node = process.execPath;

async function stats({ runs }) {
  const sandbox = await startSandboxProcess({ fixtures: 1_000_000, latency: '20ms' });
  try {
    const options = { env: sandbox.env };
    const result = report(
      await compare({
        name: 'results stats --by post vs results list --all -o ndjson, 1,000,000 results, --latency 20ms',
        subject: { cmd: node, args: [BIN, 'results', 'stats', '--by', 'post', '--json'], options },
        baseline: { cmd: node, args: [BIN, 'results', 'list', '--all', '-o', 'ndjson'], options },
        runs,
        warmup: 0,
      }),
      1.1,
    );
    const peak = (label, rss) => console.log(`  peak RSS of results stats --by post ${label}: ${rss === undefined ? 'n/a (no /usr/bin/time)' : `${rss.toFixed(1)} MiB ${rss <= 200 ? '✓ ≤ 200 MiB' : '✗ target ≤ 200 MiB'}`}`);
    peak('--json', result.subjectPeakMiB);
    // Piped TSV prints the same groups row by row: it must not cost more than the JSON document.
    const tsv = [];
    for (let i = 0; i < runs; i++) {
      const r = await measure(node, [BIN, 'results', 'stats', '--by', 'post', '-o', 'tsv'], options);
      if (r.code !== 0) throw new Error(`results stats -o tsv exited ${r.code}: ${r.stderr.slice(0, 500)}`);
      if (r.maxRssKb) tsv.push(r.maxRssKb / 1024);
    }
    peak('-o tsv', tsv.length ? Math.max(...tsv) : undefined);
    return result;
  } finally {
    await sandbox.close();
  }
}

async function api(sandbox, method, path, body) {
  const res = await fetch(new URL(path, sandbox.baseUrl), {
    method,
    headers: { authorization: `Bearer ${sandbox.env.SOCIALPUB_API_KEY}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return res.json();
}

async function follow({ rounds }) {
  const sandbox = await startSandboxProcess({ fixtures: 1_000 });
  const child = spawn(node, [BIN, 'results', 'list', '--follow', '-o', 'ndjson', '--debug'], { env: sandbox.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const seenAt = new Map();
  createInterface({ input: child.stdout }).on('line', (line) => seenAt.set(JSON.parse(line).post_id, performance.now()));
  const intervals = [];
  createInterface({ input: child.stderr }).on('line', (line) => {
    const m = /--follow: next poll in (\d+(?:\.\d+)?)(ms|s)/.exec(line);
    if (m) intervals.push(Number(m[1]) * (m[2] === 's' ? 1000 : 1));
  });
  const lags = [];
  try {
    while (intervals.length === 0) await new Promise((r) => setTimeout(r, 50));
    for (let i = 0; i < rounds; i++) {
      const post = await api(sandbox, 'POST', '/v1/schedule', { payloads: { bluesky: { text: `follow bench ${i}` } }, scheduledAt: new Date(Date.now() + 1_500).toISOString() });
      // The moment the service has the result: watched from outside, every 20 ms.
      let there;
      for (;;) {
        const page = await api(sandbox, 'GET', `/api/v1/post-results?limit=1&post_id=${post.id}`);
        if (page.data?.length) {
          there = performance.now();
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      while (!seenAt.has(post.id)) await new Promise((r) => setTimeout(r, 10));
      lags.push(Math.max(0, seenAt.get(post.id) - there));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('close', r));
    await sandbox.close();
  }
  const interval = median(intervals);
  const worst = Math.max(...lags);
  console.log(
    `results list --follow: a new result printed ${median(lags).toFixed(0)} ms (median), ${worst.toFixed(0)} ms (worst of ${rounds}) after the service had it; poll interval ${interval} ms ${worst <= 2 * interval ? '✓ within 2 intervals' : '✗ target within 2 intervals'}`,
  );
  return { lags, interval };
}

export async function run({ only = ['follow', 'stats'], runs = 3, rounds = 8 } = {}) {
  const out = {};
  if (only.includes('follow')) out.follow = await follow({ rounds });
  if (only.includes('stats')) out.stats = await stats({ runs });
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) await run(process.argv.length > 2 ? { only: process.argv.slice(2) } : {});
