// The command line in SyncPostly's dialect (contract 7.5) against the real sandbox: what the
// dialect cannot carry is refused before any request (the sandbox sees nothing), naming SyncPostly
// and the fix; the same flags in socialpub's own API still go through.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEnv, testSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runCli } from '../helpers/run-cli.js';
import { SP_DRY_RUN_NOTE } from '../../src/cli/commands/posts/dry-run.js';

let sb: TestSandbox;
let dir: string;
beforeAll(async () => {
  sb = await testSandbox();
  dir = mkdtempSync(join(tmpdir(), 'socialpub-sp-'));
  writeFileSync(join(dir, 'titled.csv'), 'at,platforms,text,title\n2026-12-02T09:00:00Z,bluesky,hello,A title\n');
  writeFileSync(join(dir, 'titled.json'), JSON.stringify({ payloads: { bluesky: { text: 'hello' } }, title: 'A title' }));
  writeFileSync(join(dir, 'secret.txt'), 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
});
afterAll(() => sb.close());
beforeEach(() => {
  sb.requests.length = 0;
});

const syncpostly = (argv: string[]) => runCli([...argv, '--max-retries', '0'], { env: cliEnv(sb, 'demo', { SOCIALPUB_API: 'syncpostly' }), clock: { now: () => sb.clock.now(), sleep: async () => {} } });

// Each: the command, and the field the refusal names.
const REFUSED: Array<[string, string[], string]> = [
  ['posts create --title', ['posts', 'create', '--platform', 'bluesky', '--text', 'hi', '--title', 'T'], '--title'],
  ['posts create --title --dry-run', ['posts', 'create', '--platform', 'bluesky', '--text', 'hi', '--title', 'T', '--dry-run'], '--title'],
  ['posts create --file with a title', ['posts', 'create', '--file', 'DIR/titled.json'], 'title'],
  ['posts create --idempotency-key', ['posts', 'create', '--platform', 'bluesky', '--text', 'hi', '--idempotency-key', 'release-1'], '--idempotency-key'],
  ['posts schedule --title', ['posts', 'schedule', '--platform', 'bluesky', '--text', 'hi', '--at', '+1d', '--title', 'T'], '--title'],
  ['posts schedule --from-file with a title column', ['posts', 'schedule', '--from-file', 'DIR/titled.csv'], 'line 2: title'],
  ['posts edit --title', ['posts', 'edit', 'post_abc123', '--title', 'T', '--yes'], '--title'],
  ['posts delete --idempotency-key', ['posts', 'delete', 'post_abc123', '--yes', '--idempotency-key', 'k1'], '--idempotency-key'],
  ['results list --since', ['results', 'list', '--since', '24h'], '--since'],
  ['results list --until', ['results', 'list', '--until', '2026-11-30'], '--until'],
  ['results stats --by day', ['results', 'stats', '--by', 'day'], '--by day'],
  ['results stats --since', ['results', 'stats', '--since', '7d'], '--since'],
  ['results retry --idempotency-key', ['results', 'retry', 'post_abc123', '--idempotency-key', 'k2'], '--idempotency-key'],
  ['results wait --listen-port', ['results', 'wait', '--post', 'post_abc123', '--listen-port', '0'], '--listen-port'],
  ['listen with a secret', ['listen', '--port', '0', '--secret-file', 'DIR/secret.txt', '--max-events', '1'], '--secret-file'],
];

describe('what SyncPostly cannot carry is refused before any request', () => {
  it.each(REFUSED)('%s: exit 2 naming SyncPostly and the fix; the sandbox saw nothing', async (_name, argv, field) => {
    const r = await syncpostly(argv.map((a) => a.replace('DIR', dir)));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${field}`);
    expect(r.stderr).toMatch(/SyncPostly('s)? (API has no post title|result rows carry no event time|documents no webhooks|API documents no idempotency key)/);
    expect(r.stderr).toContain("this profile speaks SyncPostly's API");
    expect(r.stdout).toBe('');
    expect(sb.requests).toEqual([]);
  });

  it('listen without a secret runs its unverified mode and says what it does instead of advising a secret', async () => {
    const r = await syncpostly(['listen', '--port', '0', '--timeout', '1ms']);
    expect(r.stderr).toContain("SyncPostly documents no webhooks: this prints deliveries in socialpub's format (the local sandbox sends them), NOT authenticated");
    expect(r.stderr).not.toContain('Set SOCIALPUB_WEBHOOK_SECRET');
    expect(sb.requests).toEqual([]);
  });

  it('a dry run says its requests are socialpub\'s, sent translated to SyncPostly\'s API; nothing is sent', async () => {
    const r = await syncpostly(['posts', 'create', '--platform', 'bluesky', '--text', 'hi', '--dry-run', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.notes).toContain(SP_DRY_RUN_NOTE);
    expect(report.requests[0]).toMatchObject({ method: 'POST', path: '/v1/posts' });
    expect(sb.requests).toEqual([]);
  });

  it('YouTube\'s need of a title is not required where the API has none (SyncPostly decides it)', async () => {
    const argv = ['posts', 'create', '--platform', 'youtube', '--text', 'A video', '--dry-run'];
    const ours = await runCli(argv, { env: cliEnv(sb) });
    expect(ours.code).toBe(2);
    expect(ours.stderr).toContain('--title: YouTube needs a title');
    const theirs = await syncpostly(argv);
    expect(theirs.stderr).not.toContain('needs a title');
  });

  it('posts list --status processing asks SyncPostly for its own status; socialpub\'s API has no such status', async () => {
    const r = await syncpostly(['posts', 'list', '--status', 'processing,draft', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const list = sb.requests.find((q) => q.path === '/api/v1/posts')!;
    expect(new URLSearchParams(list.query).getAll('status').sort()).toEqual(['draft', 'processing']);
    const ours = await runCli(['posts', 'list', '--status', 'processing'], { env: cliEnv(sb) });
    expect(ours.code).toBe(2);
    expect(ours.stderr).toContain('"processing" is not a post status');
  });

  it('in socialpub\'s own API the same flags are sent (accounts list --status, results list --since)', async () => {
    const env = cliEnv(sb);
    const accounts = await runCli(['accounts', 'list', '--status', 'connected', '--json'], { env });
    expect(accounts.code, accounts.stderr).toBe(0);
    const results = await runCli(['results', 'list', '--since', '24h', '--json'], { env, clock: { now: () => sb.clock.now(), sleep: async () => {} } });
    expect(results.code, results.stderr).toBe(0);
    expect(sb.requests.length).toBeGreaterThan(0);
  });
});

describe('results retry in SyncPostly\'s API', () => {
  let fx: TestSandbox;
  beforeAll(async () => {
    fx = await testSandbox({ fixtures: 60, failureRate: 0.5 });
  });
  afterAll(() => fx.close());

  const failedPost = async () =>
    ((await (await fetch(new URL('/v1/posts?status=failed&limit=1', fx.url), { headers: { authorization: `Bearer ${fx.key('demo')}` } })).json()) as { data: Array<{ id: string }> }).data[0]!.id;
  const env = () => cliEnv(fx, 'demo', { SOCIALPUB_API: 'syncpostly' });

  it('results wait on a post with failed targets: exit 7, no account status asked for (SyncPostly has none)', async () => {
    const r = await runCli(['results', 'wait', '--post', await failedPost()], { env: env() });
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).not.toContain('no status');
  });

  it('results list and wait on a narrow terminal leave out WHEN, which no row fills here: its room goes to the outcome', async () => {
    const id = await failedPost();
    for (const argv of [['results', 'list', '--limit', '5'], ['results', 'wait', '--post', id]]) {
      const timeless = await runCli([...argv, '--no-pager'], { env: { ...env(), NO_COLOR: '1' }, tty: true, columns: 60 });
      expect([0, 7], timeless.stderr).toContain(timeless.code);
      const [header, ...rows] = timeless.stdout.trimEnd().split('\n');
      expect(header, timeless.stdout).toMatch(/\bPLATFORM\b/);
      expect(header).not.toContain('WHEN');
      expect(rows.some((l) => /\s—\s/.test(l))).toBe(false);
    }
    // In socialpub's API the rows have their time, and keep the column.
    const own = await runCli(['results', 'list', '--limit', '5', '--no-pager'], { env: { ...cliEnv(fx, 'demo'), NO_COLOR: '1' }, tty: true, columns: 60 });
    expect(own.stdout.split('\n')[0]).toContain('WHEN');
  });

  it('posts view of a partly failed post says how many of its platforms went out, as in socialpub\'s API (where the service says it)', async () => {
    const id = await failedPost();
    const ours = await runCli(['posts', 'view', id], { env: { ...cliEnv(fx, 'demo'), NO_COLOR: '1' } });
    const theirs = await runCli(['posts', 'view', id], { env: { ...env(), NO_COLOR: '1' } });
    expect(ours.code, ours.stderr).toBe(0);
    expect(theirs.code, theirs.stderr).toBe(0);
    const head = ours.stdout.split('\n')[0]!;
    expect(head).toMatch(new RegExp(`^${id}  failed · \\d+/\\d+ published$`));
    expect(theirs.stdout.split('\n')[0]).toBe(head);
  });

  it('says before sending that a second run would send the targets again as another post', async () => {
    const id = await failedPost();
    const r = await runCli(['results', 'retry', id, '--json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("SyncPostly's API takes no idempotency key: running this retry again sends these targets again as another post");
    expect(JSON.parse(r.stdout).status).toBe('draft');
  });
});

describe('a platform of many accounts and no default, in SyncPostly\'s API', () => {
  let many: TestSandbox;
  beforeAll(async () => {
    many = await testSandbox({ accounts: 200, seed: 5 });
  });
  afterAll(() => many.close());

  it('the refusal names a dozen of them and how many more, not every one', async () => {
    const env = cliEnv(many, 'demo', { SOCIALPUB_API: 'syncpostly' });
    const listed = JSON.parse((await runCli(['accounts', 'list', '--platform', 'bluesky', '--json'], { env })).stdout) as unknown[];
    expect(listed.length).toBeGreaterThan(15);
    many.requests.length = 0;
    const r = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'hi'], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`bluesky has ${listed.length} accounts on SyncPostly and its API names no default`);
    const more = `… (${listed.length - 12} more: socialpub accounts list --platform bluesky)`;
    // The message and the hint of --account values: each a dozen, then how many more.
    const lists = r.stderr.split('\n').filter((l) => (l.match(/acc_\w+|--account bluesky:@/g) ?? []).length > 1);
    expect(lists).toHaveLength(2);
    for (const line of lists) {
      expect(line.match(/acc_\w+|--account bluesky:@/g)!.length, line).toBe(12);
      expect(line).toContain(more);
    }
    expect(many.requests.filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('a bulk row of that platform without an account column: its fix names a dozen and how many more', async () => {
    const env = cliEnv(many, 'demo', { SOCIALPUB_API: 'syncpostly' });
    const folder = mkdtempSync(join(tmpdir(), 'sp-many-'));
    try {
      const csv = join(folder, 'rows.csv');
      writeFileSync(csv, `at,platforms,text\n2099-01-01T09:00:00Z,bluesky,hi\n`);
      many.requests.length = 0;
      const r = await runCli(['posts', 'schedule', '--from-file', csv], { env });
      expect(r.code, r.stderr).toBe(2);
      const fix = r.stderr.split('\n').find((l) => l.includes("fill the row's account column with one of:"))!;
      expect(fix.match(/acc_\w+/g)).toHaveLength(12);
      expect(fix).toMatch(/, … \(\d+ more: socialpub accounts list --platform bluesky\)/);
      expect(many.requests.filter((q) => q.method !== 'GET')).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('a bulk run resumed after a kill in SyncPostly\'s API', () => {
  it('a row sent by the killed run but not journaled as done is looked for before it is sent again: no second post', async () => {
    const bulk = await testSandbox();
    try {
      const dir2 = mkdtempSync(join(tmpdir(), 'socialpub-sp-bulk-'));
      const file = join(dir2, 'rows.csv');
      writeFileSync(file, 'at,platforms,text\n2030-01-02T09:00:00Z,bluesky,Resumed row one\n2030-01-02T10:00:00Z,bluesky,Resumed row two\n');
      const env = cliEnv(bulk, 'demo', { SOCIALPUB_API: 'syncpostly' });
      const configDir = join(dir2, 'config');
      const first = await runCli(['posts', 'schedule', '--from-file', file], { env, configDir });
      expect(first.code, first.stderr).toBe(0);
      // As if killed after the service made the posts and before either was journaled as done.
      for (const folder of ['journals', 'bulk-done']) {
        for (const name of readdirSync(join(configDir, folder))) {
          const path = join(configDir, folder, name);
          writeFileSync(path, readFileSync(path, 'utf8').split('\n').filter((l) => !l.includes('"t":"done"')).join('\n'));
        }
      }
      bulk.requests.length = 0;
      const again = await runCli(['posts', 'schedule', '--from-file', file], { env, configDir });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toMatch(/2 rows in \S*rows\.csv: 0 created, 2 already done/);
      expect(bulk.requests.filter((q) => q.method === 'POST')).toEqual([]);
      const posts = (await (await fetch(new URL('/api/v1/posts?limit=100', bulk.url), { headers: { authorization: `Bearer ${bulk.key('demo')}` } })).json()) as { data: Array<{ caption: string }> };
      expect(posts.data.filter((p) => p.caption.startsWith('Resumed row')).map((p) => p.caption).sort()).toEqual(['Resumed row one', 'Resumed row two']);
    } finally {
      await bulk.close();
    }
  });
});
