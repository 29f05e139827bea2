import { describe, expect, it } from 'vitest';
import { latestPerTarget } from '../../src/results/latest.js';
import { contentFix, NothingToRetryError, planRetry, reasonLine, retryKey, RetryInputError } from '../../src/results/retry-plan.js';
import { checkPostId } from '../../src/posts/find.js';
import type { Post, PostResult } from '../../src/wire/schemas.js';

const post: Post = {
  id: 'post_abc123',
  status: 'failed',
  title: 'Launch',
  payloads: {
    instagram: { text: 'Hello IG', media: [{ url: 'https://cdn.example/a.jpg', type: 'image' }] },
    'twitter-x': { text: 'Hello X' },
    linkedin: { text: 'Hello LI' },
  },
};

let n = 0;
const result = (platform: string, success: boolean, at: string, extra: Partial<PostResult> = {}): PostResult => ({
  id: `res_${++n}`,
  post_id: post.id,
  success,
  platform,
  social_account_id: `acc_${platform}`,
  platform_data: { username: `acme_${platform}` },
  error: success ? null : { code: 'MEDIA_REJECTED', message: `${platform} said no` },
  created_at: at,
  ...extra,
});

describe('planRetry', () => {
  it('carries the targets whose latest result failed, with their original payloads and the title', () => {
    const results = [result('linkedin', true, '2026-11-20T10:00:02Z'), result('twitter-x', false, '2026-11-20T10:00:01Z'), result('instagram', false, '2026-11-20T10:00:00Z')];
    const plan = planRetry(post, results);
    expect(plan.targets.map((t) => t.platform)).toEqual(['instagram', 'twitter-x']);
    expect(plan.body).toEqual({ title: 'Launch', payloads: { instagram: post.payloads.instagram, 'twitter-x': { text: 'Hello X' } } });
    expect(plan.reasons).toEqual([
      'instagram @acme_instagram: MEDIA_REJECTED: instagram said no (refused for its content: replace the media the platform refused first)',
      'twitter-x @acme_twitter-x: MEDIA_REJECTED: twitter-x said no (refused for its content: replace the media the platform refused first)',
    ]);
    expect(plan.idempotencyKey).toBe(retryKey('post_abc123', ['twitter-x', 'instagram']));
  });

  it('carries a target refused for its content too, with the fix it needs; other causes carry none', () => {
    const results = [
      result('instagram', false, '2026-11-20T10:00:00Z', { error: { code: 'TITLE_REQUIRED', message: 'no title' } }),
      result('twitter-x', false, '2026-11-20T10:00:00Z', { error: { code: 'API_RATE_LIMIT', message: 'slow down' } }),
    ];
    const plan = planRetry(post, results);
    expect(plan.targets.map((t) => [t.platform, t.fix])).toEqual([
      ['instagram', 'add a title'],
      ['twitter-x', undefined],
    ]);
    expect(plan.reasons[1]).toBe('twitter-x @acme_twitter-x: API_RATE_LIMIT: slow down');
  });

  it('contentFix: rule codes and duplicates need a change; a platform that takes only videos is told to add one', () => {
    expect(contentFix('MEDIA_REQUIRED', 'instagram')).toBe('add an image or a video');
    expect(contentFix('MEDIA_REQUIRED', 'youtube')).toBe('add a video');
    expect(contentFix('DUPLICATE_CONTENT', 'twitter-x')).toBe('change the text');
    expect(contentFix('TOKEN_EXPIRED', 'twitter-x')).toBeUndefined();
    expect(contentFix('constructor', 'twitter-x')).toBeUndefined();
    expect(contentFix(undefined, 'twitter-x')).toBeUndefined();
  });

  it('looks at the latest result of each target by created_at, whatever the order', () => {
    const results = [
      result('instagram', false, '2026-11-20T09:00:00Z'),
      result('instagram', true, '2026-11-20T11:00:00Z'),
      result('twitter-x', true, '2026-11-20T09:00:00Z'),
      result('twitter-x', false, '2026-11-20T12:00:00Z'),
    ];
    expect(planRetry(post, results).targets.map((t) => t.platform)).toEqual(['twitter-x']);
    expect(latestPerTarget(results)).toHaveLength(2);
  });

  it('keeps each account of a platform apart', () => {
    const results = [result('instagram', true, '2026-11-20T09:00:00Z', { social_account_id: 'acc_1' }), result('instagram', false, '2026-11-20T09:00:00Z', { social_account_id: 'acc_2' })];
    const plan = planRetry(post, results);
    expect(plan.targets.map((t) => t.accountId)).toEqual(['acc_2']);
    expect(Object.keys(plan.body.payloads)).toEqual(['instagram']);
  });

  it('nothing failed: a typed error with the message the command prints', () => {
    const e = (() => {
      try {
        planRetry(post, [result('linkedin', true, '2026-11-20T10:00:00Z')]);
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(NothingToRetryError);
    expect((e as Error).message).toBe('nothing to retry: every target of post_abc123 succeeded');
    expect(() => planRetry({ ...post, status: 'scheduled' }, [])).toThrow('nothing to retry: post_abc123 has no results yet (status scheduled)');
  });

  it('--platform narrows to some failed targets and changes the key; a platform that did not fail is refused', () => {
    const results = [result('linkedin', false, '2026-11-20T10:00:02Z'), result('twitter-x', false, '2026-11-20T10:00:01Z'), result('instagram', true, '2026-11-20T10:00:00Z')];
    const all = planRetry(post, results);
    const narrowed = planRetry(post, results, { platforms: ['linkedin'] });
    expect(Object.keys(narrowed.body.payloads)).toEqual(['linkedin']);
    expect(narrowed.idempotencyKey).not.toBe(all.idempotencyKey);
    expect(() => planRetry(post, results, { platforms: ['instagram', 'tiktok'] })).toThrow(RetryInputError);
    expect(() => planRetry(post, results, { platforms: ['instagram'] })).toThrow('--platform: instagram did not fail on post_abc123');
  });

  it('a failed platform without a payload cannot be sent again as it was', () => {
    expect(() => planRetry(post, [result('tiktok', false, '2026-11-20T10:00:00Z')])).toThrow('cannot retry tiktok: post_abc123 has no payload for it');
  });

  it('leaves out an empty title', () => {
    const plan = planRetry({ ...post, title: null }, [result('linkedin', false, '2026-11-20T10:00:00Z')]);
    expect(plan.body).toEqual({ payloads: { linkedin: { text: 'Hello LI' } } });
  });
});

describe('retryKey', () => {
  it('is stable, order-free and short; another post or another set gives another key', () => {
    const k = retryKey('post_abc123', ['instagram', 'twitter-x']);
    expect(k).toMatch(/^retry-post_abc123-[0-9a-f]{16}$/);
    expect(retryKey('post_abc123', ['twitter-x', 'instagram', 'instagram'])).toBe(k);
    expect(retryKey('post_abc124', ['instagram', 'twitter-x'])).not.toBe(k);
    expect(retryKey('post_abc123', ['instagram'])).not.toBe(k);
  });
});

describe('reasonLine and checkPostId', () => {
  it('falls back to the account id, and says when there is no code', () => {
    expect(reasonLine({ platform: 'x', accountId: 'acc_9', username: undefined, resultId: 'r', code: undefined, message: undefined, at: undefined, fix: undefined })).toBe('x acc_9: failed without an error code');
    expect(reasonLine({ platform: 'x', accountId: null, username: '@me', resultId: 'r', code: 'E', message: undefined, at: undefined, fix: undefined })).toBe('x @me: E');
  });
  it('refuses what is not a post id, and leaves other shapes to the service (the contract does not fix the format)', () => {
    expect(checkPostId(' post_Ab12 ')).toBe('post_Ab12');
    expect([checkPostId('12'), checkPostId('post_does_not_exist'), checkPostId('3f2b9c1e-0d4a-4f7e-9a51-1c2d3e4f5a6b')]).toEqual(['12', 'post_does_not_exist', '3f2b9c1e-0d4a-4f7e-9a51-1c2d3e4f5a6b']);
    expect(() => checkPostId('res_Ab12')).toThrow('<post-id>: "res_Ab12" is not a post id');
    for (const bad of ['', '  ', 'post_1/results', 'post 1', 'post_1?x=1', 'post_1#a', 'post_%2e', 'post_\u001b[2J']) expect(() => checkPostId(bad), JSON.stringify(bad)).toThrow('is not a post id');
  });
  it("hints at the listing that holds the command's posts, and tells a result id pasted for a post id as such", () => {
    const hinted = (hint: string) => expect.objectContaining({ hint });
    // posts view, edit, delete take any post: the hint does not narrow the list to failed ones.
    expect(() => checkPostId('no pe', '<id>')).toThrow(hinted('`socialpub posts list` lists the post ids'));
    expect(() => checkPostId('no/pe', '<post-id>', 'socialpub posts list --status failed')).toThrow(hinted('`socialpub posts list --status failed` lists the post ids'));
    expect(() => checkPostId(' res_Ab12 ', '<id>')).toThrow(hinted('that is a result id; `socialpub results get res_Ab12` shows it and the post it belongs to'));
  });
});

describe('planRetry with accounts', () => {
  const at = '2026-11-20T09:00:00Z';
  const post = { id: 'post_acc', status: 'failed', payloads: { linkedin: { text: 'Hi', accounts: ['acc_a', 'acc_b', 'acc_c'] }, bluesky: { text: 'Hi', accounts: ['acc_d'] } } } as unknown as Post;
  const row = (id: string, platform: string, account: string, success: boolean, code?: string) =>
    ({ id, post_id: 'post_acc', platform, social_account_id: account, success, created_at: at, platform_data: { username: account }, error: success ? null : { code: code ?? 'API_RATE_LIMIT', message: 'm', context: {} } }) as PostResult;
  const results = [row('r1', 'linkedin', 'acc_a', true), row('r2', 'linkedin', 'acc_b', false), row('r3', 'linkedin', 'acc_c', false, 'TOKEN_EXPIRED'), row('r4', 'bluesky', 'acc_d', false, 'ACCOUNT_DISCONNECTED')];

  it('sends a multi-account payload again only to the accounts that failed', () => {
    const plan = planRetry(post, results);
    expect(plan.body.payloads.linkedin).toEqual({ text: 'Hi', accounts: ['acc_b', 'acc_c'] });
    expect(plan.body.payloads.bluesky).toEqual({ text: 'Hi', accounts: ['acc_d'] });
    expect(plan.skipped).toEqual([]);
  });

  it('leaves out targets on unhealthy accounts, in skipped, and changes the key with what is sent', () => {
    const plan = planRetry(post, results, { unhealthy: new Set(['acc_c', 'acc_d']) });
    expect(Object.keys(plan.body.payloads)).toEqual(['linkedin']);
    expect(plan.body.payloads.linkedin).toEqual({ text: 'Hi', accounts: ['acc_b'] });
    expect(plan.skipped.map((t) => t.accountId).sort()).toEqual(['acc_c', 'acc_d']);
    expect(plan.idempotencyKey).not.toBe(planRetry(post, results).idempotencyKey);
  });

  it('nothing retriable but unhealthy targets: NothingToRetryError saying so', () => {
    expect(() => planRetry(post, results, { unhealthy: new Set(['acc_b', 'acc_c', 'acc_d']) })).toThrow(/every failed target of post_acc is on an expired or disconnected account/);
  });
});
