// A normal request while 300 slow clients hold connections (trickling their headers a line at
// a time, as slowloris does): median and worst latency of 100 GETs without and with them.
// The sandbox caps connections (512 by default) and answers stalled ones 408 within 30 s.
// Run: npm run bench sandbox-slow   (also part of `npm run bench sandbox`)
import { connect } from 'node:net';
import { median } from './lib.mjs';
import { startSandboxChild } from './sandbox-child.mjs';

async function latencies(sb, n = 100) {
  const ms = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    const res = await fetch(`${sb.baseUrl}/v1/posts?limit=1`, { headers: { authorization: `Bearer ${sb.apiKey}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /v1/posts: ${res.status}`);
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return { p50: median(ms), max: Math.max(...ms) };
}

async function slowClients(url, count) {
  const { hostname, port } = new URL(url);
  const sockets = [];
  for (let i = 0; i < count; i++) {
    const s = await new Promise((resolve, reject) => {
      const c = connect(Number(port), hostname, () => resolve(c));
      c.once('error', reject);
    });
    s.on('error', () => undefined);
    s.write('GET /v1/posts HTTP/1.1\r\nHost: x\r\n');
    sockets.push(s);
  }
  const timer = setInterval(() => {
    for (const s of sockets) if (!s.destroyed) s.write('X-Slow: 1\r\n');
  }, 500);
  return {
    open: () => sockets.filter((s) => !s.destroyed).length,
    stop() {
      clearInterval(timer);
      for (const s of sockets) s.destroy();
    },
  };
}

export async function run() {
  const sb = await startSandboxChild(['--read-limit', '1000000000']);
  try {
    const idle = await latencies(sb);
    const slow = await slowClients(sb.baseUrl, 300);
    try {
      const busy = await latencies(sb);
      console.log(`sandbox GET with no slow clients: p50 ${idle.p50.toFixed(2)} ms, worst ${idle.max.toFixed(1)} ms (100 requests)`);
      console.log(`sandbox GET with 300 slow clients open (${slow.open()} still open): p50 ${busy.p50.toFixed(2)} ms, worst ${busy.max.toFixed(1)} ms  ${busy.max < 1000 ? '✓ well under a second' : '✗ target < 1 s'}`);
    } finally {
      slow.stop();
    }
  } finally {
    await sb.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
