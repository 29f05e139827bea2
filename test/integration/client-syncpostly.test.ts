// The client in SyncPostly's dialect against the sandbox's second dialect, over real HTTP: the
// life of a post, accounts, results, a media upload, a refusal that sends nothing, and a create
// whose answer the sandbox loses (exactly one post afterwards). The sandbox's own dialect reads
// the same store, so it is the oracle of what was made.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { NotFoundError, PostNotEditableError } from '../../src/client/errors.js';
import type { ApiClient, ClientOptions } from '../../src/client/types.js';
import { uploadFiles } from '../../src/posts/uploads.js';
import { mediaInspector } from '../../src/posts/media-facts.js';
import { AccountChoiceError } from '../../src/wire/syncpostly/account-choice.js';
import { InvalidInputError } from '../../src/wire/invalid-input.js';
import { SP_PATHS } from '../../src/wire/syncpostly/assumptions.js';
import type { Post } from '../../src/wire/schemas.js';
import { loseNextAnswer, ROOMY_LIMITS, START, testSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { PNG_HEAD } from './posts-support.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await testSandbox({ ...ROOMY_LIMITS, fixtures: 40 });
});
afterAll(async () => {
  await sb?.close();
});

const clients: ApiClient[] = [];
afterAll(async () => {
  for (const c of clients) await c.close();
});

function sp(extra: Partial<ClientOptions> = {}): ApiClient {
  const c = createClient({ baseUrl: sb.url, apiKey: sb.key('demo'), dialect: 'syncpostly', sleep: async () => {}, now: () => sb.clock.now(), ...extra });
  clients.push(c);
  return c;
}
const ours = () => {
  const c = createClient({ baseUrl: sb.url, apiKey: sb.key('demo'), sleep: async () => {}, now: () => sb.clock.now() });
  clients.push(c);
  return c;
};

/** Every post of the workspace with this text, read in our own dialect. */
async function postsWithText(text: string): Promise<Post[]> {
  const found: Post[] = [];
  for await (const p of ours().posts.iterate()) {
    if (Object.values(p.payloads).some((pl) => (pl as { text?: string }).text === text)) found.push(p);
  }
  return found;
}

const AT = new Date(START + 3 * 86_400_000).toISOString();

describe('posts in SyncPostly\'s dialect', () => {
  it('create, get, list, edit, schedule, unschedule, delete: each visible in the same store', async () => {
    const client = sp();
    const made = await client.posts.create({ payloads: { bluesky: { text: 'sp life 1' } } });
    expect(made.data).toMatchObject({ status: 'draft', scheduledAt: null, payloads: { bluesky: { text: 'sp life 1' } } });
    const id = made.data.id;
    expect((await ours().posts.get(id)).data.payloads.bluesky).toMatchObject({ text: 'sp life 1' });

    const edited = await client.posts.update(id, { payloads: { bluesky: { text: 'sp life 2' } } });
    expect((edited.data.payloads.bluesky as { text: string }).text).toBe('sp life 2');
    expect((await client.posts.get(id)).data.payloads.bluesky).toMatchObject({ text: 'sp life 2' });

    const scheduled = await client.posts.schedule({ postId: id, scheduledAt: AT });
    expect(scheduled.data).toMatchObject({ status: 'scheduled', scheduledAt: AT });
    const listed: string[] = [];
    for await (const p of client.posts.iterate({ status: ['scheduled'] })) listed.push(p.id);
    expect(listed).toContain(id);

    const back = await client.posts.update(id, { scheduledAt: null });
    expect(back.data).toMatchObject({ status: 'draft', scheduledAt: null });

    await client.posts.delete(id);
    const gone = (await client.posts.get(id).catch((e: unknown) => e)) as NotFoundError;
    expect(gone).toBeInstanceOf(NotFoundError);
    expect(gone.code).toBe('NOT_FOUND');
  });

  it('a published post cannot be changed or deleted: POST_NOT_EDITABLE, as in our dialect, and it stays', async () => {
    const client = sp();
    let published: Post | undefined;
    for await (const p of client.posts.iterate({ status: ['published'] })) {
      published = p;
      break;
    }
    expect(published).toBeDefined();
    for (const change of [() => client.posts.delete(published!.id), () => client.posts.update(published!.id, { scheduledAt: AT })]) {
      const err = (await change().catch((e: unknown) => e)) as PostNotEditableError;
      expect(err).toBeInstanceOf(PostNotEditableError);
      expect(err.code).toBe('POST_NOT_EDITABLE');
    }
    expect((await client.posts.get(published!.id)).data.status).toBe('published');
  });

  it('create and schedule at once, with a text per platform', async () => {
    const res = await sp().posts.schedule({ payloads: { bluesky: { text: 'both' }, threads: { text: 'both, on Threads' } }, scheduledAt: AT });
    expect(res.data.status).toBe('scheduled');
    const seen = (await ours().posts.get(res.data.id)).data;
    expect(seen.scheduledAt).toBe(AT);
    expect((seen.payloads.threads as { text: string }).text).toBe('both, on Threads');
    expect((seen.payloads.bluesky as { text: string }).text).toBe('both');
  });

  it('a platform with several accounts and none named, or a title: refused, nothing sent', async () => {
    const requests: string[] = [];
    const client = sp({ debug: (line) => requests.push(line) });
    await expect(client.posts.create({ payloads: { linkedin: { text: 'which page?' } } })).rejects.toBeInstanceOf(AccountChoiceError);
    await expect(client.posts.create({ payloads: { bluesky: { text: 'titled' } }, title: 'T' })).rejects.toBeInstanceOf(InvalidInputError);
    expect(requests.filter((l) => l.startsWith('POST'))).toEqual([]);
    expect(await postsWithText('which page?')).toEqual([]);
  });
});

describe('accounts, results and media in SyncPostly\'s dialect', () => {
  it('accounts: every one, no status, default or expiry; the platform filter applied; a status filter refused', async () => {
    const client = sp();
    const all = [];
    for await (const a of client.accounts.iterate()) all.push(a);
    const theirs = [];
    for await (const a of ours().accounts.iterate()) theirs.push(a);
    expect(all.map((a) => a.id).sort()).toEqual(theirs.map((a) => a.id).sort());
    expect(all.every((a) => a.status === null && a.isDefault === null && a.tokenExpiresAt === null)).toBe(true);
    const linkedin = [];
    for await (const a of client.accounts.iterate({ platform: ['linkedin'] })) linkedin.push(a.platform);
    expect(linkedin.length).toBeGreaterThan(1);
    expect(new Set(linkedin)).toEqual(new Set(['linkedin']));
    expect((await client.accounts.get(all[0]!.id)).data.id).toBe(all[0]!.id);
    const refused = client.accounts.iterate({ status: ['expired'] })[Symbol.asyncIterator]().next();
    await expect(refused).rejects.toBeInstanceOf(InvalidInputError);
  });

  it('results: each row\'s platform is its account\'s, the same as our dialect says', async () => {
    const theirs = new Map<string, string | undefined>();
    for await (const r of ours().results.iterate()) theirs.set(r.id, r.social_account_id ? r.platform : undefined);
    expect(theirs.size).toBeGreaterThan(0);
    let n = 0;
    for await (const r of sp().results.iterate()) {
      expect(r.platform).toBe(theirs.get(r.id));
      expect(r).not.toHaveProperty('created_at');
      n++;
    }
    expect(n).toBe(theirs.size);
  });

  it('media: a PNG uploaded through the upload URL, then referenced by a post', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sp-media-'));
    const path = join(dir, 'pic.png');
    writeFileSync(path, PNG_HEAD);
    const client = sp();
    const file = { source: path, isUrl: false, path, label: 'pic.png' };
    const facts = new Map([[file, await mediaInspector()(file)]]);
    const urls = await uploadFiles(client, [file], facts);
    const url = urls.get(path)!;
    expect(url).toMatch(/^http/);
    const post = await client.posts.create({ payloads: { bluesky: { text: 'with a picture', media: [{ url }] } } });
    expect((post.data.payloads.bluesky as { media: { url: string }[] }).media.map((m) => m.url)).toEqual([url]);
    const media = await client.media.get((post.data.payloads.bluesky as { media: { id: string }[] }).media[0]!.id);
    expect(media.data).toMatchObject({ url, mimeType: 'image/png', sizeBytes: PNG_HEAD.length });
  });
});

describe('a create whose answer is lost', () => {
  it('is found, not sent again: exactly one post afterwards, and --debug shows the search', async () => {
    const trace: string[] = [];
    const client = sp({ debug: (line) => trace.push(line) });
    loseNextAnswer(sb, 'POST', SP_PATHS.posts);
    const res = await client.posts.schedule({ payloads: { bluesky: { text: 'lost once' } }, scheduledAt: AT });
    expect(res.recovered).toBe(true);
    const found = await postsWithText('lost once');
    expect(found.map((p) => p.id)).toEqual([res.data.id]);
    expect(trace.filter((l) => l.startsWith('POST') && l.includes(' → '))).toHaveLength(1);
    expect(trace.join('\n')).toMatch(/lost create: searching the newest 100 posts[\s\S]*is the one sent: taking it as the answer/);
  });

  it('a delete whose answer is lost is done once: the post is asked for, found gone, and no 404 follows', async () => {
    const trace: string[] = [];
    const client = sp({ debug: (line) => trace.push(line) });
    const made = await client.posts.create({ payloads: { bluesky: { text: 'delete me once' } } });
    loseNextAnswer(sb, 'DELETE', `${SP_PATHS.posts}/${made.data.id}`);
    const res = await client.posts.delete(made.data.id);
    expect(res.recovered).toBe(true);
    expect(trace.filter((l) => l.startsWith('DELETE') && l.includes(' → '))).toHaveLength(1);
    expect(trace.join('\n')).toMatch(/lost delete: post \S+ is gone/);
    expect(await postsWithText('delete me once')).toEqual([]);
  });
});
