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

  it('an alt text past the end of media is named by its own index, in the tool\'s words; nothing is sent', async () => {
    const before = sb.requests.length;
    const err = await call('create_draft', { platforms: ['bluesky'], text: 'v', media: ['https://example.com/a.png'], alt: ['A photo', 'Nothing'] }).then(
      () => undefined,
      (e: unknown) => toToolError(e, 'default'),
    );
    expect(err).toMatchObject({ code: 'invalid_input', field: 'alt[1]', message: 'alt[1]: there is no media item 2 for it to describe (1 given)' });
    expect(JSON.stringify(err)).not.toContain('--');
    expect(sb.requests.length).toBe(before);
  });

  it("an option for a platform the post does not go to says to add it to platforms, not a flag", async () => {
    const err = await call('check_post', { platforms: ['bluesky'], text: 'v', options: ['linkedin.visibility=PUBLIC'] });
    expect(err.problems).toEqual([expect.objectContaining({ field: 'options.linkedin.visibility', fix: 'add linkedin to platforms, or drop the option' })]);
    const malformed = await call('check_post', { platforms: ['bluesky'], text: 'v', options: ['linkedin.visibility'] });
    expect(malformed.problems).toEqual([expect.objectContaining({ field: 'options', fix: 'write it as "youtube.privacy=unlisted"' })]);
  });

  it('update_post takes alt with its media (contract 7.7), and refuses alt without media; nothing is sent then', async () => {
    const created = await call('create_draft', { platforms: ['bluesky'], text: 'Pictures' });
    const id = created.post.id as string;
    await call('update_post', { post_id: id, media: ['https://example.com/a.png', 'https://example.com/b.png'], alt: ['', 'The second one'] });
    const post = await oracleGet<{ payloads: Record<string, any> }>(sb, `/v1/posts/${id}`);
    expect(post.payloads.bluesky.media).toEqual([{ url: 'https://example.com/a.png', type: 'image' }, { url: 'https://example.com/b.png', type: 'image', alt: 'The second one' }]);
    const before = sb.requests.length;
    const noMedia = await call('update_post', { post_id: id, alt: ['Lost'] }).then(
      () => undefined,
      (e: unknown) => toToolError(e, 'default'),
    );
    expect(noMedia).toMatchObject({ code: 'invalid_input', field: 'alt', message: 'alt: alt texts describe the media given with them, and this edit gives no media' });
    const pastEnd = await call('update_post', { post_id: id, media: ['https://example.com/a.png'], alt: ['One', 'Two'] }).then(
      () => undefined,
      (e: unknown) => toToolError(e, 'default'),
    );
    expect(pastEnd).toMatchObject({ code: 'invalid_input', field: 'alt[1]' });
    expect(sb.requests.filter((r, i) => i >= before && r.method !== 'GET')).toEqual([]);
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
