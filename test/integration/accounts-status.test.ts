// The STATUS of `accounts list` and `accounts view` in both dialects, against the sandbox over HTTP:
// socialpub's API gives it on the account; SyncPostly's accounts have none, so there each account's
// newest result tells it (TOKEN_EXPIRED expired, ACCOUNT_DISCONNECTED disconnected, another outcome
// connected), read from the window of results the health columns already come from: no request
// more. An account with no result there is "unknown" on a terminal and null in JSON, not a guess.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cliEnv, dialectEnv, ROOMY_LIMITS, testSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { as } from './sandbox-support.js';
import { accountsOf, pick, type Account } from './accounts-support.js';
import { callTool, sandboxToolContext } from '../helpers/mcp-context.js';
import { DIALECTS } from '../../src/wire/dialects.js';
import { PATHS } from '../../src/wire/protocol.js';
import { SP_PATHS } from '../../src/wire/syncpostly/assumptions.js';

let sb: TestSandbox;
let accounts: Account[];
const expired = () => pick(accounts, 'twitter-x', (a) => a.status === 'expired');
const careers = () => pick(accounts, 'linkedin', (a) => !a.isDefault);
const bluesky = () => pick(accounts, 'bluesky');
/** An account no result was ever published with: its status only its own record can tell. */
const quiet = () => pick(accounts, 'pinterest');

beforeAll(async () => {
  sb = await testSandbox({ fixtures: 0, failureRate: 0, seed: 8, ...ROOMY_LIMITS });
  const demo = as(sb, 'demo');
  accounts = await accountsOf(sb);
  await demo.post(`/sandbox/accounts/${bluesky().id}/disconnect`, {});
  accounts = await accountsOf(sb);
  // Each account's newest result: the expired X account failed with TOKEN_EXPIRED, the
  // disconnected Bluesky one with ACCOUNT_DISCONNECTED, the careers page published.
  await demo.post('/v1/schedule', {
    payloads: {
      'twitter-x': { text: 'Launch day', accounts: [expired().id] },
      bluesky: { text: 'Launch day', accounts: [bluesky().id] },
      linkedin: { text: 'Launch day', accounts: [careers().id] },
    },
    scheduledAt: new Date(sb.clock.now() + 1000).toISOString(),
  });
  await sb.clock.advance(1000);
});
afterAll(() => sb.close());

type Row = { id: string; status: string | null };

describe.each(DIALECTS)("accounts' status in %s's API", (dialect) => {
  const sp = dialect === 'syncpostly';
  const env = () => cliEnv(sb, 'demo', { ...dialectEnv(dialect), NO_COLOR: '1' });
  const resultsPath = sp ? SP_PATHS.postResults : PATHS.postResults;

  it('accounts list --json: expired, disconnected and connected, with one read of results as before', async () => {
    const before = sb.requests.length;
    const r = await runCli(['accounts', 'list', '--json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    const status = (a: Account) => rows.find((x) => x.id === a.id)!.status;
    expect(status(expired())).toBe('expired');
    expect(status(bluesky())).toBe('disconnected');
    expect(status(careers())).toBe('connected');
    // SyncPostly: nothing tells the quiet account's state, so none is given.
    expect(status(quiet())).toBe(sp ? null : quiet().status);
    expect(sb.requests.slice(before).filter((q) => q.path === resultsPath)).toHaveLength(1);
    expect(r.stderr).toContain('2 accounts need reconnecting');
  });

  it('a 60-column table keeps STATUS whole, and says unknown where nothing tells', async () => {
    const r = await runCli(['accounts', 'list', '--no-pager'], { env: env(), tty: true, columns: 60 });
    expect(r.code, r.stderr).toBe(0);
    const [header, ...lines] = r.stdout.trimEnd().split('\n');
    for (const line of [header!, ...lines]) expect([...line].length).toBeLessThanOrEqual(60);
    expect(header).toMatch(/^PLATFORM\s+HANDLE.*\sSTATUS\b/);
    const line = (a: Account) => lines.find((l) => l.startsWith(`${a.platform} `) && l.includes(`@${a.username} `))!;
    expect(line(expired())).toMatch(/\sexpired(?:\s|$)/);
    expect(line(bluesky())).toMatch(/\sdisconnected(?:\s|$)/);
    expect(line(careers())).toMatch(/\sconnected(?:\s|$)/);
    expect(line(quiet())).toMatch(sp ? /\sunknown(?:\s|$)/ : new RegExp(`\\s${quiet().status}(?:\\s|$)`));
  });

  it('accounts view shows the status and warns about an expired account; one nothing tells is unknown', async () => {
    const before = sb.requests.length;
    const r = await runCli(['accounts', 'view', `twitter-x:@${expired().username}`], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^status\s+expired$/m);
    expect(r.stderr).toContain(`twitter-x:@${expired().username} is expired, so publishing to it fails`);
    expect(sb.requests.slice(before).filter((q) => q.path === resultsPath)).toHaveLength(1);
    const json = JSON.parse((await runCli(['accounts', 'view', bluesky().id, '--json'], { env: env() })).stdout) as Row;
    expect(json.status).toBe('disconnected');
    const q = await runCli(['accounts', 'view', quiet().id], { env: env() });
    expect(q.stdout).toMatch(sp ? /^status\s+unknown$/m : new RegExp(`^status\\s+${quiet().status}`, 'm'));
  });

  it('accounts list --status filters on the status shown (in SyncPostly inferred on the client, and said so)', async () => {
    const ids = async (statuses: string) => {
      const r = await runCli(['accounts', 'list', '--status', statuses, '--json'], { env: env() });
      expect(r.code, r.stderr).toBe(0);
      const rows = JSON.parse(r.stdout) as Row[];
      expect(rows.every((row) => statuses.split(',').includes(row.status ?? ''))).toBe(true);
      return { ids: rows.map((row) => row.id), stderr: r.stderr };
    };
    const gone = await ids('expired,disconnected');
    expect(gone.ids).toEqual(expect.arrayContaining([expired().id, bluesky().id]));
    expect(gone.ids).not.toContain(careers().id);
    const live = await ids('connected');
    expect(live.ids).toContain(careers().id);
    expect(live.ids).not.toContain(expired().id);
    // Nothing tells the quiet account's state in SyncPostly: no status matches it.
    if (sp) {
      expect(gone.ids).toHaveLength(2);
      expect(live.ids).not.toContain(quiet().id);
      expect(live.stderr).toMatch(/--status: .*inferred from .*newest .*results/);
      expect(live.stderr).toMatch(/\d+ accounts? with no result there (is|are) unknown and match(es)? no --status/);
    } else {
      expect(live.ids.includes(quiet().id)).toBe(quiet().status === 'connected');
      expect(live.stderr).not.toContain('inferred');
    }
  });

  it('list_accounts gives the same statuses', async () => {
    const out = (await callTool(sandboxToolContext(sb, 'demo', dialect), 'list_accounts', {})) as { accounts: Row[]; note: string };
    const status = (a: Account) => out.accounts.find((x) => x.id === a.id)!.status;
    expect([status(expired()), status(bluesky()), status(careers())]).toEqual(['expired', 'disconnected', 'connected']);
    expect(out.note).toContain('needs reconnecting');
  });
});
