// posts view and posts queue, whole-process figures for the built binary:
//   - `posts view ID` (GET the post, its results) against a bare node:http GET of the same post,
//     with TZ=UTC and with TZ unset (a machine whose /etc/localtime names its zone)
//   - `posts queue` over 10,000 scheduled posts (default window: the next 7 days, every post in
//     it) against `posts list --status scheduled --all -o ndjson` over the same posts, and the
//     queue's peak RSS at 2,500 and at 10,000 posts (the queue keeps at most 2,000: flat memory)
// Run: npm run build && node test/bench/manage.bench.mjs  (or `npm run bench manage`)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT, benchEnv, compare, report } from './lib.mjs';

const node = process.execPath;

async function schedule(sb, key, count, from) {
  const texts = ['Launch day 🚀 with emoji and a link https://example.com/launch', '日本語のテキストも混ざっています', 'A plain text of ordinary length for the queue'];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const body = { payloads: { bluesky: { text: texts[i % 3] }, linkedin: { text: texts[(i + 1) % 3] } }, scheduledAt: new Date(from + 3_600_000 + (i % 5000) * 60_000).toISOString() };
      const res = await fetch(`${sb.url}/v1/schedule`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (res.status !== 201) throw new Error(`schedule: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

export async function run({ runs = 11 } = {}) {
  const { startSandbox } = await import(join(ROOT, 'dist', 'sandbox', 'index.cjs'));
  const sb = await startSandbox({ port: 0, seed: 7, fixtures: 1000, writeLimit: 1_000_000_000, readLimit: 1_000_000_000 });
  const tmp = mkdtempSync(join(tmpdir(), 'socialpub-bench-manage-'));
  try {
    console.log(`load average before: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (${(await import('node:os')).cpus().length} cores)`);
    const demo = sb.workspaces.find((w) => w.name === 'demo');
    const env = benchEnv({ SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: demo.apiKey, SOCIALPUB_CONFIG_DIR: join(tmp, 'cfg'), NO_COLOR: '1', TZ: 'UTC' });

    const failed = await fetch(`${sb.url}/v1/posts?status=failed&limit=1`, { headers: { authorization: `Bearer ${demo.apiKey}` } }).then((r) => r.json());
    const id = failed.data[0].id;
    const httpScript = join(tmp, 'get-http.mjs');
    writeFileSync(
      httpScript,
      `import { get } from 'node:http';\nget(process.env.SOCIALPUB_BASE_URL + '/v1/posts/' + encodeURIComponent(process.argv[2]), { headers: { authorization: 'Bearer ' + process.env.SOCIALPUB_API_KEY } }, (res) => { let b = ''; res.setEncoding('utf8'); res.on('data', (c) => (b += c)); res.on('end', () => process.stdout.write(b + '\\n')); });\n`,
    );
    report(await compare({ name: 'posts view ID vs a bare node:http GET of the post', subject: { cmd: node, args: [BIN, 'posts', 'view', id], options: { env } }, baseline: { cmd: node, args: [httpScript, id], options: { env } }, runs }), 1.6);
    report(await compare({ name: 'posts view ID --json vs a bare node:http GET of the post', subject: { cmd: node, args: [BIN, 'posts', 'view', id, '--json'], options: { env } }, baseline: { cmd: node, args: [httpScript, id], options: { env } }, runs }), 1.6);
    // As most CI runners and servers run it: no TZ, /etc/localtime linked to UTC (where it is).
    const noTz = { ...env };
    delete noTz.TZ;
    report(await compare({ name: 'posts view ID, TZ unset vs a bare node:http GET of the post', subject: { cmd: node, args: [BIN, 'posts', 'view', id], options: { env: noTz } }, baseline: { cmd: node, args: [httpScript, id], options: { env: noTz } }, runs }), 1.6);

    const now = Date.now();
    await schedule(sb, demo.apiKey, 2500, now);
    const list = { cmd: node, args: [BIN, 'posts', 'list', '--status', 'scheduled', '--all', '-o', 'ndjson'], options: { env } };
    const queue = { cmd: node, args: [BIN, 'posts', 'queue'], options: { env } };
    const small = report(await compare({ name: 'posts queue (2,500 scheduled) vs posts list --status scheduled --all -o ndjson', subject: queue, baseline: list, runs: 5, warmup: 1 }), 1.2);
    await schedule(sb, demo.apiKey, 7500, now);
    const large = report(await compare({ name: 'posts queue (10,000 scheduled) vs posts list --status scheduled --all -o ndjson', subject: queue, baseline: list, runs: 5, warmup: 1 }), 1.2);
    console.log(`queue peak RSS: ${small.subjectPeakMiB?.toFixed(1)} MiB at 2,500 posts, ${large.subjectPeakMiB?.toFixed(1)} MiB at 10,000 (bounded: at most 2,000 kept)`);
    console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    await sb.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
