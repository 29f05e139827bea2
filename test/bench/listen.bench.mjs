// Listener throughput: `socialpub listen --output ndjson` (the built binary, spawned) under concurrent signed
// deliveries, against a bare node:http server answering 204, both driven by autocannon with
// the same requests (a fresh webhook-id and signature per request). Targets: ≥ 0.8× the bare
// server's requests per second, server CPU per delivery ≤ 1.35× the bare server's (median of
// per-round ratios), and every accepted delivery printed exactly once.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { BIN, benchEnv, median } from './lib.mjs';
import { createHmac, randomBytes } from 'node:crypto';

// Signed here with node:crypto, independently of the code under test (Standard Webhooks:
// HMAC-SHA256 over "id.timestamp.body" with the base64-decoded secret).
const KEY = randomBytes(24);
const SECRET = `whsec_${KEY.toString('base64')}`;
const sign = (id, ts, body) => `v1,${createHmac('sha256', KEY).update(`${id}.${ts}.${body}`).digest('base64')}`;
const BARE_SERVER = `
const http = require('node:http');
const server = http.createServer((req, res) => { res.writeHead(204); res.end(); });
server.listen(0, '127.0.0.1', () => process.stderr.write('http://127.0.0.1:' + server.address().port + '/webhooks\\n'));
process.on('SIGINT', () => server.close(() => process.exit(0)));
`;

/** Spawns a server and resolves with its URL, read from the first URL it prints on stderr. */
function startServer(cmd, args, stdoutFd, env = {}) {
  const child = spawn(cmd, args, { env: benchEnv(env), stdio: ['ignore', stdoutFd ?? 'ignore', 'pipe'] });
  let stderr = '';
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const url = new Promise((resolve, reject) => {
    child.stderr.on('data', (c) => {
      stderr += c;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/webhooks)/.exec(stderr);
      if (m) resolve(m[1]);
    });
    child.on('exit', () => reject(new Error(`server exited before it was ready: ${stderr.slice(0, 500)}`)));
  });
  return { child, url, exited, stderr: () => stderr };
}

let counter = 0;
const payload = (n) =>
  JSON.stringify({ type: 'post.result', postId: `post_${n}`, platform: 'twitter-x', status: n % 5 === 0 ? 'failed' : 'published', resultId: `res_${n}`, ...(n % 5 === 0 ? { error: { code: 'API_RATE_LIMIT', message: 'Rate limited by the platform', context: { retryAfter: 60 } } } : {}) });

/** Signed deliveries, made before the clock starts so that signing does not load the client. */
function signedRequests(count) {
  const list = new Array(count);
  for (let i = 0; i < count; i++) {
    const n = ++counter;
    const id = `msg_bench_${process.pid}_${n}`;
    const ts = Math.floor(Date.now() / 1000);
    const body = payload(n);
    list[i] = { body, headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': sign(id, ts, body) } };
  }
  return list;
}

/**
 * autocannon with a fresh webhook-id, body and signature on every request. Requests per second
 * are the requests over the time to the last response: autocannon's own totals are sampled per
 * whole second, too coarse for runs of a few seconds.
 */
async function load(url, amount, connections) {
  const prepared = signedRequests(amount);
  let next = 0;
  let last = 0n;
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  const result = await autocannon({
    url,
    connections,
    pipelining: 1,
    amount,
    method: 'POST',
    requests: [
      {
        setupRequest(req) {
          const r = prepared[next++ % amount];
          return { ...req, method: 'POST', body: r.body, headers: r.headers };
        },
        onResponse() {
          last = process.hrtime.bigint();
        },
      },
    ],
  });
  const seconds = Number(last - started) / 1e9;
  const used = process.cpuUsage(cpu);
  return { rps: amount / seconds, clientCpuPerRequest: (used.user + used.system) / amount, ok: result['2xx'], non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts };
}

/** CPU time (user + system) a process has used so far, in microseconds (Linux /proc). */
function cpuMicros(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000; // utime + stime, in 10 ms ticks
  } catch {
    return NaN;
  }
}

async function measure(kind, { amount, warmup, connections, outFile, bin = BIN }) {
  const fd = outFile ? openSync(outFile, 'w') : openSync('/dev/null', 'w');
  const server =
    kind === 'bare'
      ? startServer(process.execPath, ['-e', BARE_SERVER], fd)
      : startServer(process.execPath, [bin, 'listen', '--port', '0', '--output', 'ndjson'], fd, { SOCIALPUB_WEBHOOK_SECRET: SECRET });
  closeSync(fd);
  try {
    const url = await server.url;
    const w = await load(url, warmup, connections);
    const cpu0 = cpuMicros(server.child.pid);
    const r = await load(url, amount, connections);
    const cpuPerRequest = (cpuMicros(server.child.pid) - cpu0) / amount;
    server.child.kill('SIGINT');
    await server.exited;
    return { ...r, cpuPerRequest, warmOk: w.ok, stderr: server.stderr() };
  } finally {
    server.child.kill('SIGKILL');
  }
}

function countLines(file) {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').filter(Boolean);
  const ids = new Set();
  let bad = 0;
  for (const line of lines) {
    try {
      ids.add(JSON.parse(line).webhookId);
    } catch {
      bad++;
    }
  }
  return { lines: lines.length, unique: ids.size, bad };
}

/**
 * Rounds of bare → listen (stdout /dev/null) → listen (stdout to a file, then counted). The
 * verdict uses the median of per-round ratios: other work on the machine shifts whole rounds,
 * and pairing keeps that out of the ratio. Server CPU per request is shown as a second,
 * load-insensitive view of the same cost. With LISTEN_BASELINE_BIN set to another build's
 * bin/socialpub.js (a copy of bin/ and dist/ from before a change), each round also runs that
 * build to /dev/null, before or after this one by turns, and the paired differences are shown.
 * LISTEN_AMOUNT and LISTEN_ROUNDS change the deliveries per run and the rounds: more than the
 * de-duplication window (100,000 ids) shows what a listener that has run for a while costs.
 */
export async function run({
  rounds = Number(process.env.LISTEN_ROUNDS ?? 7),
  amount = Number(process.env.LISTEN_AMOUNT ?? 40_000),
  warmup = 5_000,
  connections = 20,
  baselineBin = process.env.LISTEN_BASELINE_BIN,
} = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-listen-'));
  const rows = [];
  let exact = true;
  const notes = [];
  try {
    for (let i = 0; i < rounds; i++) {
      const bare = await measure('bare', { amount, warmup, connections });
      const baseline = () => (baselineBin ? measure('listen', { amount, warmup, connections, bin: baselineBin }) : undefined);
      const base = i % 2 === 0 ? await baseline() : undefined;
      const nul = await measure('listen', { amount, warmup, connections });
      const out = join(dir, `round-${i}.ndjson`);
      const file = await measure('listen', { amount, warmup, connections, outFile: out });
      rows.push({ bare, nul, file, base: base ?? (await baseline()) });
      // Every 2xx (warm-up and measured) must be exactly one NDJSON line with a unique id, and
      // the /dev/null run must report as many printed as it answered 2xx.
      const accepted = file.warmOk + file.ok;
      const c = countLines(out);
      const printedFile = /summary: received (\d+) · printed (\d+) · duplicates (\d+)/.exec(file.stderr)?.[2];
      const printedNull = /summary: received (\d+) · printed (\d+) · duplicates (\d+)/.exec(nul.stderr)?.[2];
      const okRound =
        c.lines === accepted && c.unique === accepted && c.bad === 0 && file.non2xx === 0 && file.errors === 0 && printedFile === String(accepted) &&
        nul.non2xx === 0 && nul.errors === 0 && printedNull === String(nul.warmOk + nul.ok);
      if (!okRound) exact = false;
      notes.push(
        `round ${i + 1} (load ${os.loadavg()[0].toFixed(1)}): bare ${fmt(bare.rps)}, listen ${fmt(nul.rps)} (${(nul.rps / bare.rps).toFixed(2)}×, ${nul.cpuPerRequest.toFixed(1)} µs)` +
          `${rows[i].base ? `, baseline ${fmt(rows[i].base.rps)} (${(rows[i].base.rps / bare.rps).toFixed(2)}×, ${rows[i].base.cpuPerRequest.toFixed(1)} µs)` : ''}, to file ${fmt(file.rps)} · ` +
          `file: 2xx ${accepted}, lines ${c.lines}, unique ids ${c.unique}; /dev/null: 2xx ${nul.warmOk + nul.ok}, printed ${printedNull ?? '?'}${okRound ? '' : '  ✗'}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const ratio = median(rows.map((r) => r.nul.rps / r.bare.rps));
  const fileRatio = median(rows.map((r) => r.file.rps / r.bare.rps));
  const cpuBare = median(rows.map((r) => r.bare.cpuPerRequest));
  const cpuListen = median(rows.map((r) => r.nul.cpuPerRequest));
  console.log(`listen: ${connections} connections, ${amount.toLocaleString('en-US')} signed deliveries per run after ${warmup.toLocaleString('en-US')} warm-up, ${rounds} rounds`);
  console.log(`  bare node:http 204:                 ${fmt(median(rows.map((r) => r.bare.rps)))} req/s (median)`);
  console.log(`  listen --output ndjson > /dev/null: ${fmt(median(rows.map((r) => r.nul.rps)))} req/s (median) · median paired ratio ${ratio.toFixed(2)}×  ${ratio >= 0.8 ? '✓ ≥ 0.8×' : '✗ target ≥ 0.8×'}`);
  console.log(`  listen --output ndjson > file:      ${fmt(median(rows.map((r) => r.file.rps)))} req/s (median) · median paired ratio ${fileRatio.toFixed(2)}×`);
  const cpuClient = median(rows.flatMap((r) => [r.bare.clientCpuPerRequest, r.nul.clientCpuPerRequest]));
  // The target: CPU per delivery at most 1.35× the bare receiver's, as the median of per-round ratios.
  const cpuRatio = median(rows.map((r) => r.nul.cpuPerRequest / r.bare.cpuPerRequest));
  console.log(`  server CPU per request: bare ${cpuBare.toFixed(1)} µs, listen ${cpuListen.toFixed(1)} µs · median paired ratio ${cpuRatio.toFixed(2)}×  ${cpuRatio <= 1.35 ? '✓ ≤ 1.35×' : '✗ target ≤ 1.35×'} (load generator: ${cpuClient.toFixed(1)} µs; ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)})`);
  if (baselineBin) {
    const base = rows.map((r) => r.base);
    console.log(
      `  baseline ${baselineBin} > /dev/null: ${fmt(median(base.map((b) => b.rps)))} req/s (median) · median paired ratio ${median(rows.map((r) => r.base.rps / r.bare.rps)).toFixed(2)}× · ` +
        `CPU per request ${median(base.map((b) => b.cpuPerRequest)).toFixed(1)} µs, median paired ratio to bare ${median(rows.map((r) => r.base.cpuPerRequest / r.bare.cpuPerRequest)).toFixed(2)}×; this build − baseline, paired: ${median(rows.map((r) => r.nul.cpuPerRequest - r.base.cpuPerRequest)).toFixed(2)} µs CPU, ` +
        `${median(rows.map((r) => r.nul.rps / r.base.rps)).toFixed(2)}× req/s`,
    );
  }
  for (const n of notes) console.log(`  ${n}`);
  console.log(`  every accepted delivery printed exactly once: ${exact ? '✓' : '✗'}`);
  return { ratio, fileRatio, cpuBare, cpuListen, cpuRatio, exact };
}

const fmt = (x) => Math.round(x).toLocaleString('en-US');

if (import.meta.url === `file://${process.argv[1]}`) await run();
