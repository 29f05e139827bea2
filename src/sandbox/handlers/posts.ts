// POST /v1/posts, POST /v1/schedule, GET /v1/posts, GET /v1/posts/{id}.
import { isPostStatus, POST_STATUSES, type PostStatus } from '../../wire/platforms.js';
import { PATHS } from '../../wire/protocol.js';
import { badRequest, notFound, validationError, type Reply } from '../http/reply.js';
import { multiValues, pageParams } from '../http/query.js';
import { checkCreatePost, checkSchedule } from '../validation.js';
import type { Call } from '../routes.js';

function created(call: Call, index: number): Reply {
  const body = call.ws.postJson(index);
  return { status: 201, body, headers: { location: `${PATHS.posts}/${body.id}` } };
}

export function createPost(call: Call): Reply {
  const checked = checkCreatePost(call.json);
  if (!checked.ok) throw validationError(checked.issues);
  const post = call.ws.addPost({ status: 'draft', ...checked.value, scheduledAt: null, createdAt: call.now, updatedAt: call.now });
  call.core.savePost(call.ws, post);
  return created(call, post.index);
}

export function schedulePost(call: Call): Reply {
  const checked = checkSchedule(call.json, call.now);
  if (!checked.ok) throw validationError(checked.issues);
  const input = checked.value;
  if ('postId' in input) {
    const index = call.ws.findPost(input.postId);
    if (index === undefined) throw notFound('post', input.postId);
    const post = call.ws.posts.livePost(index);
    const status = call.ws.posts.status(index);
    if (!post || (status !== 'draft' && status !== 'scheduled')) {
      throw validationError([{ path: 'postId', message: `post ${input.postId} is already ${status}; only a draft (or a scheduled post, to move it) can be scheduled` }]);
    }
    post.scheduledAt = input.scheduledAt;
    post.updatedAt = call.now;
    call.ws.posts.setStatus(post, 'scheduled');
    call.core.publisher.track(call.ws, post);
    call.core.savePost(call.ws, post);
    return created(call, index);
  }
  const { scheduledAt, payloads, title } = input;
  const post = call.ws.addPost({ status: 'scheduled', payloads, ...(title !== undefined ? { title } : {}), scheduledAt, createdAt: call.now, updatedAt: call.now });
  call.core.publisher.track(call.ws, post);
  call.core.savePost(call.ws, post);
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
