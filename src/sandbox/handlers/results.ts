// GET /api/v1/post-results and GET /api/v1/post-results/{id}.
import { platformId } from '../../wire/contract.js';
import { notFound, type Reply } from '../http/reply.js';
import { enumValues, multiValues, pageParams } from '../http/query.js';
import type { Call } from '../routes.js';
import { resultWithComment } from '../first-comment.js';

export function listResults(call: Call): Reply {
  const postIds = multiValues(call.query, 'post_id');
  const platforms = enumValues(call.query, 'platform', platformId, 'platform');
  const { offset, limit } = pageParams(call.query);
  const accountIds = multiValues(call.query, 'social_account_id');
  const page = call.ws.resultsPage({ postIds, platforms, accountIds }, offset, limit);
  return { status: 200, body: { data: page.items.map((r) => resultWithComment(call.core, call.ws, r)), meta: { offset, limit, total: page.total } } };
}

export function getResult(call: Call): Reply {
  const id = call.params[0]!;
  const row = call.ws.findResult(id);
  if (row === undefined) throw notFound('post result', id);
  return { status: 200, body: resultWithComment(call.core, call.ws, row) };
}
