// Service text cannot write CI's commands: a title or text holding a line break and
// `::warning::` must never start a line of ours, in any text format, on stdout or stderr
// (GitHub Actions obeys `::command::` at a line start). JSON keeps the data exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { testSandbox, cliEnv, ROOMY_LIMITS, type TestSandbox } from '../helpers/sandbox.js';
import { advancingClock } from '../helpers/advancing-clock.js';

const TITLE = 'Launch\n::warning::looks fine\n::add-mask::hidden';
const TEXT = 'Big day\r\n::error::text from the service\n::set-output name=x::1';

let sb: TestSandbox;
let postId: string;
beforeAll(async () => {
  sb = await testSandbox({ failureRate: 0, ...ROOMY_LIMITS });
  const r = await runCli(['posts', 'schedule', '--platform', 'bluesky,linkedin', '--text', TEXT, '--title', TITLE, '--at', '+2h', '--json'], { env: cliEnv(sb), clock: advancingClock(sb.clock) });
  expect(r.code, r.stderr).toBe(0);
  postId = (JSON.parse(r.stdout) as { id: string }).id;
});
afterAll(async () => {
  await sb?.close();
});

const commandLines = (text: string) => text.split(/\r?\n|\r/).filter((l) => /^\s*::/.test(l));

describe('a line break in service text never starts a line of ours', () => {
  const cases: Array<[string, () => string[]]> = [
    ['posts schedule (piped)', () => ['posts', 'schedule', '--platform', 'bluesky', '--text', TEXT, '--title', TITLE, '--at', '+3h']],
    ['posts view', () => ['posts', 'view', postId]],
    ['posts list (tsv)', () => ['posts', 'list']],
    ['posts queue', () => ['posts', 'queue']],
    ['posts create --dry-run', () => ['posts', 'create', '--platform', 'bluesky', '--text', TEXT, '--title', TITLE, '--dry-run']],
  ];
  it.each(cases)('%s, piped and on a terminal', async (_name, args) => {
    for (const tty of [false, true]) {
      const r = await runCli(args(), { env: { ...cliEnv(sb), GITHUB_ACTIONS: 'true' }, tty, clock: advancingClock(sb.clock) });
      expect(r.code, r.stderr).toBe(0);
      expect(commandLines(r.stdout), `stdout (tty ${tty})`).toEqual([]);
      expect(commandLines(r.stderr), `stderr (tty ${tty})`).toEqual([]);
    }
  });

  it('-o csv onto a terminal too; into a file CSV keeps the exact data (contract 7.6), the line break inside its quoted field', async () => {
    const tty = await runCli(['posts', 'list', '-o', 'csv'], { env: cliEnv(sb), tty: true, clock: advancingClock(sb.clock) });
    expect(commandLines(tty.stdout)).toEqual([]);
    const file = await runCli(['posts', 'list', '-o', 'csv'], { env: cliEnv(sb), clock: advancingClock(sb.clock) });
    expect(file.stdout).toContain(`"${TITLE}"`);
  });

  it('TSV keeps the text as it came: its line breaks escaped as TSV escapes them, nothing else changed', async () => {
    const r = await runCli(['posts', 'list', '--fields', 'id,title'], { env: { ...cliEnv(sb), GITHUB_ACTIONS: 'true' }, clock: advancingClock(sb.clock) });
    expect(r.code, r.stderr).toBe(0);
    const cell = r.stdout.split('\n').find((l) => l.startsWith(`${postId}\t`))!.split('\t')[1]!;
    // Read back as TSV reads (\n a line break, \\ a backslash): the title, not "\u003a:warning".
    expect(cell.replace(/\\(.)/g, (_m, ch: string) => (ch === 'n' ? '\n' : ch === 't' ? '\t' : ch))).toBe(TITLE);
  });

  it('the title is shown on one line, its line breaks as \\n; JSON keeps the data exact', async () => {
    const view = await runCli(['posts', 'view', postId], { env: cliEnv(sb), clock: advancingClock(sb.clock) });
    expect(view.stdout).toContain('Launch\\n::warning::looks fine\\n::add-mask::hidden');
    const r = await runCli(['posts', 'view', postId, '--json'], { env: cliEnv(sb) });
    expect((JSON.parse(r.stdout) as { title: string }).title).toBe(TITLE);
  });
});

describe('the results get hint', () => {
  it("never passes a line break from a server's post_id", async () => {
    const { startMisbehavingServer, answer } = await import('../helpers/misbehaving-server.js');
    const row = { id: 'res_1', post_id: 'post_1\n::add-mask::hidden', success: true, platform: 'bluesky', platform_data: { url: 'https://bsky.app/x' }, error: null };
    const server = await startMisbehavingServer((_req, res) => answer(res, 200, row));
    try {
      const r = await runCli(['results', 'get', 'res_1'], { env: { SOCIALPUB_BASE_URL: server.url, SOCIALPUB_API_KEY: 'sk_test_hint_0000000000000', GITHUB_ACTIONS: 'true' } });
      expect(r.code, r.stderr).toBe(0);
      expect(commandLines(r.stderr)).toEqual([]);
      expect(commandLines(r.stdout)).toEqual([]);
      expect(r.stderr).toContain("socialpub results list --post 'post_1\\n::add-mask::hidden'");
    } finally {
      await server.close();
    }
  });
});
