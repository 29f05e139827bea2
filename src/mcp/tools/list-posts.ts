// list_posts: posts (drafts, scheduled, published, failed), newest first, a page at a time.
import { encodeCursor, decodeCursor } from '../cursor.js';
import { trimPost } from '../trim.js';
import type { ToolDefinition } from '../types.js';
import { DEFAULT_ROWS, int, listFields, statuses, str, strs } from './fields.js';

export const listPosts: ToolDefinition = {
  name: 'list_posts',
  description:
    'Posts (status: null for all), newest first: id, status, title, time, platforms, the start of the text (text_truncated: true when cut; get_post has it whole).',
  inputSchema: { type: 'object', properties: { status: statuses, ...listFields }, additionalProperties: false },
  annotations: { title: 'List posts', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  write: false,
  async run(args, tc) {
    const limit = int(args.limit) ?? DEFAULT_ROWS;
    const status = strs(args.status);
    const filters = { status: status ?? null };
    const cursor = str(args.cursor);
    const offset = cursor !== undefined ? decodeCursor(cursor, filters).offset : 0;
    const client = await tc.deps.client();
    const page = (await client.posts.list({ ...(status ? { status } : {}), offset, limit })).data;
    const next = offset + page.data.length;
    return {
      posts: page.data.map(trimPost),
      count: page.data.length,
      total: page.meta.total,
      ...(page.data.length > 0 && next < page.meta.total ? { next_cursor: encodeCursor({ offset: next }, filters) } : {}),
    };
  },
};
