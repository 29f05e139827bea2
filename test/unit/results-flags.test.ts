// Flag checks that happen before any request: no server is needed, and none is contacted
// (the base URL points at a port nothing listens on, so a request would fail with exit 6).
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const env = { SOCIALPUB_BASE_URL: 'http://127.0.0.1:9', SOCIALPUB_API_KEY: 'sk_test_unused_1234' };

describe('results flags', () => {
  it('refuses an unknown platform with the nearest id (exit 2)', async () => {
    const r = await runCli(['results', 'list', '--platform', 'instagram', '--platform', 'twiter'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--platform: "twiter" is not a platform id');
    expect(r.stderr).toContain('did you mean "twitter-x"?');
    expect(r.stdout).toBe('');
  });

  it('refuses --failed with --succeeded, and --all with --limit (exit 2)', async () => {
    const a = await runCli(['results', 'list', '--failed', '--succeeded'], { env });
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/--failed.*cannot be used with.*--succeeded|--succeeded.*cannot be used with.*--failed/);
    const b = await runCli(['results', 'list', '--all', '--limit', '5'], { env });
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/cannot be used with/);
  });

  it.each([
    [['--limit', '0'], '--limit: "0"'],
    [['--offset', '-1'], '--offset'],
    [['--concurrency', '99'], '--concurrency: "99" is not a whole number from 1 to 8'],
  ])('refuses bad numbers %j', async (flags, message) => {
    const r = await runCli(['results', 'list', ...flags], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('refuses an empty --post or --platform instead of listing everything', async () => {
    const a = await runCli(['results', 'list', '--post', ''], { env });
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('--post: give a post id');
    const b = await runCli(['results', 'list', '--platform', ' , '], { env });
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('--platform: give a platform id');
  });

  it('wait needs --post, and checks --expect and --timeout', async () => {
    expect((await runCli(['results', 'wait'], { env })).code).toBe(2);
    const e = await runCli(['results', 'wait', '--post', 'post_1', '--expect', 'three'], { env });
    expect(e.code).toBe(2);
    expect(e.stderr).toContain('--expect');
    const t = await runCli(['results', 'wait', '--post', 'post_1', '--timeout', 'soon'], { env });
    expect(t.code).toBe(2);
    expect(t.stderr).toContain('--timeout');
  });

  it('one id pasted where the other belongs is exit 2 before any request, pointing to the command for it', async () => {
    const get = await runCli(['results', 'get', 'post_1Rmx5g0pLAcA'], { env });
    expect(get.code).toBe(2);
    expect(get.stderr).toContain('results get: "post_1Rmx5g0pLAcA" is a post id, not a result id');
    expect(get.stderr).toContain("hint: each platform's outcome: socialpub posts view post_1Rmx5g0pLAcA");
    expect(get.stderr).toContain('hint: its results, with their ids: socialpub results list --post post_1Rmx5g0pLAcA');
    for (const argv of [
      ['results', 'wait', '--post', 'res_05g4FX1XxKXo'],
      ['results', 'list', '--post', 'res_05g4FX1XxKXo'],
      ['results', 'stats', '--post', 'post_a,res_05g4FX1XxKXo'],
    ]) {
      const r = await runCli(argv, { env });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toContain('--post: "res_05g4FX1XxKXo" is not a post id');
      expect(r.stderr).toContain('that is a result id; `socialpub results get res_05g4FX1XxKXo` shows it');
    }
  });

  it('without a key: exit 3 with the fix', async () => {
    const r = await runCli(['results', 'get', 'res_1'], { env: { SOCIALPUB_BASE_URL: 'http://127.0.0.1:9' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('socialpub auth login');
  });

  it('help has a summary, a paragraph and examples for each verb', async () => {
    for (const verb of ['list', 'get', 'wait']) {
      const r = await runCli(['results', verb, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Examples:');
      expect(r.stdout).toContain(`socialpub results ${verb}`);
    }
  });
});
