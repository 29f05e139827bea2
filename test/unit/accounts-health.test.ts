// Health from a window of recent results: each account's newest success and failure, and how many
// accounts a full window told nothing of (a window that held every result leaves none untold).
import { describe, expect, it } from 'vitest';
import { HEALTH_WINDOW, healthFromRows, untoldCount, withHealth } from '../../src/accounts/health.js';
import type { SocialAccount } from '../../src/wire/account-schemas.js';
import type { PostResult } from '../../src/wire/schemas.js';

const account = (id: string): SocialAccount => ({ id, platform: 'linkedin', username: id, displayName: null, status: 'connected', isDefault: false, tokenExpiresAt: null, connectedAt: null });
const ACCOUNTS = [account('acc_a'), account('acc_b'), account('acc_quiet')];

/** Rows newest first: acc_a failed then succeeded, acc_b only succeeded; the rest are other accounts'. */
function window(size: number): PostResult[] {
  const rows: PostResult[] = [
    { id: 'res_1', post_id: 'post_1', success: true, social_account_id: 'acc_a', created_at: '2026-01-01T00:00:09Z' },
    { id: 'res_2', post_id: 'post_1', success: false, social_account_id: 'acc_a', created_at: '2026-01-01T00:00:08Z', error: { code: 'API_RATE_LIMIT', message: 'slow down' } },
    { id: 'res_3', post_id: 'post_2', success: true, social_account_id: 'acc_b', created_at: '2026-01-01T00:00:07Z' },
    { id: 'res_4', post_id: 'post_2', success: true, social_account_id: 'acc_a', created_at: '2026-01-01T00:00:06Z' },
  ];
  for (let i = rows.length; i < size; i++) rows.push({ id: `res_x${i}`, post_id: 'post_3', success: true, social_account_id: 'acc_other', created_at: '2026-01-01T00:00:00Z' });
  return rows;
}

describe('account health', () => {
  it('takes each account\'s newest success and newest failure with its code', () => {
    const health = healthFromRows(ACCOUNTS, window(4));
    expect(health.get('acc_a')).toEqual({
      lastSuccess: { at: '2026-01-01T00:00:09Z', resultId: 'res_1', postId: 'post_1' },
      lastFailure: { at: '2026-01-01T00:00:08Z', resultId: 'res_2', postId: 'post_1', code: 'API_RATE_LIMIT' },
    });
    expect(health.get('acc_b')).toEqual({ lastSuccess: { at: '2026-01-01T00:00:07Z', resultId: 'res_3', postId: 'post_2' }, lastFailure: null });
    expect(health.get('acc_quiet')).toEqual({ lastSuccess: null, lastFailure: null });
  });

  it('counts the accounts a full window told nothing of, and none when the window held every result', () => {
    const full = window(HEALTH_WINDOW);
    expect(untoldCount(withHealth(ACCOUNTS, healthFromRows(ACCOUNTS, full)), full)).toBe(1);
    const short = window(HEALTH_WINDOW - 1);
    expect(untoldCount(withHealth(ACCOUNTS, healthFromRows(ACCOUNTS, short)), short)).toBe(0);
  });
});
