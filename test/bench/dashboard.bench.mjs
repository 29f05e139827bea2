// The dashboard at scale: a sandbox process with --fixtures 1000000 (a million results, with
// their posts) and a few hundred posts scheduled this week; each page is asked for 60 times
// (10 warm-up) and the medians of its server time (the Server-Timing header: rendering the
// page) and of the whole round trip are reported. Target: the first page (/) ≤ 50 ms server time.
// TITLE_REQUIRED never occurs among fixtures: that page shows the worst case, a scan to its cap.
// Run: npm run build && node test/bench/dashboard.bench.mjs   (or `npm run bench dashboard`)
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { BIN, benchEnv, median } from './lib.mjs';

const FIXTURES = Number(process.env.DASHBOARD_FIXTURES ?? 1_000_000);
const SCHEDULED = 300;
const PAGES = ['/', '/dashboard/posts?ws=demo', '/dashboard/posts?ws=demo&status=scheduled', '/dashboard/results?ws=demo', '/dashboard/results?ws=demo&failed=1', '/dashboard/results?ws=demo&code=TOKEN_EXPIRED', '/dashboard/results?ws=demo&code=TITLE_REQUIRED', '/dashboard/requests', '/dashboard/deliveries'];

export async function run() {
  const args = [BIN, 'sandbox', '--port', '0', '--json', '--fixtures', String(FIXTURES), '--read-limit', '1000000000', '--write-limit', '1000000', '--seed', '42'];
  const child = spawn(process.execPath, args, { env: benchEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  try {
    const ready = await new Promise((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)));
      child.once('exit', (code) => reject(new Error(`sandbox exited ${code}: ${stderr.slice(0, 800)}`)));
    });
    const url = ready.baseUrl;
    const headers = { authorization: `Bearer ${ready.workspaces.find((w) => w.name === 'demo').apiKey}`, 'content-type': 'application/json' };
    for (let i = 0; i < SCHEDULED; i++) {
      const at = new Date(Date.now() + (i + 1) * 30 * 60_000).toISOString();
      const res = await fetch(`${url}/v1/schedule`, { method: 'POST', headers, body: JSON.stringify({ scheduledAt: at, payloads: { bluesky: { text: `Scheduled post ${i}` }, linkedin: { text: `Scheduled post ${i}` } } }) });
      if (res.status !== 201) throw new Error(`schedule: ${res.status} ${await res.text()}`);
    }
    const first = await (await fetch(`${url}/v1/posts?limit=1`, { headers })).json();
    const results = await (await fetch(`${url}/api/v1/post-results?limit=1`, { headers })).json();
    console.log(`dashboard: ${first.meta.total.toLocaleString('en-US')} posts (${SCHEDULED} scheduled this week), ${results.meta.total.toLocaleString('en-US')} results`);
    for (const path of PAGES) {
      const server = [];
      const wall = [];
      let bytes = 0;
      for (let i = 0; i < 60; i++) {
        const t = process.hrtime.bigint();
        const res = await fetch(url + path, { headers: { accept: 'text/html' } });
        const text = await res.text();
        const ms = Number(process.hrtime.bigint() - t) / 1e6;
        if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
        if (i < 10) continue;
        server.push(Number(/dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? NaN));
        wall.push(ms);
        bytes = text.length;
      }
      const verdict = path === '/' ? (median(server) <= 50 ? '  ✓ ≤ 50 ms' : '  ✗ target ≤ 50 ms') : '';
      console.log(`  ${path.padEnd(46)} server ${median(server).toFixed(2).padStart(7)} ms · round trip ${median(wall).toFixed(2).padStart(7)} ms · ${(bytes / 1024).toFixed(0)} kB${verdict}`);
    }
  } finally {
    await new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', resolve);
      child.kill('SIGINT');
    });
  }
}
