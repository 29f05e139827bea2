// When a SyncPostly post goes out, from `is_draft` and `scheduled_at` (documented: `is_draft: true`
// keeps it a draft; a future time schedules it; null with `is_draft` false publishes now), laid over
// the post's current state on PATCH (an omitted field keeps its value). A draft has no time in the
// store (as in our contract), so a time sent for a draft is refused rather than dropped
// (assumptions.drafts). Publishing now is a post scheduled at this instant: the publisher sends it
// at once, and until it has, the post reads as `processing`.
import type { SpUpdatePost } from '../../wire/syncpostly/schemas.js';
import { checkScheduledAt, type Issue } from '../validation.js';
import type { SpIssue } from './dialect.js';

export type Timing = { status: 'draft'; scheduledAt: null } | { status: 'scheduled'; scheduledAt: number };

type TimeFields = Pick<SpUpdatePost, 'is_draft' | 'scheduled_at'>;

/** `current`: the post a PATCH changes (undefined on create). */
export function timingOf(body: TimeFields, current: { status: string; scheduledAt: number | null } | undefined, now: number): { ok: true; value: Timing } | { ok: false; issues: SpIssue[] } {
  const wasDraft = current?.status === 'draft';
  const isDraft = body.is_draft !== undefined ? body.is_draft === true : wasDraft;
  const given = body.scheduled_at !== undefined;
  const fail = (message: string) => ({ ok: false as const, issues: [{ path: ['scheduled_at'], message, code: 'custom' }] });
  if (isDraft) {
    if (given && body.scheduled_at !== null) {
      return fail(
        body.is_draft === true
          ? 'is_draft is true: a draft has no time here; send is_draft: false to schedule the post at this time, or scheduled_at: null'
          : 'the post is a draft: send is_draft: false with scheduled_at to schedule it',
      );
    }
    return { ok: true, value: { status: 'draft', scheduledAt: null } };
  }
  if (!given && current && !wasDraft && current.scheduledAt !== null) return { ok: true, value: { status: 'scheduled', scheduledAt: current.scheduledAt } };
  const at = given ? body.scheduled_at : null;
  if (at === null || at === undefined) return { ok: true, value: { status: 'scheduled', scheduledAt: now } };
  const issues: Issue[] = [];
  const ms = checkScheduledAt(at, now, issues);
  if (ms === undefined) return fail(issues[0]?.message ?? 'must be a future ISO 8601 time');
  return { ok: true, value: { status: 'scheduled', scheduledAt: ms } };
}
