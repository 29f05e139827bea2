// wait_for_results: polls until every platform of a post has reported a result, or the timeout
// passes. One call waits at most CALL_WAIT_MS, so it answers well within the official SDK
// client's 60 s request timeout; a longer wait returns what it has and says "call again". A draft,
// or a post due after the wait, is answered at once; an outage that outlasts one call is told, with
// "call again", unless the wait itself is over. Progress goes out at least every 10 s, so a
// client that resets its timeout on progress can wait longer on purpose.
import { isOutage, lookUpWaitTarget, outageRider, pollUntilReported } from '../../results/wait.js';
import * as waitState from '../../results/wait-state.js';
import { noSuchPost } from '../errors.js';
import { trimResult } from '../trim.js';
import type { ToolContext, ToolDefinition } from '../types.js';
import { int, MAX_ROWS, postId, postIdArg } from './fields.js';
import type { Post } from '../../wire/schemas.js';

export const MAX_TIMEOUT_S = 600;
export const DEFAULT_TIMEOUT_S = 60;
/** The longest one call waits before answering "still waiting". */
export const CALL_WAIT_MS = 40_000;
/** The longest gap between two progress notifications. */
export const PROGRESS_EVERY_MS = 10_000;

export const waitForResults: ToolDefinition = {
  name: 'wait_for_results',
  description:
    `Wait until every platform of a post has a publishing result, or timeout_seconds (1–${MAX_TIMEOUT_S}, default ${DEFAULT_TIMEOUT_S}) pass. A call waits at most ${CALL_WAIT_MS / 1000} s, then answers still_waiting: true: call again. A draft, or a post due after the wait, is answered at once with why.`,
  inputSchema: {
    type: 'object',
    properties: {
      post_id: postId,
      timeout_seconds: { type: 'integer', minimum: 1, maximum: MAX_TIMEOUT_S },
      expect: { type: 'integer', description: 'results to wait for, instead of one per platform', minimum: 1, maximum: 1000 },
    },
    required: ['post_id'],
    additionalProperties: false,
  },
  annotations: { title: 'Wait for publishing results', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  write: false,
  ownProgress: true,
  async run(args, tc) {
    const postId = postIdArg(args.post_id);
    const expect = int(args.expect);
    const timeoutMs = (int(args.timeout_seconds) ?? DEFAULT_TIMEOUT_S) * 1000;
    const { deps } = tc;
    const started = deps.now();
    const deadline = started + timeoutMs;
    const callEnd = Math.min(deadline, started + CALL_WAIT_MS);
    const progress = progressKeeper(tc);
    const notes: string[] = [];
    let targets: string[] = [];
    let last: waitState.WaitState | undefined;
    const sleep = (ms: number) => deps.sleep(ms, tc.signal);
    const onOutage = (err: Error) => notes.push(`the service did not answer for a while (${err.message}); kept polling`);
    try {
      const client = await deps.client();
      const notFound = () => noSuchPost(postId, deps.profileName);
      const blockedAnswer = (post: Pick<Post, 'scheduledAt'>, reason: string, expected: number) => {
        const why = reason === 'draft' ? `post ${postId} is a draft: it gets results only once it is scheduled (schedule_post)` : `post ${postId} is scheduled for ${post.scheduledAt}, after this wait would end: no platform can report before then; wait_for_results again once it is due`;
        return { post_id: postId, done: false, timed_out: false, still_waiting: false, reported: 0, expected, missing: targets, failed: [], results: [], reason: why };
      };
      if (expect !== undefined) {
        // The targets are not needed, but an id that names no post (a typo), a draft or a post due
        // after the wait is still told at once, not polled for until the wait ends. One look: an
        // outage leaves the answer to the polls below, which ride it out.
        const found = await lookUpWaitTarget(client, postId, { lookUpBy: callEnd, deadline }).catch((err: unknown) => {
          if (isOutage(err)) return undefined;
          throw err;
        });
        if (found && !found.found) throw notFound();
        if (found?.blocked) return blockedAnswer(found.post, found.blocked.reason, expect);
      } else {
        // The look-up rides out an outage too, within the call.
        const lookUp = outageRider({ deadline: callEnd, now: deps.now, sleep, onOutage });
        const found = await lookUp(() => lookUpWaitTarget(client, postId, { lookUpBy: callEnd, deadline })).catch((err: unknown) => {
          // Down through this call with time left: as below, but nothing is known of the post yet.
          if (isOutage(err) && callEnd < deadline) return undefined;
          throw err;
        });
        if (found && !found.found) throw notFound();
        if (!found) {
          notes.push(`the service is not answering, so the post could not be looked up yet; call again to keep waiting`);
          return { post_id: postId, done: false, timed_out: false, still_waiting: true, reported: 0, expected: null, missing: [], failed: [], results: [], notes };
        }
        const { post, blocked } = found;
        targets = [...found.target.targets];
        if (blocked) return blockedAnswer(post, blocked.reason, targets.length);
        if (post.scheduledAt) notes.push(`scheduled for ${post.scheduledAt}`);
      }
      const { state, timedOut } = await pollUntilReported({
        client,
        posts: [{ postId, targets }],
        expect,
        deadline: callEnd,
        now: deps.now,
        sleep,
        onPoll: (s) => {
          last = s;
          return progress.report(s, waitState.progressText(s, expect !== undefined));
        },
        onOutage,
      }).catch((err: unknown) => {
        // Down through the end of this call while the wait has time left: what was known, and
        // "call again", as for any wait longer than one call. At the wait's own end, the failure.
        if (!(isOutage(err) && callEnd < deadline)) throw err;
        notes.push(`the service is not answering (${err.message})`);
        return { state: last ?? waitState.assessResults([], targets, expect), timedOut: true };
      });
      const stillWaiting = timedOut && callEnd < deadline;
      if (stillWaiting) notes.push(`still waiting after ${CALL_WAIT_MS / 1000} s (one call answers within 50 s); call again to keep waiting`);
      return {
        post_id: postId,
        done: state.done,
        timed_out: timedOut && !stillWaiting,
        still_waiting: stillWaiting,
        reported: state.reported,
        expected: state.expected,
        missing: state.missing,
        failed: state.failures.map((f) => ({ id: f.id, platform: f.platform ?? null, error_code: f.error?.code ?? null, error_message: f.error?.message ?? null })),
        results: state.rows.slice(0, MAX_ROWS).map(trimResult),
        ...(notes.length ? { notes } : {}),
      };
    } finally {
      progress.stop();
    }
  },
};

/**
 * Progress for the call: after every poll, and in between at least every PROGRESS_EVERY_MS with
 * the last message. The value is the platforms reported (0 of 1 reads 0, not the time gone by);
 * as it must grow with each notification, a repeat adds a thousandth per beat (at most 0.05),
 * so a ratio never claims more than is done.
 */
function progressKeeper(tc: ToolContext) {
  const { now, sleep } = tc.deps;
  let last: { reported: number; expected: number | undefined; done: boolean; text: string } = { reported: 0, expected: undefined, done: false, text: 'looking up the post' };
  let lastSent = now();
  const stopped = new AbortController();
  let beats = 0;
  let beatsOf = -1;
  const send = async () => {
    lastSent = now();
    beats = beatsOf === last.reported ? Math.min(50, beats + 1) : 0;
    beatsOf = last.reported;
    const value = last.done ? last.reported : last.reported + beats / 1000;
    await tc.progress(value, last.expected, last.text).catch(() => undefined);
  };
  void (async () => {
    const signal = AbortSignal.any([stopped.signal, tc.signal]);
    while (!signal.aborted) {
      try {
        await sleep(Math.max(1, lastSent + PROGRESS_EVERY_MS - now()), signal);
      } catch {
        return;
      }
      if (!signal.aborted && now() - lastSent >= PROGRESS_EVERY_MS) await send();
    }
  })();
  return {
    async report(s: waitState.WaitState, text: string) {
      last = { reported: s.reported, expected: s.expected, done: s.done, text };
      await send();
    },
    stop: () => stopped.abort(),
  };
}
