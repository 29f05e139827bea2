// The endpoint helpers commands use: thin wrappers over request()/paginate() that know the paths,
// the query parameter names and the response schemas.
import { PATHS } from '../wire/protocol.js';
import { CHECKS } from '../wire/response-checks.js';
import type {
  CreateMediaBody,
  CreatePostBody,
  ListPage,
  MediaObject,
  MediaUpload,
  Post,
  PostResult,
  ScheduleBody,
  UpdatePostBody,
} from '../wire/schemas.js';
import type { ApiError} from './errors.js';
import { lacksRoute, UnsupportedOperationError } from './errors.js';
import type { Paginate, PaginatePages } from './paginate.js';
import type { Requester } from './request.js';
import { schemasFrom } from './validate.js';
import type { ApiClient, PostListQuery, QueryValue, ResultListQuery, StreamBody, WriteOptions } from './types.js';

/** A response schema from wire/schemas.ts, loaded (with zod) while the first request is out. */
const lazy = schemasFrom(() => import('../wire/schemas.js'));

const onePost = lazy<Post>((s) => s.postSchema, CHECKS.postSchema);
const postList = lazy<ListPage<Post>>((s) => s.postListSchema, CHECKS.postListSchema);
const oneResult = lazy<PostResult>((s) => s.postResultSchema, CHECKS.postResultSchema);
const resultList = lazy<ListPage<PostResult>>((s) => s.postResultListSchema, CHECKS.postResultListSchema);
const mediaUpload = lazy<MediaUpload>((s) => s.mediaUploadSchema, CHECKS.mediaUploadSchema);
const mediaObject = lazy<MediaObject>((s) => s.mediaObjectSchema, CHECKS.mediaObjectSchema);

function postQuery(q: PostListQuery = {}): Record<string, QueryValue> {
  return { status: q.status, offset: q.offset, limit: q.limit };
}

function resultQuery(q: ResultListQuery = {}): Record<string, QueryValue> {
  return { post_id: q.postId, platform: q.platform, social_account_id: q.socialAccountId, offset: q.offset, limit: q.limit };
}

function write(options: WriteOptions = {}) {
  return {
    ...(options.idempotencyKey !== undefined ? { idempotencyKey: options.idempotencyKey } : {}),
    ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}),
  };
}

/** A write the service may not offer: a missing route becomes "this service does not support …" (exit 1), not "not found". */
async function supported<T>(what: string, route: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (!lacksRoute(err)) throw err;
    const e = err as ApiError;
    throw new UnsupportedOperationError(`this service does not support ${what} (${route} answered ${e.status})`, { status: e.status, requestId: e.requestId, cause: err, ...(e.code ? { code: e.code } : {}) });
  }
}

const postPath = (id: string) => `${PATHS.posts}/${encodeURIComponent(id)}`;

export function createEndpoints(request: Requester, paginate: Paginate, paginatePages: PaginatePages): Pick<ApiClient, 'posts' | 'results' | 'media'> {
  return {
    posts: {
      create: (body: CreatePostBody, options?: WriteOptions) => request({ method: 'POST', path: PATHS.posts, body, schema: onePost, ...write(options) }),
      schedule: (body: ScheduleBody, options?: WriteOptions) => request({ method: 'POST', path: PATHS.schedule, body, schema: onePost, ...write(options) }),
      list: (query?: PostListQuery) => request({ method: 'GET', path: PATHS.posts, query: postQuery(query), schema: postList }),
      iterate: (query, options) => paginate(PATHS.posts, postQuery(query), postList, options),
      pages: (query, options) => paginatePages(PATHS.posts, postQuery(query), postList, options),
      get: (id, options) => request({ method: 'GET', path: postPath(id), schema: onePost, deadline: options?.deadline }),
      update: (id: string, patch: UpdatePostBody, options?: WriteOptions) =>
        supported('editing posts', 'PATCH /v1/posts/{id}', request({ method: 'PATCH', path: postPath(id), body: patch, schema: onePost, ...write(options) })),
      delete: (id: string, options?: WriteOptions) => supported('deleting posts', 'DELETE /v1/posts/{id}', request({ method: 'DELETE', path: postPath(id), ...write(options) })),
    },
    results: {
      list: (query?: ResultListQuery) => request({ method: 'GET', path: PATHS.postResults, query: resultQuery(query), schema: resultList }),
      iterate: (query, options) => paginate(PATHS.postResults, resultQuery(query), resultList, options),
      pages: (query, options) => paginatePages(PATHS.postResults, resultQuery(query), resultList, options),
      get: (id: string) => request({ method: 'GET', path: `${PATHS.postResults}/${encodeURIComponent(id)}`, schema: oneResult }),
    },
    media: {
      create: (body: CreateMediaBody, options?: WriteOptions) => request({ method: 'POST', path: PATHS.media, body, schema: mediaUpload, ...write(options) }),
      // The key is attached only when the upload URL is on the service's own origin (prepare.ts).
      upload: (uploadUrl: string, body: Uint8Array | StreamBody, contentType: string) => request({ method: 'PUT', path: uploadUrl, rawBody: body, contentType }),
      get: (id: string) => request({ method: 'GET', path: `${PATHS.media}/${encodeURIComponent(id)}`, schema: mediaObject }),
    },
  };
}
