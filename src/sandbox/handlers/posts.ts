// POST /v1/posts, POST /v1/schedule, GET /v1/posts, GET, PATCH and DELETE /v1/posts/{id}.
import { isPostStatus, POST_STATUSES, type PostStatus } from '../../wire/platforms.js';
import { ERROR_CODE, PATHS } from '../../wire/protocol.js';
import { badRequest, HttpError, notFound, validationError, type Reply } from '../http/reply.js';
import type { LivePost } from '../workspace.js';
import { multiValues, pageParams } from '../http/query.js';
import { checkCreatePost, checkSchedule, checkUpdatePost } from '../validation.js';
import type { Call } from '../routes.js';

function created(call: Call, index: number): Reply {
  const body = call.ws.postJson(index);
  return { status: 201, body, headers: { location: `${PATHS.posts}/${body.id}` } };
}

/** Each payload's accounts checked, the default filled in (422 naming the field otherwise). */
function assignAccounts(call: Call, payloads: Record<string, Record<string, unknown>>): void {
  const issues = call.ws.socialAccounts.assign(payloads);
  if (issues.length) throw validationError(issues);
}

export function createPost(call: Call): Reply {
  const checked = checkCreatePost(call.json);
  if (!checked.ok) throw validationError(checked.issues);
  assignAccounts(call, checked.value.payloads);
  const post = call.ws.addPost({ status: 'draft', ...checked.value, scheduledAt: null, createdAt: call.now, updatedAt: call.now });
  return created(call, post.index);
}

export function schedulePost(call: Call): Reply {
  const checked = checkSchedule(call.json, call.now);
  if (!checked.ok) throw validationError(checked.issues);
  const input = checked.value;
  if ('postId' in input) {
    const post = editablePost(call, input.postId);
    post.scheduledAt = input.scheduledAt;
    post.updatedAt = call.now;
    post.status = 'scheduled';
    call.ws.savePost(post);
    call.core.publisher.track(call.ws, post);
    return created(call, post.index);
  }
  const { scheduledAt, payloads, title } = input;
  assignAccounts(call, payloads);
  const post = call.ws.addPost({ status: 'scheduled', payloads, ...(title !== undefined ? { title } : {}), scheduledAt, createdAt: call.now, updatedAt: call.now });
  call.core.publisher.track(call.ws, post);
  return created(call, post.index);
}

export function listPosts(call: Call): Reply {
  const statuses = multiValues(call.query, 'status');
  const unknown = statuses.filter((s) => !isPostStatus(s));
  if (unknown.length) {
    throw badRequest(`unknown status ${unknown.map((s) => JSON.stringify(s)).join(', ')}; use ${POST_STATUSES.join(', ')}`, [
      { path: 'status', message: `must be one of ${POST_STATUSES.join(', ')}` },
    ]);
  }
  const { offset, limit } = pageParams(call.query);
  const page = call.ws.postsPage(statuses as PostStatus[], offset, limit);
  return { status: 200, body: { data: page.items.map((i) => call.ws.postJson(i)), meta: { offset, limit, total: page.total } } };
}

export function getPost(call: Call): Reply {
  const id = call.params[0]!;
  const index = call.ws.findPost(id);
  if (index === undefined) throw notFound('post', id);
  return { status: 200, body: call.ws.postJson(index) };
}

/** A draft or scheduled post of this workspace: 404 for an unknown id, 409 once it went out. */
function editablePost(call: Call, id: string): LivePost {
  const index = call.ws.findPost(id);
  if (index === undefined) throw notFound('post', id);
  const post = call.ws.livePost(index);
  const status = call.ws.postStatus(index);
  if (!post || (status !== 'draft' && status !== 'scheduled')) {
    throw new HttpError(409, ERROR_CODE.postNotEditable, `post ${id} is ${status}: only a draft or a scheduled post can be changed, moved or deleted; its results stay (retry its failed targets, or create a new post)`);
  }
  return post;
}

export function updatePost(call: Call): Reply {
  const post = editablePost(call, call.params[0]!);
  const checked = checkUpdatePost(call.json, post.payloads, call.now);
  if (!checked.ok) throw validationError(checked.issues);
  const { payloads, title, scheduledAt } = checked.value;
  if (payloads) assignAccounts(call, payloads);
  if (payloads) post.payloads = payloads;
  if (title === null) delete post.title;
  else if (title !== undefined) post.title = title;
  if (scheduledAt === null) {
    post.scheduledAt = null;
    post.status = 'draft';
  } else if (scheduledAt !== undefined) {
    post.scheduledAt = scheduledAt;
    post.status = 'scheduled';
  }
  post.updatedAt = call.now;
  call.ws.savePost(post);
  // The publisher skips the entry of the old time; this one stands for the post now.
  if (scheduledAt !== undefined && scheduledAt !== null) call.core.publisher.track(call.ws, post);
  return { status: 200, body: call.ws.postJson(post.index) };
}

export function deletePost(call: Call): Reply {
  call.ws.deletePost(editablePost(call, call.params[0]!), call.now);
  return { status: 204, body: null };
}
