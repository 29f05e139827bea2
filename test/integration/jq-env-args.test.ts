// --jq sees the environment (`env`, `$ENV`) and --arg NAME VALUE, as jq does; against the sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { allResults, cliEnv, keyOf, sandboxFor, type Sandbox } from './results-support.js';

describe('--jq with env and --arg', () => {
  let sb: Sandbox;
  let post: string;
  beforeAll(async () => {
    sb = await sandboxFor({ fixtures: 50, seed: 4 });
    post = (await allResults(sb, keyOf(sb, 'demo')))[0]!.post_id;
  });
  afterAll(async () => sb?.close());

  it('env.NAME and $ENV.NAME read the environment (once over the list and per row)', async () => {
    const env = cliEnv(sb, 'demo', { POST: post });
    const whole = await runCli(['results', 'list', '--all', '--jq', 'map(select(.post_id == env.POST)) | length'], { env });
    expect(whole.code, whole.stderr).toBe(0);
    const want = (await allResults(sb, keyOf(sb, 'demo'))).filter((r) => r.post_id === post).length;
    expect(want).toBeGreaterThan(0);
    expect(whole.stdout.trim()).toBe(String(want));
    const each = await runCli(['results', 'list', '--all', '-o', 'ndjson', '--jq', 'select(.post_id == $ENV.POST) | .post_id'], { env });
    expect(each.stdout.trim().split('\n')).toEqual(Array(want).fill(post));
  });

  it('the API key is not in env', async () => {
    const r = await runCli(['results', 'list', '--limit', '1', '--jq', 'env.SOCIALPUB_API_KEY, env.SOCIALPUB_BASE_URL'], { env: cliEnv(sb) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').slice(0, 2)).toEqual(['null', sb.url]);
  });

  it('--arg NAME VALUE (repeatable) binds $NAME to the string', async () => {
    const r = await runCli(['results', 'list', '--all', '-o', 'ndjson', '--arg', 'post', post, '--arg', 'tag', 'a b=c', '--jq', 'select(.post_id == $post) | $tag'], { env: cliEnv(sb) });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(new Set(lines)).toEqual(new Set(['a b=c']));
  });

  it('a bad expression is still exit 2 before any request; so is --arg without --jq or a bad name', async () => {
    const before = sb.requests.length;
    for (const argv of [
      ['results', 'list', '--arg', 'x', '1', '--jq', '.[ | $x'],
      ['results', 'list', '--arg', 'x', '1'],
      ['results', 'list', '--arg', '9x', '1', '--jq', '.'],
      ['results', 'list', '--jq', '$undefined_name'],
    ]) {
      const r = await runCli(argv, { env: cliEnv(sb) });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/--jq|--arg/);
    }
    expect(sb.requests.length).toBe(before);
  });
});
