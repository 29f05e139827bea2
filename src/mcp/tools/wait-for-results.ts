// wait_for_results: polls until every platform of a post has reported a result, or the timeout
// passes, sending progress notifications as results come in. A timeout is an answer, not an
// error: the assistant can call again.
import { findPost, PostNotFoundError } from '../../posts/find.js';
import { pollUntilReported } from '../../results/wait.js';
import * as waitState from '../../results/wait-state.js';
import { ToolError } from '../errors.js';
import { trimResult } from '../trim.js';
import type { ToolDefinition } from '../types.js';
import { int, MAX_ROWS } from './fields.js';

export const MAX_TIMEOUT_S = 600;
export const DEFAULT_TIMEOUT_S = 60;

export const waitForResults: ToolDefinition = {
  name: 'wait_for_results',
  description: `Wait until every platform of a post has a publishing result (or timeout_seconds pass), reporting progress meanwhile. Returns whether it is done, the results (trimmed; get_result for one in full) and which platforms failed or are still missing. A post publishes at its scheduled time, so waiting for one scheduled far ahead only times out; a timeout is not an error, call again to keep waiting.`,
  inputSchema: {
    type: 'object',
    properties: {
      post_id: { type: 'string', description: 'The post to wait for (post_…).', minLength: 1 },
      timeout_seconds: { type: 'integer', description: `How long to wait at most, 1–${MAX_TIMEOUT_S} seconds. Default ${DEFAULT_TIMEOUT_S}.`, minimum: 1, maximum: MAX_TIMEOUT_S, default: DEFAULT_TIMEOUT_S },
      expect: { type: 'integer', description: 'Wait for this many results instead of one per platform of the post (skips looking the post up).', minimum: 1, maximum: 1000 },
    },
    required: ['post_id'],
    additionalProperties: false,
  },
  annotations: { title: 'Wait for publishing results', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  write: false,
  async run(args, tc) {
    const postId = String(args.post_id).trim();
    const expect = int(args.expect);
    const timeoutMs = (int(args.timeout_seconds) ?? DEFAULT_TIMEOUT_S) * 1000;
    const { deps } = tc;
    const deadline = deps.now() + timeoutMs;
    const client = await deps.client();
    const notes: string[] = [];
    let targets: string[] = [];
    if (expect === undefined) {
      let post;
      try {
        post = await findPost(client, postId, { statusHint: ['scheduled', 'published', 'failed'] });
      } catch (err) {
        if (err instanceof PostNotFoundError) throw new ToolError({ code: 'not_found', message: `no post ${postId} in the workspace of profile ${deps.profileName}`, hints: ['list_posts shows the posts of this workspace'] });
        throw err;
      }
      targets = Object.keys(post.payloads);
      if (post.status === 'draft') notes.push(`post ${postId} is a draft: it gets results only once it is scheduled (schedule_post)`);
      if (post.scheduledAt) notes.push(`scheduled for ${post.scheduledAt}`);
    }
    const { state, timedOut } = await pollUntilReported({
      client,
      posts: [{ postId, targets }],
      expect,
      deadline,
      now: deps.now,
      sleep: (ms) => deps.sleep(ms, tc.signal),
      onPoll: (state) => tc.progress(state.reported, state.expected, waitState.progressText(state, expect !== undefined)),
    });
    return {
      post_id: postId,
      done: state.done,
      timed_out: timedOut,
      reported: state.reported,
      expected: state.expected,
      missing: state.missing,
      failed: state.failures.map((f) => ({ id: f.id, platform: f.platform ?? null, error_code: f.error?.code ?? null, error_message: f.error?.message ?? null })),
      results: state.rows.slice(0, MAX_ROWS).map(trimResult),
      ...(notes.length ? { notes } : {}),
    };
  },
};
