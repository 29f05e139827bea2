// The read tools called as an assistant might, with odd arguments, through the official SDK
// client: every refusal is a tool error (isError) whose field names the argument, short enough to
// send whatever was given, and sent before any request the server can tell is pointless; never a
// protocol error, a dropped connection or an error from deep inside ("URI malformed").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkSession, type SdkSession } from '../helpers/mcp-sdk-client.js';
import { ROOMY_LIMITS, testSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let s: SdkSession;

beforeAll(async () => {
  sb = await testSandbox({ ...ROOMY_LIMITS, fixtures: 5 });
  s = await startSdkSession(['--read-only'], { env: { SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: sb.key('demo') } });
});
afterAll(async () => {
  expect(await s?.close()).toBe(0);
  await sb?.close();
});

/** The call's tool error, checked to name `field` in its body and its text, having sent nothing. */
async function refused(name: string, args: Record<string, unknown>, field: string) {
  const from = sb.requests.length;
  const r = await s.call(name, args);
  expect(r.isError, `${name} ${JSON.stringify(r.structuredContent).slice(0, 300)}`).toBe(true);
  expect(r.structuredContent).toMatchObject({ code: 'invalid_input', field });
  // The text carries the body as JSON: the field as JSON writes it.
  expect((r.content[0] as { text: string }).text).toContain(JSON.stringify(`${field}:`).slice(1, -1));
  expect(sb.requests.slice(from)).toEqual([]);
  return r;
}

describe('odd arguments to the read tools', () => {
  it('an id holding a lone surrogate (not valid Unicode) is refused naming the argument, not "URI malformed"', async () => {
    for (const [name, field] of [['get_post', 'post_id'], ['wait_for_results', 'post_id'], ['get_result', 'result_id']] as const) {
      const r = await refused(name, { [field]: 'post_\ud800x' }, field);
      expect(r.structuredContent.message).toBe(`${field}: is not valid Unicode (a lone surrogate, \\ud800, at character 6)`);
    }
    await refused('list_results', { post_ids: ['post_1', '\udfff'] }, 'post_ids[1]');
    await refused('check_post', { platforms: ['bluesky'], text: 'fine \ud83d' }, 'text');
  });

  it('a result id that no service could have (a slash, control characters, white space) is refused before a request', async () => {
    for (const id of ['res_1/../../v1/posts', 'res_\u0000\u001b[31m', 'res 1', 'res_1?x=1#y', '%2e%2e']) {
      const r = await refused('get_result', { result_id: id }, 'result_id');
      expect(r.structuredContent.message).toBe(`result_id: ${JSON.stringify(id)} is not a result id`);
    }
  });

  it('an unknown post or result id is not_found naming the argument', async () => {
    const post = await s.call('get_post', { post_id: 'post_doesnotexist' });
    expect(post.structuredContent).toMatchObject({ code: 'not_found', field: 'post_id', message: 'post_id: no post post_doesnotexist in the workspace of profile default' });
    const result = await s.call('get_result', { result_id: 'res_doesnotexist' });
    expect(result.structuredContent).toMatchObject({ code: 'not_found', field: 'result_id', message: 'result_id: no result res_doesnotexist in the workspace of profile default' });
  });

  it('a huge value is quoted shortened, so the answer stays small and the connection open', async () => {
    const huge = 'x'.repeat(3_000_000);
    for (const [name, args, field] of [
      ['list_posts', { status: [huge] }, 'status[0]'],
      ['check_post', { platforms: [huge], text: 'hi' }, 'platforms[0]'],
      ['list_accounts', { statuses: [huge] }, 'statuses[0]'],
    ] as const) {
      const r = await refused(name, args, field);
      expect(r.structuredContent.message).toMatch(new RegExp(`^${field.replace(/[[\]]/g, '\\$&')}: "x{40}…" \\(3000000 characters\\) is not one of `));
      expect(JSON.stringify(r).length).toBeLessThan(4_000);
    }
    // An argument with a huge name: the same.
    const r = await refused('list_posts', { [huge]: 1 }, `"${'x'.repeat(40)}…" (3000000 characters)`);
    expect(JSON.stringify(r).length).toBeLessThan(4_000);
    expect((await s.call('list_posts', { limit: 1 })).isError).toBeFalsy();
  });

  it('thousands of bad items are told as the first ten and a count', async () => {
    const r = await refused('list_posts', { status: Array.from({ length: 5_000 }, (_, i) => `nope${i}`) }, 'status[0]');
    const issues = r.structuredContent.issues as Array<{ field: string; message: string }>;
    expect(issues).toHaveLength(11);
    expect(issues[10]).toEqual({ field: '(arguments)', message: '… and 4990 more problems like these' });
    expect(JSON.stringify(r).length).toBeLessThan(8_000);
  });

  it('huge numbers, empty strings and wrong types are refused naming the argument', async () => {
    await refused('list_posts', { limit: 1e308 }, 'limit');
    await refused('list_results', { limit: 2 ** 53 + 1 }, 'limit');
    await refused('list_posts', { cursor: '' }, 'cursor');
    await refused('get_post', { post_id: '' }, 'post_id');
    await refused('get_result', { result_id: ' ' }, 'result_id');
    await refused('results_stats', { since: '' }, 'since');
    await refused('list_results', { post_ids: 'post_1' }, 'post_ids');
    await refused('wait_for_results', { post_id: 12 }, 'post_id');
  });
});
