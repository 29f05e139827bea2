// The MCP tools on a SyncPostly profile: a title or a time window the dialect cannot carry is
// invalid input naming SyncPostly, nothing sent; a platform with several accounts is invalid
// input naming the candidates as the `accounts` argument takes them.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { callTool, sandboxToolContext } from '../helpers/mcp-context.js';
import { toToolError } from '../../src/mcp/errors.js';
import { instructions } from '../../src/mcp/server.js';
import { TOOLS } from '../../src/mcp/tools/index.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await testSandbox();
});
afterAll(() => sb.close());
beforeEach(() => {
  sb.requests.length = 0;
});

const failure = async (name: string, args: Record<string, unknown>) => {
  const err = await callTool(sandboxToolContext(sb, 'demo', 'syncpostly'), name, args).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeDefined();
  return toToolError(err, 'default');
};

describe('MCP tools in SyncPostly\'s API', () => {
  it.each([
    ['create_draft', { platforms: ['bluesky'], text: 'hi', title: 'A title' }, 'title'],
    ['list_results', { since: '24h' }, 'since'],
    ['results_stats', { until: '2026-11-30T00:00:00Z' }, 'until'],
  ])('%s refuses what SyncPostly lacks before any request', async (name, args, field) => {
    const body = await failure(name, args);
    expect(body).toMatchObject({ code: 'invalid_input', field });
    expect(body.message).toMatch(/SyncPostly/);
    expect(sb.requests).toEqual([]);
  });

  it('a platform with several accounts: invalid input naming each candidate as an accounts value', async () => {
    const body = await failure('create_draft', { platforms: ['linkedin'], text: 'We are hiring' });
    expect(body).toMatchObject({ code: 'invalid_input', field: 'accounts' });
    expect(body.message).toMatch(/linkedin has 2 accounts on SyncPostly.*@socialpub-demo\).*@socialpub-demo-careers\)/);
    expect(body.hints?.[0]).toMatch(/^pass accounts with one of: acc_\w+, acc_\w+$/);
    expect(sb.requests.filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it.each([
    ['create_draft', { platforms: ['bluesky'], text: 'hi' }],
    ['schedule_post', { platforms: ['bluesky'], text: 'hi', at: '2099-01-01T09:00:00Z' }],
    ['update_post', { post_id: 'post_1', text: 'hi' }],
    ['unschedule_post', { post_id: 'post_1' }],
    ['delete_post', { post_id: 'post_1' }],
    ['retry_failed', { post_id: 'post_1' }],
  ])('%s refuses an idempotency_key naming SyncPostly, as the CLI refuses --idempotency-key', async (name, args) => {
    const body = await failure(name, { ...args, idempotency_key: 'release-1' });
    expect(body).toMatchObject({ code: 'invalid_input', field: 'idempotency_key' });
    expect(body.message).toMatch(/SyncPostly's API documents no idempotency key/);
    expect(sb.requests).toEqual([]);
  });

  it('the instructions do not promise that a repeated write call never posts twice', () => {
    const text = instructions(TOOLS, { readOnly: false, dialect: 'syncpostly' });
    expect(text).not.toMatch(/never posts twice/);
    expect(text).toMatch(/not safe to repeat: this profile speaks SyncPostly's API/);
    expect(text).not.toMatch(/^- idempotency_key:/m);
    expect(instructions(TOOLS, { readOnly: false })).toMatch(/never posts twice/);
  });
});

describe('MCP in SyncPostly\'s API, a platform of many accounts and no default', () => {
  let many: TestSandbox;
  beforeAll(async () => {
    many = await testSandbox({ accounts: 200, seed: 5 });
  });
  afterAll(() => many.close());

  it('the error names a dozen candidates and how many more (list_accounts lists them), as the CLI does', async () => {
    const err = await callTool(sandboxToolContext(many, 'demo', 'syncpostly'), 'create_draft', { platforms: ['bluesky'], text: 'hi' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const body = toToolError(err, 'default');
    expect(body).toMatchObject({ code: 'invalid_input', field: 'accounts' });
    const count = Number(/bluesky has (\d+) accounts/.exec(body.message)?.[1]);
    expect(count).toBeGreaterThan(15);
    for (const fix of [body.hints![0]!, body.issues![0]!.fix!]) {
      expect(fix.match(/acc_\w+/g), fix).toHaveLength(12);
      expect(fix).toContain(`, … (${count - 12} more: list_accounts with platforms ["bluesky"])`);
    }
    expect(many.requests.filter((q) => q.method !== 'GET')).toEqual([]);
  });
});
