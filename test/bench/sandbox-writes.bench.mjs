// What durability costs: creates per second (POST /v1/posts, 16 connections) against the
// sandbox in memory (SQLite :memory:) and with `--data FILE` (every create its own SQLite
// transaction, committed with an fsync of the WAL before its 201). The write limit is raised for
// the run; the service itself allows 100 writes an hour per workspace.
// Run: npm run bench sandbox-writes   (also part of `npm run bench sandbox`)
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { median } from './lib.mjs';
import { startSandboxChild } from './sandbox-child.mjs';

const LIMITS = ['--write-limit', '1000000000', '--read-limit', '1000000000'];

async function creates(sb, runs = 3) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    const r = await autocannon({
      url: `${sb.baseUrl}/v1/posts`,
      method: 'POST',
      headers: { authorization: `Bearer ${sb.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ payloads: { 'twitter-x': { text: 'Benchmark post' }, linkedin: { text: 'Benchmark post' } } }),
      connections: 16,
      duration: 3,
    });
    if (r.non2xx || r.errors) throw new Error(`creates: ${r.non2xx} non-2xx, ${r.errors} errors`);
    results.push(r);
  }
  return {
    rps: median(results.map((r) => r.requests.average)),
    p50: median(results.map((r) => r.latency.p50)),
    p99: median(results.map((r) => r.latency.p99)),
  };
}

const line = (name, r) => `${name}: ${Math.round(r.rps).toLocaleString('en-US')} creates/s, latency p50 ${r.p50} ms, p99 ${r.p99} ms (16 connections, median of 3 × 3 s)`;

export async function run() {
  const memory = await startSandboxChild(LIMITS);
  let inMemory;
  try {
    inMemory = await creates(memory);
  } finally {
    await memory.stop();
  }
  console.log(line('sandbox creates in memory', inMemory));

  const dir = mkdtempSync(join(tmpdir(), 'bench-data-'));
  const file = join(dir, 'state.db');
  try {
    const durable = await startSandboxChild([...LIMITS, '--data', file]);
    let withData;
    try {
      withData = await creates(durable);
    } finally {
      await durable.stop();
    }
    console.log(line('sandbox creates with --data (fsync before each answer)', withData));
    console.log(`durability costs ${((1 - withData.rps / inMemory.rps) * 100).toFixed(0)}% of the create rate; database after the clean stop: ${(statSync(file).size / 1024 / 1024).toFixed(1)} MiB`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
