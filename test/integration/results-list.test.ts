// `results list` end to end: the in-process CLI against a sandbox over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli } from '../helpers/run-cli.js';
import { allResults, cliEnv, keyOf, parseNdjson, sandboxFor, schedulePost, type Sandbox } from './results-support.js';
import { dialectEnv } from '../helpers/sandbox.js';
import { DIALECTS } from '../../src/wire/dialects.js';
import type { ManualClock } from '../../src/sandbox/clock.js';
import type { PostResult } from '../../src/wire/schemas.js';

const ids = (rows: PostResult[]) => rows.map((r) => r.id);
const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

function expectNewestFirst(rows: PostResult[]) {
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1]!.created_at;
    const b = rows[i]!.created_at;
    if (a && b) expect(Date.parse(a)).toBeGreaterThanOrEqual(Date.parse(b));
  }
}

describe.each(DIALECTS)('results list against the sandbox, in %s\'s API', (dialect) => {
  const sp = dialect === 'syncpostly';
  let sb: Sandbox & { clock: ManualClock };
  let env: Record<string, string>;
  let oracle: PostResult[];
  /**
   * A row as this dialect can print it: SyncPostly's result rows carry no event time (the sandbox
   * adds ours, which the client must ignore there), and their platform comes from the account:
   * none for a row tied to no account.
   */
  const printable = (rows: PostResult[]): PostResult[] =>
    sp ? rows.map(({ created_at: _t, platform, ...rest }) => (rest.social_account_id === null ? rest : { ...rest, platform }) as PostResult) : rows;

  beforeAll(async () => {
    sb = await sandboxFor({ fixtures: 1200, failureRate: 0.2, seed: 11 });
    env = cliEnv(sb, 'demo', dialectEnv(dialect));
    oracle = await allResults(sb, keyOf(sb, 'demo'));
    expect(oracle).toHaveLength(1200);
  });
  afterAll(async () => {
    await sb?.close();
  });

  it('--all --json: every row once, in the service order, newest first, unchanged', async () => {
    const r = await runCli(['results', 'list', '--all', '--json'], { env });
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as PostResult[];
    expect(ids(rows)).toEqual(ids(oracle));
    expect(rows).toEqual(printable(oracle));
    expectNewestFirst(rows);
  });

  it('several post ids and platforms at once, as the API filters them', async () => {
    // Posts with several targets, so that the platform filter removes some of their rows.
    const byPost = new Map<string, PostResult[]>();
    for (const row of oracle) byPost.set(row.post_id, [...(byPost.get(row.post_id) ?? []), row]);
    const posts = [...byPost.entries()].filter(([, rows]) => rows.length >= 3).slice(0, 6).map(([id]) => id);
    expect(posts.length).toBe(6);
    const ofPosts = oracle.filter((r) => posts.includes(r.post_id));
    const counts = new Map<string, number>();
    for (const r of ofPosts) counts.set(r.platform!, (counts.get(r.platform!) ?? 0) + 1);
    const platforms = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 2).map(([p]) => p);
    const expected = ofPosts.filter((r) => platforms.includes(r.platform!));
    expect(expected.length).toBeGreaterThan(1);
    expect(expected.length).toBeLessThan(ofPosts.length);

    const argv = ['results', 'list', '--all', '-o', 'ndjson', ...posts.flatMap((p) => ['--post', p]), ...platforms.flatMap((p) => ['--platform', p])];
    const r = await runCli(argv, { env });
    expect(r.code).toBe(0);
    const rows = parseNdjson(r.stdout);
    expect(ids(rows)).toEqual(ids(expected));
    expectNewestFirst(rows);

    // The same filters as comma lists, with --failed applied while paging.
    const f = await runCli(['results', 'list', '--json', '--failed', '--post', posts.join(','), '--platform', platforms.join(',')], { env });
    expect(f.code).toBe(0);
    expect(ids(JSON.parse(f.stdout))).toEqual(ids(expected.filter((x) => !x.success)).slice(0, 20));
  });

  it('--failed --limit keeps paging across many pages until it has enough failures', async () => {
    const failures = oracle.filter((r) => !r.success);
    const at150 = oracle.indexOf(failures[149]!);
    expect(at150).toBeGreaterThan(500); // the 150th failure lies beyond five pages
    const r = await runCli(['results', 'list', '--failed', '--limit', '150', '-o', 'ndjson'], { env });
    expect(r.code).toBe(0);
    const rows = parseNdjson(r.stdout);
    expect(ids(rows)).toEqual(ids(failures.slice(0, 150)));
    expect(rows.every((x) => x.success === false && x.error && x.platform_data?.url === null)).toBe(true);

    const all = await runCli(['results', 'list', '--failed', '--all', '-o', 'ndjson', '--concurrency', '3'], { env });
    expect(ids(parseNdjson(all.stdout))).toEqual(ids(failures));
  });

  it('--succeeded with --offset and --limit', async () => {
    const r = await runCli(['results', 'list', '--succeeded', '--offset', '10', '--limit', '5', '--json'], { env });
    expect(r.code).toBe(0);
    expect(ids(JSON.parse(r.stdout))).toEqual(ids(oracle.slice(10).filter((x) => x.success).slice(0, 5)));
  });

  it('--limit above a page: exactly that many rows, in order', async () => {
    const r = await runCli(['results', 'list', '--limit', '250', '--offset', '3', '-o', 'ndjson'], { env });
    expect(r.code).toBe(0);
    expect(parseNdjson(r.stdout)).toEqual(printable(oracle.slice(3, 253)));
  });

  it('piped: TSV, 20 rows by default, seven columns, no footer: only the line saying the list was cut', async () => {
    const r = await runCli(['results', 'list'], { env });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(20);
    lines.forEach((line, i) => {
      const cells = line.split('\t');
      const row = oracle[i]!;
      expect(cells).toHaveLength(7);
      expect(cells[0]).toBe(row.success ? 'success' : 'failure');
      expect(cells[1]).toBe(row.id);
      expect(cells[2]).toBe(row.post_id);
      expect(cells[6]).toBe(row.success ? (row.platform_data?.url ?? '') : `${row.error!.code}: ${row.error!.message}`);
    });
    expect(r.stderr).toBe('20 of 1,200; --all for every row, --offset 20 for the next rows\n');
  });

  it('--account --limit: the account\'s rows, and a cut notice that counts what it counts (SyncPostly filters no accounts: the client does)', async () => {
    const counts = new Map<string, number>();
    for (const r of oracle) if (r.social_account_id) counts.set(r.social_account_id, (counts.get(r.social_account_id) ?? 0) + 1);
    const account = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    const mine = oracle.filter((r) => r.social_account_id === account);
    const r = await runCli(['results', 'list', '--account', account, '--limit', '5', '-o', 'ndjson'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(parseNdjson(r.stdout)).toEqual(printable(mine.slice(0, 5)));
    const n = (x: number) => x.toLocaleString('en-US');
    if (sp) {
      // Every account's rows came and the client kept this one's: "5 of 1,200" would claim 1,200 of them.
      const scanned = oracle.indexOf(mine[4]!) + 1;
      expect(r.stderr).toBe(`5 matching shown, ${n(scanned)} of 1,200 scanned; --all for every row, --offset ${scanned} for the next rows\n`);
    } else expect(r.stderr).toBe(`5 of ${n(mine.length)}; --all for every row, --offset 5 for the next rows\n`);
  });

  it('--account of a platform --platform leaves out: exit 2 naming both flags and the fix, no results read (before any request when the reference names its platform)', async () => {
    const row = oracle.find((x) => x.social_account_id && x.platform)!;
    const other = row.platform === 'bluesky' ? 'linkedin' : 'bluesky';
    const byPrefix = await runCli(['--debug', 'results', 'list', '--account', `${row.platform}:@someone`, '--platform', other], { env });
    expect(byPrefix.code, byPrefix.stderr).toBe(2);
    expect(byPrefix.stderr).toContain(`--account: ${row.platform}:@someone is an account of ${row.platform}, which --platform ${other} leaves out`);
    expect(byPrefix.stderr).toContain(`add the platform (--platform ${other},${row.platform}) or drop --account ${row.platform}:@someone`);
    expect(byPrefix.stderr).not.toMatch(/\bGET\b/);
    expect(byPrefix.stdout).toBe('');
    // By id, the accounts lookup tells its platform; the results are still never read.
    for (const argv of [['results', 'list'], ['results', 'stats', '--by', 'platform']]) {
      const byId = await runCli(['--debug', ...argv, '--account', row.social_account_id!, '--platform', other], { env });
      expect(byId.code, byId.stderr).toBe(2);
      expect(byId.stderr).toContain(`is an account of ${row.platform}, which --platform ${other} leaves out`);
      expect(byId.stderr).not.toMatch(/GET \S*results/);
      expect(byId.stdout).toBe('');
    }
    // The look for GET is not empty-handed: --debug traces every request.
    const fine = await runCli(['--debug', 'results', 'list', '--account', row.social_account_id!, '--platform', row.platform!, '--limit', '1'], { env });
    expect(fine.code, fine.stderr).toBe(0);
    expect(fine.stderr).toMatch(/GET \S*results/);
  });

  it('on a terminal: a table with ✓/✗ and @username, and the footer on stderr', async () => {
    const r = await runCli(['results', 'list'], { env, tty: true });
    expect(r.code).toBe(0);
    const lines = plain(r.stdout).trimEnd().split('\n');
    expect(lines).toHaveLength(21);
    // At 120 columns the live URLs are shown whole (copyable): the optional post id, account and
    // time give way for them, least useful first.
    expect(lines[0]).toMatch(/ID\s+PLATFORM\s+(.*\s+)?URL \/ ERROR/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(120);
    for (const row of oracle.slice(0, 20)) if (row.success && row.platform_data?.url) expect(plain(r.stdout)).toContain(row.platform_data.url);
    const first = oracle[0]!;
    expect(lines[1]).toContain(first.success ? '✓' : '✗');
    expect(lines[1]).toContain(first.id);
    const failed = oracle.slice(0, 20).filter((x) => !x.success).length;
    const failedText = failed === 0 ? 'none failed' : `${failed} failed`;
    expect(plain(r.stderr)).toContain(`showing 1–20 of 1,200 · ${failedText} on this page · next: --offset 20`);
    // A row whose account could not be tied (social_account_id null) still prints.
    const sparse = oracle.findIndex((x) => x.social_account_id === null);
    expect(sparse).toBeGreaterThanOrEqual(0);
    const s = await runCli(['results', 'list', '--offset', String(sparse), '--limit', '1'], { env, tty: true });
    expect(s.code).toBe(0);
    expect(s.stdout).toContain(oracle[sparse]!.id);
  });

  it('an offset past the end prints nothing and succeeds', async () => {
    const r = await runCli(['results', 'list', '--offset', '5000', '--json'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });
});

describe('results list --all while new results arrive', () => {
  let sb: Sandbox & { clock: ManualClock };
  afterAll(async () => {
    await sb?.close();
  });

  it('prints every row that existed when it started exactly once, none skipped', async () => {
    sb = await sandboxFor({ fixtures: 2000, failureRate: 0.2, seed: 23 });
    const key = keyOf(sb, 'demo');
    // Posts falling due one a minute; each page request below moves the clock a minute on.
    for (let i = 1; i <= 60; i++) await schedulePost(sb, key, ['twitter-x', 'linkedin', 'bluesky'], i * 60_000);
    const before = await allResults(sb, key);
    expect(before).toHaveLength(2000);

    // Every request for a page first lets new results publish, then goes out after a random
    // real delay of a few ms, so pages are answered out of order while the head of the list grows.
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let pageRequests = 0;
    const proxy = await delayingProxy(sb.url, (req, forward) => {
      if (!req.url!.startsWith('/api/v1/post-results')) return forward();
      pageRequests++;
      setTimeout(() => void sb.clock.advance(60_000).then(forward), Math.floor(random() * 6));
    });
    try {
      const r = await runCli(['results', 'list', '--all', '-o', 'ndjson', '--concurrency', '4'], { env: cliEnv(sb, 'demo', { SOCIALPUB_BASE_URL: proxy.url }) });
      expect(r.code).toBe(0);
      const out = ids(parseNdjson(r.stdout));
      const after = await allResults(sb, key);
      expect(after.length).toBeGreaterThan(before.length + 30); // results really arrived meanwhile
      expect(pageRequests).toBeGreaterThanOrEqual(20);
      // Rows did shift under the reader: some pages were asked for at shifted offsets.
      const offsets = sb.requests.filter((q) => q.path === '/api/v1/post-results').map((q) => Number(new URLSearchParams(q.query).get('offset')));
      expect(offsets.some((o) => o % 100 !== 0)).toBe(true);
      expect(new Set(out).size).toBe(out.length); // no row twice
      const printed = new Set(out);
      const missing = ids(before).filter((id) => !printed.has(id));
      expect(missing).toEqual([]);
      // In the order of the final list (which contains the pre-existing rows in their order).
      const rank = new Map(ids(after).map((id, i) => [id, i]));
      const ranks = out.map((id) => rank.get(id)!);
      expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    } finally {
      await proxy.close();
    }
  });
});

/**
 * A proxy on 127.0.0.1 in front of `target`: `hold` decides when each request goes on to the
 * target (at once, or later), so the CLI's real transport sees answers come back out of order.
 */
async function delayingProxy(target: string, hold: (req: IncomingMessage, forward: () => void) => void) {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    hold(req, () => {
      const upstream = request(new URL(req.url!, target), { method: req.method, headers: req.headers, agent: false }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
