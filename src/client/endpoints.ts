// The endpoint helpers commands use: thin wrappers over request()/paginate() that know the paths,
// the query parameter names and the response schemas.
import { PATHS } from '../wire/protocol.js';
import {
  mediaUploadSchema,
  postListSchema,
  postResultListSchema,
  postResultSchema,
  postSchema,
  type CreateMediaBody,
  type CreatePostBody,
  type ListPage,
  type Post,
  type PostResult,
  type ScheduleBody,
  type Schema,
} from '../wire/schemas.js';
import type { Paginate, PaginatePages } from './paginate.js';
import type { Requester } from './request.js';
import type { ApiClient, PostListQuery, QueryValue, ResultListQuery, WriteOptions } from './types.js';

const postList = postListSchema as unknown as Schema<ListPage<Post>>;
const resultList = postResultListSchema as unknown as Schema<ListPage<PostResult>>;

function postQuery(q: PostListQuery = {}): Record<string, QueryValue> {
  return { status: q.status, offset: q.offset, limit: q.limit };
}

function resultQuery(q: ResultListQuery = {}): Record<string, QueryValue> {
  return { post_id: q.postId, platform: q.platform, offset: q.offset, limit: q.limit };
}

function write(options: WriteOptions = {}) {
  return {
    ...(options.idempotencyKey !== undefined ? { idempotencyKey: options.idempotencyKey } : {}),
    ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}),
  };
}

export function createEndpoints(request: Requester, paginate: Paginate, paginatePages: PaginatePages): Pick<ApiClient, 'posts' | 'results' | 'media'> {
  return {
    posts: {
      create: (body: CreatePostBody, options?: WriteOptions) => request({ method: 'POST', path: PATHS.posts, body, schema: postSchema as Schema<Post>, ...write(options) }),
      schedule: (body: ScheduleBody, options?: WriteOptions) => request({ method: 'POST', path: PATHS.schedule, body, schema: postSchema as Schema<Post>, ...write(options) }),
      list: (query?: PostListQuery) => request({ method: 'GET', path: PATHS.posts, query: postQuery(query), schema: postList }),
      iterate: (query, options) => paginate(PATHS.posts, postQuery(query), postList, options),
      pages: (query, options) => paginatePages(PATHS.posts, postQuery(query), postList, options),
    },
    results: {
      list: (query?: ResultListQuery) => request({ method: 'GET', path: PATHS.postResults, query: resultQuery(query), schema: resultList }),
      iterate: (query, options) => paginate(PATHS.postResults, resultQuery(query), resultList, options),
      pages: (query, options) => paginatePages(PATHS.postResults, resultQuery(query), resultList, options),
      get: (id: string) => request({ method: 'GET', path: `${PATHS.postResults}/${encodeURIComponent(id)}`, schema: postResultSchema as Schema<PostResult> }),
    },
    media: {
      create: (body: CreateMediaBody, options?: WriteOptions) => request({ method: 'POST', path: PATHS.media, body, schema: mediaUploadSchema, ...write(options) }),
      // The key is attached only when the upload URL is on the service's own origin (prepare.ts).
      upload: (uploadUrl: string, bytes: Uint8Array, contentType: string) => request({ method: 'PUT', path: uploadUrl, rawBody: bytes, contentType }),
    },
  };
}
