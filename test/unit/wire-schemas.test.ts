import { describe, expect, it } from 'vitest';
import { postResultListSchema, postResultSchema, postSchema } from '../../src/wire/schemas.js';

describe('wire schemas', () => {
  it('keep unknown fields of a result and its platform_data', () => {
    const r = postResultSchema.parse({ id: 'r1', post_id: 'p1', success: true, extra: 1, platform_data: { id: 'x', url: null, username: 'u', more: 2 } });
    expect(r).toMatchObject({ extra: 1, platform_data: { more: 2 } });
  });

  it('accept a row without the optional platform, created_at and a null social_account_id', () => {
    expect(postResultSchema.safeParse({ id: 'r1', post_id: 'p1', success: false, social_account_id: null, platform_data: { id: 'x', url: null, username: 'u' }, error: { code: 'E', message: 'm', context: {} } }).success).toBe(true);
  });

  it('name the path of a field that breaks the schema', () => {
    const bad = postResultListSchema.safeParse({ data: [{ id: 1, post_id: 'p', success: true }], meta: { offset: 0, limit: 1, total: 1 } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['data', 0, 'id']);
  });

  it('require a post id and status', () => {
    expect(postSchema.safeParse({ status: 'draft', payloads: {} }).success).toBe(false);
  });
});
