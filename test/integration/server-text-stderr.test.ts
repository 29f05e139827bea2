// The service's words on stderr stay the service's words. Colour sequences that are exactly the
// ones our own palette writes (a red `ESC[31m`, a reset `ESC[39m`): in a CI job (no terminal, no
// colour) and with colour on alike, the lines that quote them (results wait's failures, the bulk
// summary's failed rows) show them as `\u001b[31m` instead of passing them to the terminal. Line
// breaks: a message of several lines stays on one line of ours, so no line of the service's can
// start with `::`, which a GitHub Actions runner obeys as a workflow command.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answer, startMisbehavingServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';
import { runCli } from '../helpers/run-cli.js';

const KEY = 'sk_test_colour0123456789abcdef';
const RED = '\u001b[31m';
const RESET = '\u001b[39m';
const TAINT = `${RED}owned${RESET}`;
const SHOWN = '\\u001b[31mowned\\u001b[39m';

let server: MisbehavingServer | undefined;
let folder: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

const env = () => ({ SOCIALPUB_BASE_URL: server!.url, SOCIALPUB_API_KEY: KEY });
const AT = '2026-03-20T12:00:00.000Z';

/** A published post with one failed target, whose result's every string carries `taint`. */
async function failedPost(taint = TAINT): Promise<void> {
  server = await startMisbehavingServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/v1/posts/post_1') {
      return answer(res, 200, { id: 'post_1', status: 'failed', payloads: { bluesky: { text: 'hi' } }, scheduledAt: AT, createdAt: AT, updatedAt: AT, targets: { bluesky: 'failed' } });
    }
    if (path === '/api/v1/post-results' || path === '/api/v1/post-results/res_1') {
      const row = {
        id: 'res_1',
        post_id: 'post_1',
        success: false,
        social_account_id: 'acc_1',
        platform_data: { id: 'x', url: null, username: `user${taint}` },
        error: { code: `CODE${taint}`, message: `message ${taint}` },
        platform: 'bluesky',
        created_at: AT,
      };
      return answer(res, 200, path.endsWith('/res_1') ? row : { data: [row], meta: { offset: 0, limit: 100, total: 1 } });
    }
    answer(res, 404, { error: { code: 'NOT_FOUND', message: 'no' } });
  });
}

describe("colour sequences in the service's words", () => {
  it('results wait, in CI: the failure line shows them', async () => {
    await failedPost();
    const r = await runCli(['results', 'wait', '--post', 'post_1', '--timeout', '5s'], { env: { ...env(), CI: 'true' } });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain(`@user${SHOWN}: CODE${SHOWN}: message ${SHOWN}`);
    expect(r.stderr).not.toContain('\u001b');
  });

  it('results wait, with colour forced on: only our red mark stays live', async () => {
    await failedPost();
    const r = await runCli(['results', 'wait', '--post', 'post_1', '--timeout', '5s'], { env: { ...env(), FORCE_COLOR: '1', NO_COLOR: undefined } });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain(`@user${SHOWN}: CODE${SHOWN}: message ${SHOWN}`);
    // Our mark is red: that is the only live sequence on the line.
    const failure = r.stderr.split('\n').find((l) => l.includes('@user'))!;
    expect(failure.match(/\u001b\[/g)).toHaveLength(2);
    expect(failure.startsWith(`${RED}✗`)).toBe(true);
  });

  it("posts schedule --from-file: the summary's failed rows show them", async () => {
    server = await startMisbehavingServer((_req, res) => answer(res, 422, { error: { code: `BAD${TAINT}`, message: `refused ${TAINT}` }, requestId: 'req_1' }));
    folder = mkdtempSync(join(tmpdir(), 'socialpub-colour-'));
    const file = join(folder, 'posts.ndjson');
    writeFileSync(file, `${JSON.stringify({ payloads: { bluesky: { text: 'hi' } }, scheduledAt: '2099-01-01T00:00:00Z' })}\n`);
    const r = await runCli(['posts', 'schedule', '--from-file', file, '--max-retries', '0'], { env: { ...env(), CI: 'true' } });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain(`failed: row 1 (line 1): BAD${SHOWN}: `);
    expect(r.stderr).toContain(`refused ${SHOWN}`);
    expect(r.stderr).not.toContain('\u001b');
  });
});

const INJECTED = '\n::warning title=pwned::from the service\n';
/** Lines of stderr that a GitHub Actions runner would take as workflow commands. */
const commands = (stderr: string) => stderr.split('\n').filter((l) => l.trimStart().startsWith('::'));

describe('line breaks in the service\'s words', () => {
  it('an error message of several lines is one error line, and only our ::error:: annotation starts with ::', async () => {
    server = await startMisbehavingServer((_req, res) => answer(res, 500, { error: { code: 'INTERNAL', message: `boom${INJECTED}` }, requestId: `req_1${INJECTED}` }));
    const r = await runCli(['posts', 'list', '--max-retries', '0'], { env: { ...env(), CI: 'true', GITHUB_ACTIONS: 'true' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: the service failed (500 Internal Server Error): boom ::warning title=pwned::from the service\n');
    expect(commands(r.stderr)).toEqual([expect.stringMatching(/^::error title=socialpub%3A exit 1[^:]*::the service failed/)]);
  });

  it("results wait: a failure's message of several lines stays on its line", async () => {
    await failedPost(INJECTED);
    const r = await runCli(['results', 'wait', '--post', 'post_1', '--timeout', '5s'], { env: { ...env(), CI: 'true', GITHUB_ACTIONS: 'true' } });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('message \\n::warning title=pwned::from the service\\n');
    // Only our own annotation of the failure, the service's line breaks shown, not obeyed, in it too.
    expect(commands(r.stderr)).toEqual([expect.stringMatching(/^::error title=socialpub results wait%3A targets failed::1 target failed to publish%0A[^%]*message \\n::warning title=pwned::from the service\\n/)]);
  });

  it('results get: no line of the service\'s, in a value of one line or a message of several, starts a line of stdout with ::', async () => {
    await failedPost(INJECTED);
    const view = await runCli(['results', 'get', 'res_1'], { env: { ...env(), CI: 'true', GITHUB_ACTIONS: 'true' } });
    expect(view.code, view.stderr).toBe(0);
    expect(view.stdout).toMatch(/^ {2}error code +CODE\\n::warning title=pwned::from the service\\n$/m);
    expect(view.stdout).toMatch(/^ {2}account +acc_1 \(@user\\n::warning title=pwned::from the service\\n\)$/m);
    expect(view.stdout).toMatch(/^ {2}error message +message \\n::warning title=pwned::from the service$/m);
    expect(commands(view.stdout)).toEqual([]);
    const picked = await runCli(['results', 'get', 'res_1', '--fields', 'error.message,platform_data.username'], { env: { ...env(), CI: 'true', GITHUB_ACTIONS: 'true' } });
    expect(picked.code, picked.stderr).toBe(0);
    expect(picked.stdout).toContain('::warning title=pwned::');
    expect(commands(picked.stdout)).toEqual([]);
  });

  it("results retry: the failed target's reason of several lines stays on its line", async () => {
    await failedPost(INJECTED);
    const r = await runCli(['results', 'retry', 'post_1', '--dry-run'], { env: { ...env(), CI: 'true', GITHUB_ACTIONS: 'true' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('message \\n::warning title=pwned::from the service\\n');
    expect(commands(r.stderr)).toEqual([]);
  });
});
