// get_post, update_post, unschedule_post, delete_post and retry_failed against the sandbox over
// HTTP (the tools' run functions with a real client): what each returns, what reached the service,
// dry runs, replays that answer with the post as it is now, and the refusals an assistant meets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { toToolError } from '../../src/mcp/errors.js';
import type { ToolContext } from '../../src/mcp/types.js';
import { callTool, mcpTool, sandboxToolContext } from '../helpers/mcp-context.js';
import type { Post } from '../../src/wire/schemas.js';
import { trimPost } from '../../src/mcp/trim.js';
import { resultsFailFirst } from '../helpers/route-proxy.js';
import { allPosts, manualSandbox, oracleGet, type ManualSandbox } from './posts-support.js';

let sb: ManualSandbox;
let tc: ToolContext;

beforeAll(async () => {
  sb = await manualSandbox({ fixtures: 60, failureRate: 0.4 });
  tc = sandboxToolContext(sb);
});
afterAll(() => sb.close());

const tool = mcpTool;
const call = (name: string, args: Record<string, unknown>) => callTool(tc, name, args);
async function callError(name: string, args: Record<string, unknown>) {
  const err: unknown = await call(name, args).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, `${name} should fail`).toBeInstanceOf(Error);
  return toToolError(err, 'default');
}
/** Payloads without the accounts the service echoes (the default account): these tests are about texts. */
const texts = (payloads: Post['payloads']) => Object.fromEntries(Object.entries(payloads).map(([k, v]) => [k, Object.fromEntries(Object.entries(v as object).filter(([f]) => f !== 'accounts'))]));
const getPost = async (id: string) => {
  const post = await oracleGet<Post>(sb, `/v1/posts/${id}`);
  return { ...post, payloads: texts(post.payloads) };
};
const draft = async (payloads: Record<string, unknown>) => (await call('create_draft', { platforms: Object.keys(payloads), text_for: Object.fromEntries(Object.entries(payloads).map(([p, t]) => [p, t])) })).post as { id: string };

describe('the tools as an assistant sees them', () => {
  it('delete_post, update_post and unschedule_post are annotated destructive; retry_failed not; get_post is read-only', () => {
    for (const name of ['delete_post', 'update_post', 'unschedule_post']) expect(tool(name).annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(tool('retry_failed').annotations).toMatchObject({ destructiveHint: false, readOnlyHint: false });
    expect(tool('get_post').annotations.readOnlyHint).toBe(true);
    for (const name of ['update_post', 'unschedule_post', 'delete_post', 'retry_failed']) expect(Object.keys(tool(name).inputSchema.properties!)).toEqual(expect.arrayContaining(['dry_run', 'idempotency_key']));
  });
});

describe('get_post', () => {
  it('returns the post, its partial outcome and its results', async () => {
    const partial = (await allPosts(sb, 'failed')).find((p) => Object.values(p.targets ?? {}).includes('published'))!;
    const r = await call('get_post', { post_id: partial.id });
    expect(r.post).toEqual(partial);
    expect(r.outcome).toMatch(/^failed · \d\/\d published$/);
    expect(r.results.length).toBe(Object.keys(partial.payloads).length);
    expect(r.results.some((x: { success: boolean; url: string | null }) => x.success && x.url)).toBe(true);
  });

  it('not_found for an unknown id', async () => {
    expect(await callError('get_post', { post_id: 'post_000000000000' })).toMatchObject({ code: 'not_found' });
  });

  it('wait_for_results with expect still looks the post up: a mistyped id is not_found and a draft is told at once, not polled for', async () => {
    const from = sb.requests.length;
    expect(await callError('wait_for_results', { post_id: 'post_111111111111', expect: 2, timeout_seconds: 600 })).toMatchObject({ code: 'not_found' });
    const drafted = await draft({ bluesky: 'Not scheduled yet' });
    const r = await call('wait_for_results', { post_id: drafted.id, expect: 2, timeout_seconds: 600 });
    expect(r).toMatchObject({ done: false, still_waiting: false, expected: 2, reason: expect.stringContaining('is a draft') });
    // No result was asked for: the answers came from the look-ups alone.
    const polls = sb.requests.slice(from).filter((q) => q.path.startsWith('/api/v1/post-results') && (q.query.includes('post_111111111111') || q.query.includes(drafted.id)));
    expect(polls).toEqual([]);
  });

  describe('on a service whose results list answers 404 first', () => {
    let proxy: Awaited<ReturnType<typeof resultsFailFirst>>;
    let viaProxy: ToolContext;
    beforeAll(async () => {
      proxy = await resultsFailFirst(sb.url);
      viaProxy = { ...tc, deps: { ...tc.deps, client: async () => createClient({ baseUrl: proxy.url, apiKey: sb.key('demo'), maxRetries: 0, now: sb.clock.now }) } };
    });
    afterAll(() => proxy.close());
    const failure = async (id: string) => {
      const err: unknown = await tool('get_post').run({ post_id: id }, viaProxy).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(Error);
      return toToolError(err, 'default');
    };

    it("the post's not_found decides, for an unknown id and for another workspace's", async () => {
      const others = await createClient({ baseUrl: sb.url, apiKey: sb.key('other'), maxRetries: 0 }).posts.create({ payloads: { bluesky: { text: 'theirs' } } });
      // An id of another shape is the service's to judge (the contract leaves the format open).
      for (const id of ['post_000000000000', 'post-does-not-exist', others.data.id]) {
        const before = proxy.resultsAsked.length;
        expect(await failure(id)).toMatchObject({ code: 'not_found', field: 'post_id', message: `post_id: no post ${id} in the workspace of profile default` });
        expect(proxy.resultsAsked.slice(before)).toEqual([id]);
      }
    });

    it('an id no service could have (a slash would change the path) is refused before either request', async () => {
      const mine = (await allPosts(sb))[0]!;
      const before = proxy.resultsAsked.length;
      expect(await failure('../post_1')).toMatchObject({ code: 'invalid_input', field: 'post_id' });
      // A whole call after it: a results request for the malformed id would have come in first.
      await failure(mine.id);
      expect(proxy.resultsAsked.slice(before)).toEqual([mine.id]);
    });
  });
});

describe('a post_id an assistant got wrong', () => {
  it('is refused before anything is sent, with the tool to use instead, in every tool that takes one', async () => {
    const before = sb.requests.length;
    for (const name of ['get_post', 'update_post', 'unschedule_post', 'delete_post', 'retry_failed', 'wait_for_results']) {
      const wrong = await callError(name, { post_id: 'res_4B9JzH2k5J8v' });
      expect(wrong, name).toMatchObject({ code: 'invalid_input', field: 'post_id', hints: ['get_result shows that result with its post_id'] });
      const odd = await callError(name, { post_id: '?x=1' });
      expect(odd, name).toMatchObject({ code: 'invalid_input', field: 'post_id', hints: ['`list_posts` lists the post ids'] });
    }
    for (const name of ['list_results', 'results_stats']) {
      expect(await callError(name, { post_ids: ['post_4B9JzH2k5J8v', 'res_4B9JzH2k5J8v'] }), name).toMatchObject({ code: 'invalid_input', field: 'post_ids[1]', hints: ['get_result shows that result with its post_id'] });
    }
    const schedule = await callError('schedule_post', { post_id: 'res_4B9JzH2k5J8v', at: '2030-01-01T09:00:00Z' });
    expect(schedule).toMatchObject({ code: 'invalid_input', field: 'post_id' });
    expect(sb.requests.length).toBe(before);
  });

  it('get_result refuses a blank id and a post id before anything is sent, naming get_post for the latter', async () => {
    const before = sb.requests.length;
    expect(await callError('get_result', { result_id: '  ' })).toMatchObject({ code: 'invalid_input', field: 'result_id', message: 'result_id: is blank' });
    expect(await callError('get_result', { result_id: 'post_4B9JzH2k5J8v' })).toMatchObject({ code: 'invalid_input', field: 'result_id', hints: ['get_post shows that post with its results'] });
    expect(sb.requests.length).toBe(before);
  });

  it('schedule_post of an unknown draft is not_found in the tool\'s words, with where to look', async () => {
    expect(await callError('schedule_post', { post_id: 'post_000000000000', at: '2030-01-01T09:00:00Z' })).toMatchObject({
      code: 'not_found',
      message: 'post_id: no post post_000000000000 in the workspace of profile default',
      hints: [expect.stringContaining('list_posts')],
    });
  });
});

describe('every write tool answers with the post as list_posts shows it (get_post has the whole post)', () => {
  it('create_draft, schedule_post, update_post, unschedule_post, delete_post (dry run) and retry_failed', async () => {
    /** The answer's post is the post as the service has it now, trimmed as list_posts trims it. */
    const same = async (name: string, answer: Record<string, any>) => {
      expect(answer.post, name).toEqual(trimPost(await oracleGet<Post>(sb, `/v1/posts/${String(answer.post.id)}`)));
      return answer as { post: { id: string } };
    };
    const { post: p } = await same('create_draft', await call('create_draft', { platforms: ['bluesky', 'linkedin'], text: 'Same shape' }));
    await same('update_post', await call('update_post', { post_id: p.id, text_for: { bluesky: 'Changed' } }));
    await same('update_post unchanged', await call('update_post', { post_id: p.id, text_for: { bluesky: 'Changed' } }));
    await same('delete_post dry run', await call('delete_post', { post_id: p.id, dry_run: true }));
    await same('schedule_post', await call('schedule_post', { post_id: p.id, at: new Date(sb.clock.now() + 3_600_000).toISOString() }));
    await same('unschedule_post', await call('unschedule_post', { post_id: p.id }));
    await same('unschedule_post of a draft', await call('unschedule_post', { post_id: p.id }));
    const failed = (await allPosts(sb, 'failed'))[2]!;
    await same('retry_failed', await call('retry_failed', { post_id: failed.id }));
    await same('retry_failed replayed', await call('retry_failed', { post_id: failed.id }));
  });
});

describe('update_post', () => {
  it('refuses media at an ftp:// or data: address by name, and sends no change', async () => {
    const p = await draft({ bluesky: 'Keep' });
    const before = sb.requests.length;
    for (const source of ['ftp://host/a.png', 'data:image/png;base64,iVBORw0KGgo=']) {
      expect(await callError('update_post', { post_id: p.id, media: [source] })).toMatchObject({ code: 'invalid_input', field: `media ${source}`, message: `media ${source}: only https:// URLs or local files are taken` });
    }
    expect(sb.requests.slice(before).filter((q) => q.method !== 'GET')).toEqual([]);
    expect((await getPost(p.id)).payloads).toEqual({ bluesky: { text: 'Keep' } });
  });

  it('a blank title is refused naming title and how to remove it, not taken as a removal; "" removes it', async () => {
    const p = (await call('create_draft', { platforms: ['bluesky'], text: 'Keep', title: 'Launch' })).post as { id: string };
    const before = sb.requests.length;
    expect(await callError('update_post', { post_id: p.id, title: '   ' })).toMatchObject({ code: 'invalid_input', field: 'title', message: 'title is blank' });
    expect(sb.requests.slice(before).filter((q) => q.method !== 'GET')).toEqual([]);
    expect((await getPost(p.id)).title).toBe('Launch');
    await call('update_post', { post_id: p.id, title: '' });
    expect((await getPost(p.id)).title ?? null).toBeNull();
  });

  it('changes one text and removes a platform; dry_run sends nothing', async () => {
    const p = await draft({ bluesky: 'Old', linkedin: 'Keep' });
    const dry = await call('update_post', { post_id: p.id, text_for: { bluesky: 'New' }, remove_platforms: ['linkedin'], dry_run: true });
    expect(dry.requests.at(-1)).toMatchObject({ method: 'PATCH', path: `/v1/posts/${p.id}`, body: { payloads: { bluesky: { text: 'New' }, linkedin: null } } });
    expect((await getPost(p.id)).payloads).toEqual({ bluesky: { text: 'Old' }, linkedin: { text: 'Keep' } });
    const r = await call('update_post', { post_id: p.id, text_for: { bluesky: 'New' }, remove_platforms: ['linkedin'] });
    expect(r.post).toMatchObject({ id: p.id, platforms: ['bluesky'], text: 'New' });
    expect((await getPost(p.id)).payloads).toEqual({ bluesky: { text: 'New' } });
  });

  it('a replay (same idempotency_key) answers with the post as it is now', async () => {
    const p = await draft({ bluesky: 'One' });
    await call('update_post', { post_id: p.id, text: 'Two', idempotency_key: 'mcp-edit-1' });
    await call('update_post', { post_id: p.id, text: 'Three' });
    const replay = await call('update_post', { post_id: p.id, text: 'Two', idempotency_key: 'mcp-edit-1' });
    expect(replay.replayed).toBe(true);
    expect(replay.post).toMatchObject({ id: p.id, text: 'Three' });
  });

  it('refuses what create refuses, and a published post, as invalid_input naming the fix', async () => {
    const p = await draft({ bluesky: 'x' });
    const long = await callError('update_post', { post_id: p.id, text_for: { 'twitter-x': '🎉'.repeat(150) } });
    expect(long).toMatchObject({ code: 'invalid_input', field: 'text_for.twitter-x' });
    const [published] = await allPosts(sb, 'published');
    const refused = await callError('update_post', { post_id: published!.id, text: 'x' });
    expect(refused).toMatchObject({ code: 'invalid_input', field: 'post_id' });
    expect(refused.issues?.[0]?.fix).toContain('create_draft');
  });
});

describe('unschedule_post and delete_post', () => {
  it('unschedules a scheduled post; it then never publishes', async () => {
    const s = (await call('schedule_post', { platforms: ['bluesky'], text: 'Soon', at: new Date(sb.clock.now() + 3_600_000).toISOString() })).post as { id: string };
    const r = await call('unschedule_post', { post_id: s.id });
    expect(r.post).toMatchObject({ id: s.id, status: 'draft', scheduled_at: null });
    await sb.clock.advance(2 * 3_600_000);
    expect((await getPost(s.id)).status).toBe('draft');
    expect((await call('unschedule_post', { post_id: s.id })).changed).toBe(false);
  });

  it('deletes; dry_run keeps the post; a repeat with the same key says it was deleted already', async () => {
    const p = await draft({ bluesky: 'Bye' });
    const dry = await call('delete_post', { post_id: p.id, dry_run: true });
    expect(dry.requests).toEqual([{ method: 'DELETE', path: `/v1/posts/${p.id}`, headers: { 'Idempotency-Key': expect.any(String) } }]);
    expect((await getPost(p.id)).id).toBe(p.id);
    const r = await call('delete_post', { post_id: p.id, idempotency_key: 'mcp-del-1' });
    expect(r).toMatchObject({ deleted: true, was: 'draft', replayed: false });
    const again = await call('delete_post', { post_id: p.id, idempotency_key: 'mcp-del-1' });
    expect(again).toMatchObject({ deleted: true, replayed: true });
    // Asked again without the key (a host retrying a call that did not answer): not_found, saying why it may be gone.
    expect(await callError('delete_post', { post_id: p.id })).toMatchObject({ code: 'not_found', hints: ['list_posts shows the posts of this workspace', 'if an earlier delete_post of it did not answer, that call deleted it'] });
  });
});

describe('retry_failed', () => {
  it('makes one new draft with the failed targets, the same on a repeat, with the reasons', async () => {
    const failed = (await allPosts(sb, 'failed'))[0]!;
    const failedPlatforms = Object.entries(failed.targets!).filter(([, t]) => t === 'failed').map(([p]) => p).sort();
    const dry = await call('retry_failed', { post_id: failed.id, dry_run: true });
    expect(dry.retrying.map((t: { platform: string }) => t.platform).sort()).toEqual(failedPlatforms);
    const first = await call('retry_failed', { post_id: failed.id });
    expect([...first.post.platforms].sort()).toEqual(failedPlatforms);
    expect(first.retrying.every((t: { code: string | null }) => typeof t.code === 'string')).toBe(true);
    // A target the platform refused for its content carries the fix to apply with update_post first.
    const content = ['TEXT_TOO_LONG', 'TEXT_INVALID', 'MEDIA_REQUIRED', 'MEDIA_REJECTED', 'TITLE_REQUIRED', 'DUPLICATE_CONTENT'];
    // One that failed on its account (an expired token, a lost permission) says the user must reconnect it.
    const account = ['TOKEN_EXPIRED', 'EXPIRED_ACCESS_TOKEN', 'PERMISSION_DENIED'];
    for (const t of first.retrying as { code: string; fix: string | null }[]) {
      expect(typeof t.fix === 'string', t.code).toBe(content.includes(t.code) || account.includes(t.code));
      if (account.includes(t.code)) expect(t.fix).toMatch(/reconnect/);
    }
    expect(String(first.note).includes('update_post')).toBe(first.retrying.some((t: { code: string }) => content.includes(t.code)));
    expect(String(first.note).includes('reconnects')).toBe(first.retrying.some((t: { code: string }) => account.includes(t.code)));
    const again = await call('retry_failed', { post_id: failed.id });
    expect(again).toMatchObject({ replayed: true, post: { id: first.post.id } });
  });
});

describe('after the post a write made is gone or went out', () => {
  it('a retry replayed after its draft was deleted says so, and a new idempotency_key makes it anew', async () => {
    const failed = (await allPosts(sb, 'failed'))[1]!;
    const first = await call('retry_failed', { post_id: failed.id });
    await call('delete_post', { post_id: first.post.id });
    expect(await callError('retry_failed', { post_id: failed.id })).toMatchObject({
      code: 'invalid_input',
      field: 'idempotency_key',
      message: expect.stringContaining(`made post ${first.post.id}, which has been deleted since; nothing new was created`),
      hints: ['call again with a new idempotency_key to make it anew'],
    });
    const anew = await call('retry_failed', { post_id: failed.id, idempotency_key: 'retry-again-1' });
    expect(anew).toMatchObject({ replayed: false, post: { status: 'draft' } });
    expect(anew.post.id).not.toBe(first.post.id);
  });

  it('so does create_draft repeated after its draft was deleted', async () => {
    const args = { platforms: ['bluesky'], text: 'made, deleted, asked again' };
    const made = await call('create_draft', args);
    await call('delete_post', { post_id: made.post.id });
    expect(await callError('create_draft', args)).toMatchObject({ code: 'invalid_input', field: 'idempotency_key' });
  });

  it('schedule_post of a post that went out is invalid_input naming retry_failed, like update_post, and sends no write', async () => {
    const failed = (await allPosts(sb, 'failed'))[0]!;
    const from = sb.requests.length;
    expect(await callError('schedule_post', { post_id: failed.id, at: new Date(sb.clock.now() + 86_400_000).toISOString() })).toMatchObject({
      code: 'invalid_input',
      field: 'post_id',
      message: expect.stringContaining('can no longer be changed, moved or deleted'),
      hints: [expect.stringContaining('retry_failed')],
    });
    expect(sb.requests.slice(from).filter((q) => q.method !== 'GET')).toEqual([]);
  });
});

describe('a platform that needs media', () => {
  it('is told in the words of the tools\' media argument, not a CSV column', async () => {
    const created = await callError('create_draft', { platforms: ['instagram'], text: 'no picture' });
    expect(created.issues![0]).toMatchObject({ field: 'media', fix: 'give media: an https:// URL, or a local file (image or video)' });
    const p = await draft({ bluesky: 'text only' });
    const updated = await callError('update_post', { post_id: p.id, add_platforms: ['pinterest'] });
    expect(updated.issues![0]).toMatchObject({ field: 'media', fix: expect.stringMatching(/^give media: /) });
  });
});

describe('update_post removing every platform', () => {
  it('is one problem, with the way to withdraw the post, not also "add_platforms: no platform given"', async () => {
    const p = await draft({ bluesky: 'a', linkedin: 'b' });
    const err = await callError('update_post', { post_id: p.id, remove_platforms: ['bluesky', 'linkedin'] });
    expect(err).toMatchObject({ code: 'invalid_input', field: 'remove_platforms', message: `remove_platforms: every platform of post ${p.id} would be removed` });
    expect(err.issues).toHaveLength(1);
  });
});

describe('schedule_post of an existing post, moved about', () => {
  it('moving back to an earlier time, or scheduling again after unschedule_post, really schedules it (not a replay of the first call)', async () => {
    const p = await draft({ bluesky: 'move me about' });
    const a = new Date(sb.clock.now() + 86_400_000).toISOString();
    const b = new Date(sb.clock.now() + 2 * 86_400_000).toISOString();
    // A second between the changes, as between an assistant's calls (each change stamps updatedAt).
    const later = () => sb.clock.advance(1_000);
    await call('schedule_post', { post_id: p.id, at: a });
    await later();
    await call('schedule_post', { post_id: p.id, at: b });
    await later();
    const back = await call('schedule_post', { post_id: p.id, at: a });
    expect(back).toMatchObject({ replayed: false, post: { status: 'scheduled', scheduled_at: a } });
    expect((await getPost(p.id)).scheduledAt).toBe(a);
    await later();
    await call('unschedule_post', { post_id: p.id });
    await later();
    const again = await call('schedule_post', { post_id: p.id, at: a });
    expect(again).toMatchObject({ replayed: false, post: { status: 'scheduled', scheduled_at: a } });
    expect((await getPost(p.id)).status).toBe('scheduled');
  });

  it('a post already scheduled for that time: nothing sent, said so', async () => {
    const p = await draft({ bluesky: 'already there' });
    const a = new Date(sb.clock.now() + 86_400_000).toISOString();
    await call('schedule_post', { post_id: p.id, at: a });
    const writes = sb.requests.filter((r) => r.method !== 'GET').length;
    expect(await call('schedule_post', { post_id: p.id, at: a })).toMatchObject({ changed: false, note: 'already scheduled for that time: nothing was sent' });
    expect(sb.requests.filter((r) => r.method !== 'GET').length).toBe(writes);
  });
});

describe('retry_failed with nothing to retry', () => {
  it('names its own arguments (post_id, platforms), never the command\'s <post-id> or --platform', async () => {
    const p = await draft({ bluesky: 'not out yet' });
    expect(await callError('retry_failed', { post_id: p.id })).toMatchObject({
      code: 'invalid_input',
      field: 'post_id',
      message: `nothing to retry: ${p.id} has no results yet (status draft)`,
      hints: ['a post has results once it is published: schedule_post, then wait_for_results'],
    });
    const failed = (await allPosts(sb, 'failed'))[2]!;
    const notFailed = ['twitter-x', 'bluesky', 'linkedin', 'threads'].find((p) => failed.targets![p] !== 'failed')!;
    const err = await callError('retry_failed', { post_id: failed.id, platforms: [notFailed] });
    expect(err).toMatchObject({ code: 'invalid_input', field: 'platforms', message: `platforms: ${notFailed} did not fail on ${failed.id}` });
    expect(JSON.stringify(err)).not.toMatch(/--platform|<post-id>/);
  });
});

describe('one text for several platforms, too long for one of them', () => {
  it('is told it can give that platform its own text in text_for, and that works', async () => {
    const text = 'A launch note that LinkedIn takes and X does not. '.repeat(7);
    const err = await callError('create_draft', { platforms: ['linkedin', 'twitter-x'], text });
    expect(err.issues).toEqual([expect.objectContaining({ field: 'text', fix: expect.stringMatching(/^shorten it by \d+ characters, or give twitter-x its own text in text_for\.twitter-x$/) })]);
    const made = await call('create_draft', { platforms: ['linkedin', 'twitter-x'], text, text_for: { 'twitter-x': 'A launch note.' } });
    expect(made.post.platforms).toEqual(['linkedin', 'twitter-x']);
  });
});
