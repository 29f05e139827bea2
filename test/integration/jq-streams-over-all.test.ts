// --jq over `results list --all` streams where the program allows it: -o ndjson --jq, and --json
// --jq with a program that starts with `.[]`. A proxy in front of the sandbox holds the last page
// until the first row has reached stdout, so a command that held every row would never print
// (the test then times out); the output is the same as the whole-list path's.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { testSandbox, cliEnv, ROOMY_LIMITS, type TestSandbox } from '../helpers/sandbox.js';

const ROWS = 250;
let sb: TestSandbox;
beforeAll(async () => {
  sb = await testSandbox({ fixtures: ROWS, failureRate: 0.3, ...ROOMY_LIMITS });
});
afterAll(async () => {
  await sb?.close();
});

interface HeldLastPage {
  url: string;
  /** Result pages answered so far. */
  answered(): number;
  /** Lets the held page through. */
  release(): void;
  close(): Promise<void>;
}

/** Forwards to the sandbox; the page of results at `offset` waits for release(). */
async function holdingPage(offset: number): Promise<HeldLastPage> {
  const upstream = new URL(sb.url);
  let answered = 0;
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const page = url.pathname === '/api/v1/post-results';
    const forward = () => {
      const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
        up.on('end', () => {
          if (page) answered++;
        });
      });
      req.pipe(out);
    };
    if (page && url.searchParams.get('offset') === String(offset)) void released.then(forward);
    else forward();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answered: () => answered,
    release,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** Runs the command through the proxy; when the first row reaches stdout, notes the pages answered and releases the last one. */
async function streamed(args: string[]): Promise<{ stdout: string; stderr: string; code: number; pagesAtFirstRow: number }> {
  const proxy = await holdingPage(200);
  let pagesAtFirstRow = -1;
  try {
    const r = await runCli(['results', 'list', '--all', ...args], {
      env: cliEnv(sb, 'demo', { SOCIALPUB_BASE_URL: proxy.url }),
      onStdout: () => {
        if (pagesAtFirstRow >= 0) return;
        pagesAtFirstRow = proxy.answered();
        proxy.release();
      },
    });
    return { ...r, pagesAtFirstRow };
  } finally {
    proxy.release();
    await proxy.close();
  }
}

describe('--jq over --all writes rows before the last page is read', () => {
  it('--json --jq ".[] | …": rows out while the last page is held, the same lines as the whole-list run', async () => {
    const program = '.[] | select(.success | not) | [.id, .error.code] | @tsv';
    const s = await streamed(['--json', '--jq', program]);
    expect(s.code, s.stderr).toBe(0);
    // The page at offset 200 (the last of three) was still held.
    expect(s.pagesAtFirstRow).toBeGreaterThanOrEqual(1);
    expect(s.pagesAtFirstRow).toBeLessThan(3);
    expect(s.stderr).not.toContain('held in memory');
    // The same program in parentheses is a whole-list one: every row held, one jq run.
    const whole = await runCli(['results', 'list', '--all', '--json', '--jq', `(${program})`], { env: cliEnv(sb) });
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stderr).toContain('held in memory');
    expect(s.stdout).toBe(whole.stdout);
    expect(s.stdout.trim().split('\n').length).toBeGreaterThan(30);
  });

  it('-o ndjson --jq: rows out while the last page is held, the same lines as --json --jq over the whole list', async () => {
    const s = await streamed(['-o', 'ndjson', '--jq', '{id, code: .error.code}']);
    expect(s.code, s.stderr).toBe(0);
    expect(s.pagesAtFirstRow).toBeGreaterThanOrEqual(1);
    expect(s.pagesAtFirstRow).toBeLessThan(3);
    const whole = await runCli(['results', 'list', '--all', '--json', '--jq', 'map({id, code: .error.code}) | .[]'], { env: cliEnv(sb) });
    expect(whole.code, whole.stderr).toBe(0);
    expect(s.stdout).toBe(whole.stdout);
    expect(s.stdout.trim().split('\n')).toHaveLength(ROWS);
  });
});
