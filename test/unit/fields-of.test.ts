// fieldsOf: the field names `--fields` completion offers per command, checked against the rows
// those commands really build, so the list cannot drift from the output.
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { schemaFields } from '../../scripts/gen-wire-checks.mjs';
import { fieldsOf } from '../../src/output/fields-of.js';
import { availableFields, columnField } from '../../src/output/fields.js';
import { CHECK_COLUMNS } from '../../src/cli/commands/posts/check.run.js';
import { eventRecord } from '../../src/cli/commands/listen/render.js';
import { profileRow } from '../../src/cli/commands/profile/list.run.js';
import { createStatsCounter, statsRows } from '../../src/results/stats.js';
import { postResultSchema, postSchema } from '../../src/wire/schemas.js';
import { postView } from '../../src/cli/commands/posts/list-columns.js';
import { resultView } from '../../src/output/result-columns.js';

describe('schemaFields', () => {
  it('walks nested objects through optional and nullable, parents first; records and arrays are leaves', () => {
    const s = z.looseObject({
      id: z.string(),
      err: z.optional(z.nullable(z.looseObject({ code: z.string(), deep: z.object({ x: z.number() }) }))),
      tags: z.array(z.looseObject({ name: z.string() })),
      bag: z.record(z.string(), z.unknown()),
    });
    expect(schemaFields(s)).toEqual(['id', 'err', 'err.code', 'err.deep', 'err.deep.x', 'tags', 'bag']);
  });
});

describe('fieldsOf', () => {
  it('gives the result fields, nested ones included, for results list/get/wait', () => {
    for (const path of ['results list', 'results get', 'results wait']) {
      expect(fieldsOf(path)).toEqual(
        expect.arrayContaining(['id', 'post_id', 'success', 'platform', 'created_at', 'platform_data', 'platform_data.url', 'error', 'error.code', 'error.message']),
      );
    }
  });

  it('gives the post fields for the commands that print posts', () => {
    const post = ['id', 'status', 'payloads', 'scheduledAt', 'createdAt', 'updatedAt', 'title', 'targets'];
    for (const path of ['posts create', 'posts schedule', 'results retry']) expect(fieldsOf(path)).toEqual(post);
    // posts list also offers what it works out from a post, in TSV and JSON alike.
    expect(fieldsOf('posts list')).toEqual([...post, 'platforms', 'text', 'headline']);
  });

  it('follows the wire schemas (a field read there is a field offered here)', () => {
    expect(fieldsOf('posts create')).toEqual(Object.keys(postSchema.shape));
    const sample = { id: 'r', post_id: 'p', success: false, social_account_id: 'a', platform_data: { id: 'x', url: 'u', username: 'n' }, error: { code: 'C', message: 'm', context: {} }, first_comment: { status: 'failed', error: { code: 'C', message: 'm', context: {} } }, platform: 'x', created_at: 't' };
    expect(postResultSchema.safeParse(sample).success).toBe(true);
    expect(fieldsOf('results list')).toEqual(availableFields([sample]).filter((f) => !f.startsWith('error.context.') && !f.startsWith('first_comment.error.context.')));
  });

  it('names the same fields the commands check --fields against', () => {
    // The views --fields checks against are the same lists (one source: the wire schemas).
    expect(postView(0, 'UTC').fields).toEqual(fieldsOf('posts list'));
    expect(resultView(() => 0).fields).toEqual(fieldsOf('results list'));
    expect(fieldsOf('results list')).toEqual(expect.arrayContaining(['id', 'post_id', 'platform_data.url', 'error.code', 'created_at']));
    expect(fieldsOf('posts list')).toEqual(expect.arrayContaining(['id', 'status', 'scheduledAt', 'title', 'payloads']));
  });

  it('matches the rows results stats, profile list and listen build', () => {
    const counter = createStatsCounter('platform');
    counter.add({ success: true, platform: 'bluesky', post_id: 'p' });
    expect(fieldsOf('results stats')).toEqual(availableFields(statsRows(counter.result())));
    expect(fieldsOf('profile list')).toEqual(availableFields([profileRow('work', { apiKey: 'sk_live_123456', baseUrl: 'http://x' }, true, () => '…3456')]));
    const delivery = { type: 'post.result', postId: 'p', platform: 'x', status: 'failed', resultId: 'r', error: { code: 'C', message: 'm', context: null } };
    const record = eventRecord({ payload: delivery, delivery, raw: Buffer.from('{}'), webhookId: 'msg_1', receivedAt: 't', verified: true, seq: 1 });
    expect(fieldsOf('listen')).toEqual(availableFields([record]));
    expect(fieldsOf('posts check')).toEqual(CHECK_COLUMNS.map(columnField));
  });

  it('is empty for a command that prints no rows, and normalises spacing', () => {
    expect(fieldsOf('auth logout')).toEqual([]);
    expect(fieldsOf('')).toEqual([]);
    expect(fieldsOf('  results   stats ')).toEqual(fieldsOf('results stats'));
  });

  it('returns a copy, so a caller cannot change the list', () => {
    fieldsOf('posts list').push('nope');
    expect(fieldsOf('posts list')).not.toContain('nope');
  });
});
