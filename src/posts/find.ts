// One post by id: the id checked before any request; the post from GET /v1/posts/{id}, or, on a
// service without that route, a scan of the posts list (newest first, the statuses where the post
// most likely is first); and its results.
import { ApiError, lacksRoute } from '../client/errors.js';
import type { ApiClient } from '../client/types.js';
import { cannotBeAnId, ERROR_CODE, looksLikeResultId } from '../wire/protocol.js';
import type { Post, PostResult } from '../wire/schemas.js';
import { FieldInputError, UnknownIdError } from '../wire/invalid-input.js';

/** The post does not exist in this workspace (exit 4). */
export class PostNotFoundError extends UnknownIdError {
  readonly postId: string;
  constructor(postId: string) {
    super(`post ${postId} not found in this workspace`, ['`socialpub posts list` lists the posts of this workspace']);
    this.name = 'PostNotFoundError';
    this.postId = postId;
  }
}


/**
 * Refuses what cannot be a post id before any request (exit 2, naming the argument). The hint
 * names the listing that holds the posts this command takes (`list`); a result id pasted where a
 * post id belongs (a common slip: both sit side by side in `results list`) is told as such.
 */
export function checkPostId(id: string, field = '<post-id>', list = 'socialpub posts list'): string {
  const text = id.trim();
  if (looksLikeResultId(text)) {
    throw new FieldInputError(field, `${field}: "${id}" is not a post id`, `that is a result id; \`socialpub results get ${text}\` shows it and the post it belongs to`);
  }
  // The contract leaves the id format to the service: an id of another shape (`12`,
  // `post_does_not_exist`) is asked for, and a 404 says it does not exist (exit 4).
  if (text === '' || cannotBeAnId(text)) {
    throw new FieldInputError(field, `${field}: "${id}" is not a post id`, `\`${list}\` lists the post ids`);
  }
  return text;
}

/** Every result of these posts, in the service's order; deadline: every request ends by then (epoch ms). */
export async function resultsOf(client: { results: Pick<ApiClient['results'], 'iterate'> }, postIds: string | readonly string[], deadline?: number): Promise<PostResult[]> {
  const rows: PostResult[] = [];
  for await (const row of client.results.iterate({ postId: typeof postIds === 'string' ? [postIds] : [...postIds] }, { pageSize: 100, concurrency: 1, deadline })) rows.push(row);
  return rows;
}

/**
 * A post and its results, asked for at once. When the post cannot be read, its failure is the
 * answer whichever came back first: an unknown id (or another workspace's) can fail the results
 * request too, and that message would speak of results rather than of the post. A results failure
 * alone is still the answer once the post has been read.
 */
export async function withResults<P>(post: Promise<P>, results: Promise<PostResult[]>): Promise<[P, PostResult[]]> {
  // Handled at once, so a results failure that arrives first waits here instead of going unhandled.
  const held = results.then(
    (rows) => () => rows,
    (err: unknown) => () => {
      throw err;
    },
  );
  const found = await post;
  return [found, (await held)()];
}

export interface FindPostOptions {
  /** When the list is scanned: statuses to look through first (the post is most likely there); the rest follow. */
  statusHint?: string | readonly string[];
  /** When the list is scanned: told about each page read (for "looking through older posts…" progress). */
  onPage?: (page: { offset: number; count: number; total: number }) => void;
  /** Every request ends by then (epoch ms on the client's clock). */
  deadline?: number;
}

const STATUSES = ['draft', 'scheduled', 'published', 'failed'];

export async function findPost(client: Pick<ApiClient, 'posts'>, id: string, options: FindPostOptions = {}): Promise<Post> {
  try {
    return (await client.posts.get(id, { deadline: options.deadline })).data;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404 && err.code === ERROR_CODE.notFound) throw new PostNotFoundError(id);
    if (!lacksRoute(err)) throw err;
  }
  return scanForPost(client, id, options);
}

/** The list, newest first in the hinted statuses, then in the others: a very old post takes as many pages as are newer. */
async function scanForPost(client: Pick<ApiClient, 'posts'>, id: string, options: FindPostOptions): Promise<Post> {
  const hint = options.statusHint === undefined ? [] : typeof options.statusHint === 'string' ? [options.statusHint] : [...options.statusHint];
  const rest = STATUSES.filter((s) => !hint.includes(s));
  for (const status of [hint, rest]) {
    if (status.length === 0) continue;
    for await (const page of client.posts.pages({ status }, { pageSize: 100, concurrency: 2, onPage: options.onPage, deadline: options.deadline })) {
      const post = page.find((p) => p.id === id);
      if (post) return post; // leaving the loop cancels the pages still in flight
    }
  }
  throw new PostNotFoundError(id);
}
