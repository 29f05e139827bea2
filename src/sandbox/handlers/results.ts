// GET /api/v1/post-results and GET /api/v1/post-results/{id}.
import { isPlatform, PLATFORMS, type Platform } from '../../wire/platforms.js';
import { badRequest, notFound, type Reply } from '../http/reply.js';
import { multiValues, pageParams } from '../http/query.js';
import type { Call } from '../routes.js';
import { resultWithComment } from '../first-comment.js';

export function listResults(call: Call): Reply {
  const postIds = multiValues(call.query, 'post_id');
  const platforms = multiValues(call.query, 'platform');
  const unknown = platforms.filter((p) => !isPlatform(p));
  if (unknown.length) {
    throw badRequest(`unknown platform ${unknown.map((p) => JSON.stringify(p)).join(', ')}`, [
      { path: 'platform', message: `must be one of ${PLATFORMS.join(', ')}` },
    ]);
  }
  const { offset, limit } = pageParams(call.query);
  const accountIds = multiValues(call.query, 'social_account_id');
  const page = call.ws.resultsPage({ postIds, platforms: platforms as Platform[], accountIds }, offset, limit);
  return { status: 200, body: { data: page.items.map((r) => resultWithComment(call.core, call.ws, r)), meta: { offset, limit, total: page.total } } };
}

export function getResult(call: Call): Reply {
  const id = call.params[0]!;
  const row = call.ws.findResult(id);
  if (row === undefined) throw notFound('post result', id);
  return { status: 200, body: resultWithComment(call.core, call.ws, row) };
}
