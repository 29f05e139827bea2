// Networked overhead: `socialpub results get ID` against a local sandbox vs a minimal Node script that does the
// same authenticated GET with fetch and prints the body.
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, compare, report } from './lib.mjs';
import { startSandboxChild } from './sandbox-child.mjs';

export async function run({ runs = 15 } = {}) {
  const sb = await startSandboxChild(['--fixtures', '1000', '--seed', '7']);
  try {
    const page = await fetch(`${sb.baseUrl}/api/v1/post-results?limit=1`, { headers: { authorization: `Bearer ${sb.apiKey}` } }).then((r) => r.json());
    const id = page.data[0].id;
    const dir = mkdtempSync(join(tmpdir(), 'bench-p2-'));
    const script = join(dir, 'get.mjs');
    writeFileSync(
      script,
      `const r = await fetch(process.env.SOCIALPUB_BASE_URL + '/api/v1/post-results/' + encodeURIComponent(process.argv[2]), { headers: { authorization: 'Bearer ' + process.env.SOCIALPUB_API_KEY } });\nprocess.stdout.write(await r.text() + '\\n');\n`,
    );
    // A second baseline without fetch: Node 20's fetch spends ~120 ms compiling its undici on
    // first use, which the fetch script pays and socialpub (node:http) does not.
    const httpScript = join(dir, 'get-http.mjs');
    writeFileSync(
      httpScript,
      `import { get } from 'node:http';\nget(process.env.SOCIALPUB_BASE_URL + '/api/v1/post-results/' + encodeURIComponent(process.argv[2]), { headers: { authorization: 'Bearer ' + process.env.SOCIALPUB_API_KEY } }, (res) => { let b = ''; res.setEncoding('utf8'); res.on('data', (c) => (b += c)); res.on('end', () => process.stdout.write(b + '\\n')); });\n`,
    );
    const env = sb.env();
    const node = process.execPath;
    report(
      await compare({
        name: 'overhead: socialpub results get ID vs minimal fetch script',
        subject: { cmd: node, args: [BIN, 'results', 'get', id], options: { env } },
        baseline: { cmd: node, args: [script, id], options: { env } },
        runs,
      }),
      1.3,
    );
    report(
      await compare({
        name: 'overhead (--json): socialpub results get ID --json vs minimal fetch script',
        subject: { cmd: node, args: [BIN, 'results', 'get', id, '--json'], options: { env } },
        baseline: { cmd: node, args: [script, id], options: { env } },
        runs,
      }),
      1.3,
    );
    report(
      await compare({
        name: 'overhead (reference): socialpub results get ID vs minimal node:http script',
        subject: { cmd: node, args: [BIN, 'results', 'get', id], options: { env } },
        baseline: { cmd: node, args: [httpScript, id], options: { env } },
        runs,
      }),
      // The start-up target for the one networked path: ≤ 1.6× a bare node:http GET.
      1.6,
    );
  } finally {
    await sb.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
