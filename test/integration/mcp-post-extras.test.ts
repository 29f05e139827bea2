// The MCP write tools and check_post take thread, first_comment, alt and options (contract 7.7):
// against the sandbox over HTTP with a real client, what reaches the service and what is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toToolError } from '../../src/mcp/errors.js';
import type { ToolContext } from '../../src/mcp/types.js';
import { callTool, sandboxToolContext } from '../helpers/mcp-context.js';
import { manualSandbox, oracleGet, type ManualSandbox } from './posts-support.js';

let sb: ManualSandbox;
let tc: ToolContext;
beforeAll(async () => {
  sb = await manualSandbox({ failureRate: 0 });
  tc = sandboxToolContext(sb);
});
afterAll(() => sb.close());

const call = (name: string, args: Record<string, unknown>) => callTool(tc, name, args);

describe('thread, first_comment, alt, options', () => {
  it('create_draft sends them as the contract shapes them', async () => {
    const long = `${'A sentence that says something. '.repeat(12).trim()}`;
    const r = await call('create_draft', {
      platforms: ['bluesky', 'linkedin'],
      text: long,
      thread: true,
      first_comment: '#launch',
      media: ['https://example.com/a.png'],
      alt: ['A launch photo'],
      options: ['linkedin.visibility=CONNECTIONS'],
    });
    const post = await oracleGet<{ payloads: Record<string, any> }>(sb, `/v1/posts/${r.post.id}`);
    expect(post.payloads.bluesky.thread.length).toBeGreaterThan(0);
    expect(post.payloads.bluesky.media[0].alt).toBe('A launch photo');
    expect(post.payloads.linkedin).toMatchObject({ firstComment: '#launch', options: { visibility: 'CONNECTIONS' }, text: long });
    expect(post.payloads.linkedin.thread).toBeUndefined();
  });

  it('an unknown option is an invalid_input naming options.<platform>.<key> and the nearest key; nothing is sent', async () => {
    const before = sb.requests.length;
    const err = await call('create_draft', { platforms: ['youtube'], text: 'v', title: 't', media: ['https://example.com/v.mp4'], options: ['youtube.privcy=unlisted'] }).then(
      () => undefined,
      (e: unknown) => toToolError(e, 'default'),
    );
    expect(err).toBeDefined();
    expect(JSON.stringify(err)).toContain('options.youtube.privcy');
    expect(JSON.stringify(err)).toContain('did you mean \\"privacy\\"');
    expect(sb.requests.length).toBe(before);
  });

  it('check_post judges each thread part and the first comment', async () => {
    const r = await call('check_post', { platforms: ['twitter-x'], text: 'word '.repeat(120).trim(), thread: true, first_comment: 'x'.repeat(300) });
    expect(r.accepted).toBe(false);
    const checks = r.platforms[0].checks as Array<{ rule: string; verdict: string }>;
    expect(checks.filter((c) => c.rule === 'thread.text.length').every((c) => c.verdict === 'pass')).toBe(true);
    expect(checks.find((c) => c.rule === 'firstComment')).toMatchObject({ verdict: 'fail' });
  });

  it('update_post merges options and sets a first comment; a bad value is refused with the allowed ones', async () => {
    const created = await call('create_draft', { platforms: ['linkedin'], text: 'Before' });
    const id = created.post.id as string;
    const r = await call('update_post', { post_id: id, options: ['linkedin.visibility=LOGGED_IN'], first_comment: 'Read more' });
    expect(r.post).toMatchObject({ id, platforms: ['linkedin'], text: 'Before' });
    expect((await call('get_post', { post_id: id })).post.payloads.linkedin).toMatchObject({ options: { visibility: 'LOGGED_IN' }, firstComment: 'Read more', text: 'Before' });
    const err = await call('update_post', { post_id: id, options: ['linkedin.visibility=FRIENDS'] }).then(
      () => undefined,
      (e: unknown) => toToolError(e, 'default'),
    );
    expect(JSON.stringify(err)).toContain('PUBLIC, CONNECTIONS, LOGGED_IN');
  });
});
