// The SyncPostly translation both ways, without a network: the domain's post as SyncPostly's body
// and SyncPostly's objects as the domain's (src/wire/syncpostly/assumptions.ts says why each is so).
import { describe, expect, it } from 'vitest';
import { spPostContent } from '../../src/client/syncpostly/post-body.js';
import { postFromDto } from '../../src/client/syncpostly/post-from-dto.js';
import { resultFromDto } from '../../src/client/syncpostly/results.js';
import { accountFromDto } from '../../src/client/syncpostly/accounts.js';
import { mediaFromDto } from '../../src/client/syncpostly/media.js';
import { mismatch } from '../../src/client/syncpostly/lost-create.js';
import { MediaRefs } from '../../src/client/syncpostly/media-refs.js';
import { spStatusFilter } from '../../src/client/syncpostly/status.js';
import { AccountChoiceError } from '../../src/wire/syncpostly/account-choice.js';
import { InvalidInputError } from '../../src/wire/invalid-input.js';
import type { SpAccount, SpPost } from '../../src/wire/syncpostly/schemas.js';

const accounts: SpAccount[] = [
  { id: 'acc-x', platform: 'twitter-x', username: 'brand', display_name: null },
  { id: 'acc-bs', platform: 'bluesky', username: 'brand.bsky.social', display_name: 'Brand' },
  { id: 'acc-li-1', platform: 'linkedin', username: 'page-one', display_name: null },
  { id: 'acc-li-2', platform: 'linkedin', username: 'page-two', display_name: null },
];
const refs = new MediaRefs();
refs.remember('med-1', 'https://cdn.example/med-1.png');
const ctx = { accounts, mediaId: (url: string) => refs.idOf(url) };
const platformOf = (id: string) => accounts.find((a) => a.id === id)?.platform;

describe('domain → SyncPostly body', () => {
  it('one caption and media from the first platform; another platform overrides only what differs', () => {
    const body = spPostContent(
      {
        'twitter-x': { text: 'Launch day', media: [{ url: 'https://cdn.example/med-1.png', alt: 'a rocket' }] },
        bluesky: { text: 'Launch day on Bluesky', media: [{ url: 'https://cdn.example/med-1.png' }], firstComment: 'more soon' },
      },
      undefined,
      ctx,
    );
    expect(body).toEqual({
      caption: 'Launch day',
      social_accounts: ['acc-x', 'acc-bs'],
      media: ['med-1'],
      platform_configurations: {
        'twitter-x': { alt_text: ['a rocket'] },
        bluesky: { caption: 'Launch day on Bluesky', first_comment: 'more soon' },
      },
    });
  });

  it('no override at all: platform_configurations null; a web URL goes as media_urls; a syncpostly-media reference as its id', () => {
    expect(spPostContent({ bluesky: { text: 'hi', media: [{ url: 'https://example.org/a.jpg' }] } }, undefined, ctx)).toEqual({
      caption: 'hi',
      social_accounts: ['acc-bs'],
      media: [],
      media_urls: ['https://example.org/a.jpg'],
      platform_configurations: null,
    });
    expect(spPostContent({ bluesky: { text: 'hi', media: [{ url: 'syncpostly-media:med-9' }] } }, undefined, ctx).media).toEqual(['med-9']);
  });

  it('a thread, options and named accounts travel in the platform configuration', () => {
    const body = spPostContent(
      { linkedin: { text: 'Hello', accounts: ['acc-li-2'], options: { visibility: 'public' } }, 'twitter-x': { text: 'Hello', thread: [{ text: 'part 2' }, { text: 'part 3', media: [{ url: 'https://cdn.example/med-1.png' }, { url: 'https://example.org/b.png' }] }] } },
      undefined,
      ctx,
    );
    expect(body.social_accounts).toEqual(['acc-li-2', 'acc-x']);
    expect(body.platform_configurations).toEqual({ linkedin: { options: { visibility: 'public' } }, 'twitter-x': { thread: [{ caption: 'part 2' }, { caption: 'part 3', media: ['med-1', 'https://example.org/b.png'] }] } });
    const back = postFromDto({ id: 'p', status: 'draft', ...body }, { platformOf, mediaUrl: (id) => refs.urlOf(id) });
    expect((back.payloads['twitter-x'] as { thread: unknown }).thread).toEqual([
      { text: 'part 2' },
      { text: 'part 3', media: [{ url: 'https://cdn.example/med-1.png', id: 'med-1' }, { url: 'https://example.org/b.png' }] },
    ]);
  });

  it('a platform with several accounts and none named: AccountChoiceError with the candidates', () => {
    const err = (() => {
      try {
        spPostContent({ linkedin: { text: 'hi' } }, undefined, ctx);
      } catch (e) {
        return e;
      }
    })() as AccountChoiceError;
    expect(err).toBeInstanceOf(AccountChoiceError);
    expect(err.candidates.map((c) => c.id)).toEqual(['acc-li-1', 'acc-li-2']);
    expect(() => spPostContent({ threads: { text: 'hi' } }, undefined, ctx)).toThrow(/no threads account on SyncPostly/);
  });

  it('what SyncPostly cannot say is refused naming the field: a title, an unknown media reference, another platform\'s account, an unknown field', () => {
    const issues = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(InvalidInputError);
        return (e as InvalidInputError).issues.map((i) => i.field);
      }
      throw new Error('not refused');
    };
    expect(issues(() => spPostContent({ bluesky: { text: 'hi' } }, 'Launch', ctx))).toEqual(['title']);
    expect(issues(() => spPostContent({ bluesky: { text: 'hi', media: [{ url: 'file:///tmp/a.png' }] } }, undefined, ctx))).toEqual(['payloads.bluesky.media.0']);
    expect(issues(() => spPostContent({ bluesky: { text: 'hi', accounts: ['acc-x'] } }, undefined, ctx))).toEqual(['payloads.bluesky.accounts']);
    expect(issues(() => spPostContent({ bluesky: { text: 'hi', pinned: true } }, undefined, ctx))).toEqual(['payloads.bluesky.pinned']);
  });

  it('status filters in SyncPostly\'s words', () => {
    expect(spStatusFilter(['published', 'processing', 'draft'])).toEqual(['posted', 'processing', 'draft']);
  });
});

describe('SyncPostly → domain', () => {
  const dto: SpPost = {
    id: 'post-1',
    caption: 'Launch day',
    social_accounts: ['acc-x', 'acc-bs', 'acc-gone'],
    scheduled_at: '2026-12-01T10:00:00.000Z',
    is_draft: false,
    status: 'posted',
    media: ['med-1', 'med-2'],
    platform_configurations: { bluesky: { caption: 'On Bluesky', media: ['med-2'], alt_text: ['alt two'] } },
    account_configurations: null,
    created_at: '2026-11-30T10:00:00.000Z',
  };

  it('a payload per platform of its accounts, the text overridden or the caption, media references, posted as published', () => {
    const post = postFromDto(dto, { platformOf, mediaUrl: (id) => refs.urlOf(id) });
    expect(post).toEqual({
      id: 'post-1',
      status: 'published',
      scheduledAt: '2026-12-01T10:00:00.000Z',
      createdAt: '2026-11-30T10:00:00.000Z',
      payloads: {
        'twitter-x': {
          text: 'Launch day',
          media: [
            { url: 'https://cdn.example/med-1.png', id: 'med-1' },
            { url: 'syncpostly-media:med-2', id: 'med-2' },
          ],
          accounts: ['acc-x'],
        },
        bluesky: { text: 'On Bluesky', media: [{ url: 'syncpostly-media:med-2', id: 'med-2', alt: 'alt two' }], accounts: ['acc-bs'] },
      },
    });
  });

  it('processing stays processing; a round trip gives back the same body', () => {
    expect(postFromDto({ ...dto, status: 'processing' }, { platformOf, mediaUrl: (id) => refs.urlOf(id) }).status).toBe('processing');
    const body = spPostContent(
      { bluesky: { text: 'Hello', firstComment: 'c' }, 'twitter-x': { text: 'Hello X', media: [{ url: 'https://cdn.example/med-1.png' }] } },
      undefined,
      ctx,
    );
    const back = postFromDto({ id: 'p', status: 'draft', scheduled_at: null, ...body }, { platformOf, mediaUrl: (id) => refs.urlOf(id) });
    expect(spPostContent(back.payloads, undefined, ctx)).toEqual(body);
  });

  it('a result row takes its platform from its account and ignores a platform or time of the service; every documented null is kept', () => {
    const row = resultFromDto(
      { id: 'r1', post_id: 'post-1', success: false, social_account_id: 'acc-bs', platform_data: { id: null, url: null, username: null }, error: { code: 'API_RATE_LIMIT', message: 'Rate limit exceeded' }, platform: 'linkedin', created_at: '2026-01-01T00:00:00Z' },
      platformOf,
    );
    expect(row.platform).toBe('bluesky');
    expect(row.created_at).toBeUndefined();
    expect(row.platform_data).toEqual({ id: null, url: null, username: null });
    const orphan = resultFromDto({ id: 'r2', post_id: 'post-1', success: true, social_account_id: null, platform_data: null, error: null }, platformOf);
    expect(orphan.platform).toBeUndefined();
  });

  it('an account has no status, default or expiry on SyncPostly: null, not guessed', () => {
    expect(accountFromDto(accounts[1]!)).toEqual({ id: 'acc-bs', platform: 'bluesky', username: 'brand.bsky.social', displayName: 'Brand', status: null, isDefault: null, tokenExpiresAt: null });
  });

  it('a media object is reusable only when uploaded, not deleted and attached to no post', () => {
    const m = { id: 'med-3', mime_type: 'image/png', type: 'image', post_id: null, status: 'uploaded', object: { isDeleted: false, url: 'https://cdn.example/3.png', size_bytes: 12, name: 'a.png' } };
    const urlOf = (id: string) => `syncpostly-media:${id}`;
    expect(mediaFromDto(m, urlOf)).toEqual({ id: 'med-3', url: 'https://cdn.example/3.png', mimeType: 'image/png', sizeBytes: 12, reusable: true });
    expect(mediaFromDto({ ...m, post_id: 'post-1' }, urlOf).reusable).toBe(false);
    expect(mediaFromDto({ ...m, status: 'pending' }, urlOf).reusable).toBe(false);
    expect(mediaFromDto({ ...m, object: { ...m.object, isDeleted: true } }, urlOf).reusable).toBe(false);
  });
});

describe('the post a lost create made', () => {
  const sent = { caption: 'hi', social_accounts: ['acc-bs', 'acc-x'], scheduled_at: '2026-12-01T10:00:00Z', is_draft: false };
  const row: SpPost = { id: 'p1', status: 'scheduled', caption: 'hi', social_accounts: ['acc-x', 'acc-bs'], scheduled_at: '2026-12-01T10:00:00.000Z', is_draft: false, created_at: '2026-11-30T10:00:00.000Z' };
  const since = Date.parse('2026-11-30T09:59:00.000Z');

  it('matches the same caption, account set, instant and draft flag, created after the attempt', () => {
    expect(mismatch(row, sent, since, new Set())).toBeUndefined();
    expect(mismatch({ ...row, caption: 'hi!' }, sent, since, new Set())).toMatch(/caption/);
    expect(mismatch({ ...row, social_accounts: ['acc-x'] }, sent, since, new Set())).toMatch(/accounts/);
    expect(mismatch({ ...row, scheduled_at: '2026-12-01T10:00:01.000Z' }, sent, since, new Set())).toMatch(/scheduled_at/);
    expect(mismatch({ ...row, is_draft: true }, sent, since, new Set())).toMatch(/is_draft/);
    expect(mismatch({ ...row, created_at: '2026-11-30T09:00:00.000Z' }, sent, since, new Set())).toMatch(/before the attempt/);
    expect(mismatch(row, sent, since, new Set(['p1']))).toMatch(/already the answer/);
  });
});
