// The posts of the domain on SyncPostly's /api/v1/posts: create is a draft (`is_draft: true`,
// `scheduled_at: null`), schedule a create with `scheduled_at` or a PATCH of it, edits a PATCH
// of the whole translated post, lists in SyncPostly's statuses (assumptions.drafts, .arrayQuery).
// `is_draft: false` never goes with a null `scheduled_at`: that would publish at once.
import { SP_PATHS } from '../../wire/syncpostly/assumptions.js';
import type { SpCreatePost, SpPost, SpUpdatePost } from '../../wire/syncpostly/schemas.js';
import type { ListPage, Post } from '../../wire/schemas.js';
import { InvalidInputError } from '../../wire/invalid-input.js';
import { ERROR_CODE } from '../../wire/protocol.js';
import { BadRequestError, NotFoundError, PostNotEditableError } from '../errors.js';
import type { Paginate, PaginatePages } from '../paginate.js';
import type { Requester } from '../request.js';
import type { ApiClient, ApiResponse, PostListQuery, QueryValue, WriteOptions } from '../types.js';
import { lazySingle, lazySp, unwrap } from './dto.js';
import { findLostCreate } from './lost-create.js';
import { documentedRoute } from './not-found.js';
import { spStatusFilter } from './status.js';
import type { Translator } from './translate.js';

const onePost = lazySingle<SpPost>((s) => s.spPostSchema);
const postList = lazySp<ListPage<SpPost>>((s) => s.spPostListSchema);
const postPath = (id: string) => `${SP_PATHS.posts}/${encodeURIComponent(id)}`;

export interface SpPostsDeps {
  request: Requester;
  paginate: Paginate;
  paginatePages: PaginatePages;
  translate: Translator;
  debug: ((line: string) => void) | undefined;
}

function postQuery(q: PostListQuery = {}): Record<string, QueryValue> {
  return { status: spStatusFilter(q.status), offset: q.offset, limit: q.limit };
}

/** Only the wait: SyncPostly has no idempotency key, so a caller's is not sent. */
const wait = (options: WriteOptions = {}) => (options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {});

export function createSpPosts(deps: SpPostsDeps): ApiClient['posts'] {
  const { request, translate } = deps;
  const claimed = new Set<string>();

  async function answer(res: ApiResponse<SpPost | { data: SpPost }>): Promise<ApiResponse<Post>> {
    return { ...res, data: await translate.post(unwrap(res.data)) };
  }

  async function createPost(body: SpCreatePost, options?: WriteOptions): Promise<ApiResponse<Post>> {
    if (options?.sentBefore !== undefined) {
      // Sent by a run that was killed before its answer: what it made is the answer, not a second post.
      const made = await findLostCreate({ request, debug: deps.debug, claimed }, body)({ failure: new Error('an earlier run sent this create and saw no answer'), attempt: 0, startedAt: options.sentBefore });
      if (made) return { status: 200, data: await translate.post(made), headers: {}, requestId: undefined, replayed: true, idempotencyKey: undefined, rateLimit: undefined, recovered: true };
    }
    const res = await request({
      method: 'POST',
      path: SP_PATHS.posts,
      body,
      schema: onePost,
      ...wait(options),
      lostAnswer: async (lost) => findLostCreate({ request, debug: deps.debug, claimed }, body)(lost),
    });
    claimed.add(unwrap(res.data).id);
    return answer(res);
  }

  async function patch(id: string, body: SpUpdatePost, options?: WriteOptions): Promise<ApiResponse<Post>> {
    return answer(await editable(id, documentedRoute(request({ method: 'PATCH', path: postPath(id), body, schema: onePost, ...wait(options) }))));
  }

  /**
   * SyncPostly documents no 409: a change to a post that is no longer a draft or scheduled comes
   * back 400 (the sandbox; Post for Me likewise). When the post says it has moved on, that 400 is
   * our POST_NOT_EDITABLE, so it reads (and exits) the same in both dialects.
   */
  async function editable<T>(id: string, call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (err) {
      if (!(err instanceof BadRequestError) || err.status !== 400) throw err;
      const status = await get(id).then((p) => p.data.status, () => undefined);
      if (status === undefined || status === 'draft' || status === 'scheduled') throw err;
      throw new PostNotEditableError(`the post can no longer be changed: it is ${status}${err.message.includes(':') ? ` (${err.message.slice(err.message.indexOf(':') + 1).trim()})` : ''}`, {
        status: 400,
        code: ERROR_CODE.postNotEditable,
        requestId: err.requestId,
        body: err.body,
        cause: err,
      });
    }
  }

  const get = async (id: string, options?: { deadline?: number | undefined }) =>
    answer(await documentedRoute(request({ method: 'GET', path: postPath(id), schema: onePost, ...(options?.deadline !== undefined ? { deadline: options.deadline } : {}) })));

  return {
    async create(body, options) {
      const content = await translate.content(body.payloads, body.title);
      return createPost({ ...content, is_draft: true, scheduled_at: null }, options);
    },
    async check(body) {
      await translate.content(body.payloads, body.title, 'unchecked');
    },
    async schedule(body, options) {
      if ('postId' in body) return patch(body.postId, { scheduled_at: body.scheduledAt, is_draft: false }, options);
      const content = await translate.content(body.payloads, body.title);
      return createPost({ ...content, scheduled_at: body.scheduledAt, is_draft: false }, options);
    },
    async list(query) {
      const res = await request({ method: 'GET', path: SP_PATHS.posts, query: postQuery(query), schema: postList });
      return { ...res, data: { ...res.data, data: await translate.posts(res.data.data) } };
    },
    iterate: (query, options) => ({
      async *[Symbol.asyncIterator]() {
        for await (const page of deps.paginatePages(SP_PATHS.posts, postQuery(query), postList, options)) yield* await translate.posts(page);
      },
    }),
    pages: (query, options) => ({
      async *[Symbol.asyncIterator]() {
        for await (const page of deps.paginatePages(SP_PATHS.posts, postQuery(query), postList, options)) yield await translate.posts(page);
      },
    }),
    get,
    async update(id, change, options) {
      if (typeof change.title === 'string') {
        throw new InvalidInputError([{ field: 'title', message: "SyncPostly's API has no post titles", fix: 'leave the title out (--title) for this profile' }], { what: 'the change (SyncPostly)' });
      }
      const body: SpUpdatePost = {};
      if (change.payloads !== undefined) {
        const current = options?.current ?? (await get(id)).data;
        const before = current.payloads as Record<string, Record<string, unknown> | undefined>;
        const merged: Record<string, unknown> = { ...before };
        for (const [platform, payload] of Object.entries(change.payloads)) {
          if (payload === null) delete merged[platform];
          // A payload replaced without accounts keeps the accounts that platform had.
          else merged[platform] = payload.accounts === undefined && before[platform]?.accounts !== undefined ? { ...payload, accounts: before[platform].accounts } : payload;
        }
        if (Object.keys(merged).length === 0) {
          throw new InvalidInputError([{ field: 'payloads', message: 'a post keeps at least one platform', fix: 'delete the post instead (socialpub posts delete)' }], { what: 'the change' });
        }
        Object.assign(body, await translate.content(merged));
      }
      if (change.scheduledAt !== undefined) Object.assign(body, change.scheduledAt === null ? { is_draft: true, scheduled_at: null } : { is_draft: false, scheduled_at: change.scheduledAt });
      if (Object.keys(body).length === 0) return get(id);
      return patch(id, body, options);
    },
    // A delete whose answer was lost is not sent again onto a 404: the post is asked for first.
    delete: (id, options) =>
      editable(
        id,
        documentedRoute(
          request<unknown>({
            method: 'DELETE',
            path: postPath(id),
            ...wait(options),
            lostAnswer: async () => {
              const gone = await get(id).then(() => false, (err: unknown) => err instanceof NotFoundError);
              deps.debug?.(`lost delete: post ${id} ${gone ? 'is gone: taking the delete as done' : 'is still there: deleting it again'}`);
              return gone ? { success: true } : undefined;
            },
          }),
        ),
      ),
  };
}
