// `socialpub mcp`: time from spawn to the initialize answer (what an assistant waits for when it
// starts the server), and the round trip of a list_results call (50 rows) on a running server,
// against the sandbox started as a separate process with 1,000 results. Raw JSON-RPC lines over
// the pipes, so the figures are the server's, not a client library's.
// Run: npm run build && node test/bench/mcp.bench.mjs  (or `npm run bench mcp`)
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, measure, median } from './lib.mjs';
import { startSandboxChild } from './sandbox-child.mjs';

const node = process.execPath;
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } };

/** A server process with a line reader; `request` resolves with the answer to an id. */
function startServer(env) {
  const started = process.hrtime.bigint();
  const child = spawn(node, [BIN, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.resume();
  const waiting = new Map();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const msg = JSON.parse(line);
    const resolve = waiting.get(msg.id);
    if (resolve) {
      waiting.delete(msg.id);
      resolve({ msg, at: process.hrtime.bigint() });
    }
  });
  const request = (message) =>
    new Promise((resolve) => {
      waiting.set(message.id, resolve);
      child.stdin.write(JSON.stringify(message) + '\n');
    });
  const stop = () =>
    new Promise((resolve) => {
      child.once('close', resolve);
      child.stdin.end();
    });
  return { started, request, notify: (m) => child.stdin.write(JSON.stringify(m) + '\n'), stop };
}

const ms = (from, to) => Number(to - from) / 1e6;

export async function run({ runs = 21 } = {}) {
  const sandbox = await startSandboxChild(['--fixtures', '1000', '--seed', '42', '--read-limit', '1000000000']);
  const configDir = mkdtempSync(join(tmpdir(), 'socialpub-bench-mcp-'));
  const env = sandbox.env({ SOCIALPUB_CONFIG_DIR: configDir });
  try {
    // Spawn → initialize answer, against bare `node -e 0` (whole process) for scale.
    const init = [];
    const bare = [];
    for (let i = 0; i < runs + 2; i++) {
      const server = startServer(env);
      const { msg, at } = await server.request(INIT);
      if (!msg.result?.serverInfo) throw new Error(`initialize failed: ${JSON.stringify(msg)}`);
      await server.stop();
      const b = await measure(node, ['-e', '0'], { env });
      if (i < 2) continue;
      init.push(ms(server.started, at));
      bare.push(b.ms);
    }
    console.log(`mcp: spawn → initialize answer: ${median(init).toFixed(1)} ms (median of ${runs}; node -e 0 whole process: ${median(bare).toFixed(1)} ms)`);

    // list_results round trips on one running server.
    const server = startServer(env);
    await server.request(INIT);
    server.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    let id = 10;
    const call = async (args) => {
      const t0 = process.hrtime.bigint();
      const { msg, at } = await server.request({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'list_results', arguments: args } });
      if (msg.result?.isError || !msg.result) throw new Error(`list_results failed: ${JSON.stringify(msg).slice(0, 500)}`);
      return { ms: ms(t0, at), rows: msg.result.structuredContent.count, bytes: JSON.stringify(msg).length };
    };
    for (const [label, args] of [
      ['list_results limit 50', { limit: 50 }],
      ['list_results failed_only limit 50', { limit: 50, failed_only: true }],
      ['list_results since 7d limit 50', { limit: 50, since: '7d' }],
    ]) {
      const times = [];
      let last;
      for (let i = 0; i < runs + 3; i++) {
        last = await call(args);
        if (i >= 3) times.push(last.ms);
      }
      console.log(`mcp: ${label}: ${median(times).toFixed(1)} ms round trip (median of ${runs}; ${last.rows} rows, ${(last.bytes / 1024).toFixed(1)} KiB answer)`);
    }
    await server.stop();
  } finally {
    rmSync(configDir, { recursive: true, force: true });
    await sandbox.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
