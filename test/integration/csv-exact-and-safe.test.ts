// `-o csv` per contract 7.6, read back by a real CSV reader (csv-parse): the exact data (control
// characters kept inside quoted fields, never the text `\u0007`), formula-looking cells prefixed
// with ' so a spreadsheet shows them as text, and `success` as true/false.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { answer, startMisbehavingServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';

const context = { note: 'bell\u0007here', esc: '\u001b[31mred', limit: 280 };
const rows = [
  { id: 'res_1', post_id: 'post_1', success: false, platform: 'bluesky', created_at: '2026-12-01T09:00:00.000Z', platform_data: { username: '@SUM(1+1)' }, error: { code: 'MEDIA_REJECTED', message: '=HYPERLINK("http://evil.example","click")\u0007', context } },
  { id: 'res_2', post_id: 'post_1', success: true, platform: 'threads', created_at: '2026-12-01T08:59:00.000Z', platform_data: { username: '-2+3', url: "+cmd|' /C calc'!A0" }, error: null },
  { id: 'res_3', post_id: 'post_1', success: true, platform: 'linkedin', created_at: '2026-12-01T08:58:00.000Z', platform_data: { username: '\tTAB', url: '\rCR, "quoted"\nnext line' }, error: null },
];
/** A message whose second line, inside its quoted field, would be a command to a GitHub Actions runner. */
const forged = { id: 'res_4', post_id: 'post_2', success: false, platform: 'bluesky', created_at: '2026-12-01T08:57:00.000Z', platform_data: null, error: { code: 'DOWN', message: 'line one\n::add-mask::secret\u0007' } };

let server: MisbehavingServer;
beforeAll(async () => {
  server = await startMisbehavingServer((req, res) => {
    const data = new URL(req.url ?? '/', 'http://x').searchParams.get('post_id') === 'post_2' ? [forged] : rows;
    answer(res, 200, { data, meta: { offset: 0, limit: 100, total: data.length } }, { 'ratelimit-limit': '10000', 'ratelimit-remaining': '9999', 'ratelimit-reset': '3600' });
  });
});
afterAll(async () => {
  await server?.close();
});

describe('-o csv', () => {
  it('round-trips through a real CSV reader: exact data, formulas defused, success true/false', async () => {
    const fields = 'success,id,error.code,error.message,error.context,platform_data.username,platform_data.url';
    const r = await runCli(['results', 'list', '-o', 'csv', '--fields', fields], { env: { SOCIALPUB_BASE_URL: server.url, SOCIALPUB_API_KEY: 'sk_test_csv_000000000000' } });
    expect(r.code, r.stderr).toBe(0);
    // The bell is in the file as the byte it is (JSON cells escape it as JSON does, and parse back).
    expect(r.stdout).toContain('click"")\u0007"');
    const read = parse<Record<string, string>>(r.stdout, { columns: true, relax_column_count: false });
    expect(read).toHaveLength(3);
    expect(read.map((x) => x.success)).toEqual(['false', 'true', 'true']);
    const [a, b, c] = read as [Record<string, string>, Record<string, string>, Record<string, string>];
    expect(a['error.message']).toBe(`'${rows[0]!.error!.message}`);
    expect(JSON.parse(a['error.context']!)).toEqual(context);
    expect(a['platform_data.username']).toBe("'@SUM(1+1)");
    expect(b['platform_data.username']).toBe("'-2+3");
    expect(b['platform_data.url']).toBe("'+cmd|' /C calc'!A0");
    expect(c['platform_data.username']).toBe("'\tTAB");
    expect(c['platform_data.url']).toBe(`'\rCR, "quoted"\nnext line`);
    // Nothing a spreadsheet would run: no field starts with a formula character.
    for (const row of read) for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('onto a terminal it still drives nothing: control characters shown, not sent', async () => {
    const r = await runCli(['results', 'list', '-o', 'csv', '--fields', 'id,error.context'], { env: { SOCIALPUB_BASE_URL: server.url, SOCIALPUB_API_KEY: 'sk_test_csv_000000000000' }, tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('\u001b[31m');
    expect(r.stdout).not.toContain('\u0007');
  });

  it("under GitHub Actions, where stdout is the job's log, no line of a field starts a runner command; elsewhere the field is exact", async () => {
    const env = { SOCIALPUB_BASE_URL: server.url, SOCIALPUB_API_KEY: 'sk_test_csv_000000000000' };
    const argv = ['results', 'list', '--post', 'post_2', '-o', 'csv', '--fields', 'id,error.message'];
    const logged = await runCli(argv, { env: { ...env, GITHUB_ACTIONS: 'true' } });
    expect(logged.code, logged.stderr).toBe(0);
    expect(logged.stdout.split(/\r?\n/).filter((l) => l.trimStart().startsWith('::'))).toEqual([]);
    // Only the colon that would start the command is shown as \u003a; the rest is exact, the bell included.
    expect(parse<Record<string, string>>(logged.stdout, { columns: true })[0]!['error.message']).toBe('line one\n\\u003a:add-mask::secret\u0007');
    const exact = await runCli(argv, { env });
    expect(parse<Record<string, string>>(exact.stdout, { columns: true })[0]!['error.message']).toBe(forged.error.message);
  });
});
