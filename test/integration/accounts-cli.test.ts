// `accounts list` and `accounts view` in-process against the sandbox over HTTP: every account with
// its status, default and health from recent results (checked against the results themselves),
// one account by id, @handle and platform:@handle, and unknown (exit 4) or ambiguous (exit 2)
// handles refused with the candidates, before any request past the accounts lookup. In both dialects: the
// sandbox serves SyncPostly's accounts too, which carry no status, default or token expiry. In a
// workspace of 50 accounts, the command and list_accounts say how many accounts the window told nothing of.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv, dialectEnv, ROOMY_LIMITS, testSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { allRows, as } from './sandbox-support.js';
import { DIALECTS } from '../../src/wire/dialects.js';
import { PATHS } from '../../src/wire/protocol.js';
import { HEALTH_WINDOW } from '../../src/accounts/health.js';
import { callTool, sandboxToolContext } from '../helpers/mcp-context.js';
import { SP_PATHS } from '../../src/wire/syncpostly/assumptions.js';

interface Row {
  id: string;
  platform: string;
  username: string;
  status: string;
  isDefault: boolean;
  health: { lastSuccess: { at: string; resultId: string } | null; lastFailure: { at: string; code: string; resultId: string } | null };
}

let sb: TestSandbox;
let expiredId: string;

beforeAll(async () => {
  sb = await testSandbox({ fixtures: 2_000, failureRate: 0.3, seed: 21, readLimit: 1_000_000, writeLimit: 100_000 });
  const demo = as(sb, 'demo');
  const accounts = (await allRows<Row>(sb, demo.key, '/v1/social-accounts')).rows;
  expiredId = accounts.find((a) => a.status === 'expired')!.id;
  // A live publish to the expired account: its last failure is TOKEN_EXPIRED, newer than any fixture.
  await demo.post('/v1/schedule', { payloads: { 'twitter-x': { text: 'To the help desk account', accounts: [expiredId] } }, scheduledAt: new Date(sb.clock.now() + 60_000).toISOString() });
  await sb.clock.advance(61_000);
});
afterAll(() => sb.close());

describe.each(DIALECTS)('in %s\'s API', (dialect) => {
  const sp = dialect === 'syncpostly';
  const cli = (args: string[]) => runCli(args, { env: cliEnv(sb, 'demo', dialectEnv(dialect)) });

  describe('accounts list', () => {
    it('prints every account with status, default and the last outcomes of its newest results', async () => {
      const r = await cli(['accounts', 'list', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const rows = JSON.parse(r.stdout) as Row[];
      expect(rows.length).toBe(12);
      const expired = rows.find((a) => a.id === expiredId)!;
      // SyncPostly's accounts carry no default or token expiry: the fields are empty there.
      if (sp) expect(rows.every((a) => a.isDefault === null && (a as { tokenExpiresAt?: unknown }).tokenExpiresAt === null)).toBe(true);
      // Nor a status: there the newest result (TOKEN_EXPIRED) tells it (accounts-status.test.ts).
      expect(expired.status).toBe('expired');
      expect(expired.health.lastFailure?.code).toBe('TOKEN_EXPIRED');
      // Each account's last success is its newest successful row in the window: the newest page of results.
      const window = (await allRows<{ id: string; success: boolean; social_account_id: string }>(sb, sb.key('demo'), '/api/v1/post-results')).rows.slice(0, HEALTH_WINDOW);
      for (const a of rows) {
        expect(a.health.lastSuccess?.resultId ?? null).toBe(window.find((x) => x.success && x.social_account_id === a.id)?.id ?? null);
      }
      expect(rows.filter((a) => a.health.lastSuccess).length).toBeGreaterThan(6);
    });

    it('filters by status and platform, and says which accounts need reconnecting on a table', async () => {
      // SyncPostly's accounts have no status: --status is refused there (syncpostly-cli.test.ts).
      if (!sp) {
        const r = await cli(['accounts', 'list', '--status', 'expired', '-o', 'tsv']);
        expect(r.code, r.stderr).toBe(0);
        const lines = r.stdout.trim().split('\n');
        expect(lines.length).toBe(1);
        expect(lines[0]).toContain(expiredId);
        expect(lines[0]).toContain('TOKEN_EXPIRED');
        expect(r.stderr).toContain('1 account needs reconnecting');
      }
      const li = JSON.parse((await cli(['accounts', 'list', '--platform', 'linkedin', '--json'])).stdout) as Row[];
      expect(li.map((a) => a.platform)).toEqual(['linkedin', 'linkedin']);
      // ... nor a default.
      expect(li.filter((a) => a.isDefault).length).toBe(sp ? 0 : 1);
    });

    it('on a terminal an account with a success among the recent results says so, with or without its time', async () => {
      const accounts = JSON.parse((await cli(['accounts', 'list', '--json'])).stdout) as Row[];
      const ok = accounts.find((a) => a.health.lastSuccess)!;
      const r = await runCli(['accounts', 'list', '--no-pager'], { env: cliEnv(sb, 'demo', dialectEnv(dialect)), tty: true, columns: 200 });
      expect(r.code, r.stderr).toBe(0);
      const line = r.stdout.split('\n').find((l) => l.includes(`@${ok.username} `))!;
      // SyncPostly's rows have no time and its accounts no default (whose column also says ✓).
      expect(line).toMatch(sp ? /✓/ : /\d+ (?:second|minute|hour|day)s?/);
    });

    it('shows which account is the default at 60, 80 and 120 columns, and TSV keeps its own column', async () => {
      const accounts = JSON.parse((await cli(['accounts', 'list', '--json'])).stdout) as Row[];
      const linkedin = accounts.filter((a) => a.platform === 'linkedin');
      expect(linkedin.length).toBe(2);
      const term = (columns: number) => runCli(['accounts', 'list', '--no-pager'], { env: cliEnv(sb, 'demo', { ...dialectEnv(dialect), NO_COLOR: '1' }), tty: true, columns });
      const row = (stdout: string, a: Row) => stdout.split('\n').find((l) => new RegExp(`^linkedin\\s+@${a.username}(?: ✓)?\\s`).test(l))!;
      for (const columns of [60, 80, 120]) {
        const r = await term(columns);
        expect(r.code, r.stderr).toBe(0);
        const lines = r.stdout.trimEnd().split('\n');
        for (const line of lines) expect([...line].length).toBeLessThanOrEqual(columns);
        const [def, other] = [linkedin.find((a) => a.isDefault === true), linkedin.find((a) => a.isDefault !== true)!];
        if (sp) {
          // SyncPostly's accounts say nothing of a default: no ✓ anywhere, no legend.
          expect(r.stdout).not.toContain('✓ DEFAULT');
          continue;
        }
        if (columns < 120) {
          // No room for DEFAULT: its ✓ follows the default's handle, and the header says what it means.
          expect(lines[0]).toMatch(/^PLATFORM\s+HANDLE \(✓ DEFAULT\)\s+STATUS/);
          expect(lines[0]).not.toMatch(/\bDEFAULT\s/);
          expect(row(r.stdout, def!)).toContain(`@${def!.username} ✓ `);
          expect(row(r.stdout, other)).not.toContain('✓');
        } else {
          expect(lines[0]).toMatch(/^PLATFORM\s+HANDLE\s+STATUS\s+DEFAULT\s/);
          expect(row(r.stdout, def!)).toMatch(new RegExp(`@${def!.username}\\s+connected\\s+✓`));
          expect(row(r.stdout, other)).not.toContain('✓');
        }
      }
      // TSV: the same columns whatever the terminal, the handle without a mark.
      const tsv = (await runCli(['accounts', 'list', '--platform', 'linkedin', '-o', 'tsv'], { env: cliEnv(sb, 'demo', dialectEnv(dialect)), tty: true, columns: 60 })).stdout;
      for (const line of tsv.trim().split('\n')) expect(line.split('\t')[2]).toMatch(/^[^✓\s]+$/);
    });

    it('refuses an unknown --status naming the valid ones, before any request', async () => {
      const before = sb.requests.length;
      const r = await cli(['accounts', 'list', '--status', 'expird']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('did you mean "expired"');
      expect(r.stderr).toContain('"expird" is not an account status');
      expect(sb.requests.length).toBe(before);
    });
  });

  describe('accounts view', () => {
    it('finds an account by id, @handle and platform:@handle, with its recent results', async () => {
      const byId = JSON.parse((await cli(['accounts', 'view', expiredId, '--json'])).stdout) as Row & { results: { social_account_id: string; error: { code: string } }[] };
      expect(byId.results.length).toBeGreaterThan(0);
      expect(byId.results.every((x) => x.social_account_id === expiredId)).toBe(true);
      expect(byId.results[0]!.error.code).toBe('TOKEN_EXPIRED');
      const byHandle = JSON.parse((await cli(['accounts', 'view', `@${byId.username}`, '--json'])).stdout) as Row;
      expect(byHandle.id).toBe(expiredId);
      const human = await cli(['accounts', 'view', `twitter-x:@${byId.username}`]);
      expect(human.code, human.stderr).toBe(0);
      // In SyncPostly's API the status is its newest result's: TOKEN_EXPIRED.
      expect(human.stdout).toMatch(/^status\s+expired$/m);
      expect(human.stdout).toContain('TOKEN_EXPIRED');
      expect(human.stderr).toContain("reconnect it in the service's settings");
    });

    it('its recent results are its own even where the newest of the workspace are other accounts\'', async () => {
      const accounts = JSON.parse((await cli(['accounts', 'list', '--json'])).stdout) as Row[];
      const other = accounts.find((a) => a.id !== expiredId && a.health.lastSuccess && a.health.lastFailure)!;
      const r = await cli(['accounts', 'view', other.id, '--limit', '3', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const shown = JSON.parse(r.stdout) as { results: { social_account_id: string }[] };
      expect(shown.results.map((x) => x.social_account_id)).toEqual([other.id, other.id, other.id]);
    });

    it('on a terminal its colours are colours, not escape sequences spelled out', async () => {
      const r = await runCli(['accounts', 'view', expiredId, '--no-pager'], { env: cliEnv(sb, 'demo', dialectEnv(dialect)), tty: true, columns: 100 });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('\u001b[1m');
      expect(r.stdout).not.toContain('\\u001b');
    });

    it('an ambiguous handle is exit 2 naming every candidate; one no account has is exit 4 (not found) and says "did you mean"', async () => {
      const before = sb.requests.length;
      const amb = await cli(['accounts', 'view', '@socialpub.demo']);
      expect(amb.code).toBe(2);
      expect(amb.stderr).toContain('instagram:@socialpub.demo');
      expect(amb.stderr).toContain('threads:@socialpub.demo');
      const typo = await cli(['accounts', 'view', '@socialpub_dmeo']);
      expect(typo.code, typo.stderr).toBe(4);
      expect(typo.stderr).toContain('did you mean twitter-x:@socialpub_demo');
      const unknownId = await cli(['accounts', 'view', 'acc_doesNotExist', '--json']);
      expect(unknownId.code, unknownId.stderr).toBe(4);
      expect(unknownId.stderr).toContain('<account> acc_doesNotExist: no such account');
      expect(unknownId.stderr).toContain('"code":"NOT_FOUND"');
      // A platform that is not one: the client can tell the reference is wrong, so it stays exit 2.
      const notAPlatform = await cli(['accounts', 'view', 'linkdin:@socialpub-demo']);
      expect(notAPlatform.code).toBe(2);
      expect(notAPlatform.stderr).toContain('did you mean linkedin:@socialpub-demo');
      // Only the accounts lookups went out.
      expect(sb.requests.slice(before).every((q) => q.path === (sp ? SP_PATHS.socialAccounts : PATHS.socialAccounts))).toBe(true);
    });
  });
});

describe("accounts list in SyncPostly's API on a narrow terminal", () => {
  it('gives the columns SyncPostly never fills (default, token expiry) way; the status its results tell stays', async () => {
    const term = (columns: number) => runCli(['accounts', 'list', '--no-pager'], { env: cliEnv(sb, 'demo', { ...dialectEnv('syncpostly'), NO_COLOR: '1' }), tty: true, columns });
    for (const columns of [60, 80]) {
      const r = await term(columns);
      expect(r.code, r.stderr).toBe(0);
      const [header, ...rows] = r.stdout.trimEnd().split('\n');
      for (const line of [header!, ...rows]) expect([...line].length).toBeLessThanOrEqual(columns);
      // No column of dashes only: what SyncPostly leaves empty is not shown where room is short.
      expect(header).not.toMatch(/DEFAULT|TOKEN EXPIRES/);
      // What needs attention first, as in socialpub's API: the expired account says so.
      expect(header).toMatch(columns === 60 ? /^PLATFORM\s+HANDLE\s+STATUS$/ : /^PLATFORM\s+HANDLE\s+STATUS\s+LAST FAILURE$/);
      const help = rows.find((l) => l.startsWith('twitter-x ') && /\sexpired\b/.test(l));
      expect(help).toBeDefined();
      if (columns === 80) expect(help).toContain('TOKEN_EXPIRED');
    }
    // With room, every column is there (empty in this API), as the README says.
    expect((await term(200)).stdout.split('\n')[0]).toMatch(/\bHANDLE\s+NAME\s+STATUS\s+DEFAULT\s+TOKEN EXPIRES\s/);
  });
});

describe('accounts list in a workspace of 50 accounts', () => {
  let big: TestSandbox;
  beforeAll(async () => {
    big = await testSandbox({ fixtures: 2_000, seed: 21, accounts: 50, ...ROOMY_LIMITS });
  });
  afterAll(() => big.close());

  it('says how far its window of results reached and how many accounts it told nothing of', async () => {
    const accounts = JSON.parse((await runCli(['accounts', 'list', '--json'], { env: cliEnv(big) })).stdout) as Row[];
    expect(accounts.length).toBe(50);
    const window = (await allRows<{ social_account_id: string }>(big, big.key('demo'), '/api/v1/post-results')).rows.slice(0, HEALTH_WINDOW);
    const untold = accounts.filter((a) => !window.some((x) => x.social_account_id === a.id));
    // More accounts than one page of results can speak for: some have no outcome in it.
    expect(untold.length).toBeGreaterThan(0);
    expect(untold.every((a) => a.health.lastSuccess === null && a.health.lastFailure === null)).toBe(true);
    const r = await runCli(['accounts', 'list', '--no-pager'], { env: cliEnv(big), tty: true, columns: 400 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`50 accounts · last success and failure among the newest ${HEALTH_WINDOW} results (back to `);
    expect(r.stderr).toContain(`${untold.length} accounts have none there: socialpub accounts view <account> reads its own results`);
  });

  it('list_accounts says the same in its note, with how far the window reached', async () => {
    const window = (await allRows<{ social_account_id: string; created_at: string }>(big, big.key('demo'), '/api/v1/post-results')).rows.slice(0, HEALTH_WINDOW);
    const out = (await callTool(sandboxToolContext(big), 'list_accounts', {})) as { accounts: Row[]; health_window: unknown; note: string };
    const untold = out.accounts.filter((a) => !window.some((x) => x.social_account_id === a.id));
    expect(untold.length).toBeGreaterThan(0);
    expect(out.health_window).toEqual({ results: HEALTH_WINDOW, since: window.at(-1)!.created_at });
    expect(out.note).toContain(`${untold.length} of the accounts had no result among the newest ${HEALTH_WINDOW} results`);
  });
});
