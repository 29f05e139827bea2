// A first comment (contract 7.3) is posted right after its post: the post is live whatever
// becomes of it, so its outcome is told in the result row (`first_comment`), never as the
// target's failure. Decided from the row like every outcome here: seeded and reproducible.
import { isPlatform } from '../wire/platforms.js';
import { failureFor } from './failures.js';
import { STREAM, unit, type Entropy } from './random.js';
import type { ResultJson, Workspace } from './workspace.js';

export interface FirstCommentOutcome {
  status: 'published' | 'failed';
  id?: string;
  url?: string | null;
  error?: { code: string; message: string; context: Record<string, unknown> };
}

export type ResultWithComment = ResultJson & { first_comment?: FirstCommentOutcome };

/** The result row, with the outcome of its first comment when the post had one and was published. */
export function resultWithComment(host: { entropy: Entropy; failureRate: number }, ws: Workspace, row: number): ResultWithComment {
  const r = ws.resultJson(row);
  if (!r.success || !isPlatform(r.platform)) return r;
  const index = ws.findPost(r.post_id);
  const payload = index === undefined ? undefined : ws.livePost(index)?.payloads[r.platform];
  if (typeof payload?.firstComment !== 'string') return r;
  // Half the post's failure rate: a comment is a smaller request than the post it follows.
  if (unit(host.entropy, STREAM.firstComment, ws.tag, row) < host.failureRate / 2) {
    const why = failureFor(host.entropy, ws.tag, row, r.platform, false, 0, true);
    return { ...r, first_comment: { status: 'failed', error: { code: why.code, message: `The post is live; its first comment was not posted: ${why.message}`, context: why.context } } };
  }
  const postId = r.platform_data?.id ?? r.id;
  return { ...r, first_comment: { status: 'published', id: `${postId}_c1`, url: r.platform_data?.url ?? null } };
}
