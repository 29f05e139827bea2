// Moving a scheduled post: `--shift +2h` relative to the post's own time, and the words that say
// which way a move went ("2 days 3 hours earlier"), so that a relative --at counted from now
// never moves a post the wrong way unseen. Pure: the caller passes the times and the formatter.
import { durationMs, humanAgo, TimeInputError } from './when.js';
import type { Post } from '../wire/schemas.js';

const SHIFT = /^([+-])\s*((?:\d+\s*(?:w|d|h|min|m|s)\s*)+)$/i;

/** "+2h" → 7,200,000; "-1d 2h" → -93,600,000. A sign is required: it says which way the post moves. */
export function parseShift(input: string, field = '--shift'): number {
  const text = input.trim();
  const m = SHIFT.exec(text);
  if (!m) {
    const unsigned = /^\d/.test(text) ? ` (+${text} for later, -${text} for earlier)` : '';
    throw new TimeInputError(field, `${field}: "${text}" is not a shift${unsigned}`, 'give a signed duration: +2h, -30m, +1d, -1w (later with +, earlier with -)');
  }
  const ms = durationMs(m[2]!.trim())!;
  if (ms === 0) throw new TimeInputError(field, `${field}: "${text}" does not move the post`, 'give a duration other than zero: +2h, -30m, +1d');
  return m[1] === '-' ? -ms : ms;
}

/**
 * The post's own time moved by the shift. A draft has no time to move from: the error names --at.
 * The caller checks that the result lies in the future (requireFuture, field --shift).
 */
export function shiftedTime(post: Pick<Post, 'id' | 'status' | 'scheduledAt'>, shiftMs: number, field = '--shift'): number {
  const from = post.scheduledAt ? Date.parse(post.scheduledAt) : NaN;
  if (post.status !== 'scheduled' || Number.isNaN(from)) {
    throw new TimeInputError(
      field,
      `${field}: post ${post.id} is ${post.status === 'draft' ? 'a draft' : post.status} and has no time to shift from`,
      `give it a time instead: socialpub posts schedule ${post.id} --at "tomorrow 9am"`,
    );
  }
  return from + shiftMs;
}

export type MoveDirection = 'earlier' | 'later' | 'same';

export interface Move {
  fromMs: number;
  toMs: number;
  direction: MoveDirection;
  /** How far, always positive (0 when the time stays). */
  byMs: number;
}

export function describeMove(fromMs: number, toMs: number): Move {
  const direction: MoveDirection = toMs < fromMs ? 'earlier' : toMs > fromMs ? 'later' : 'same';
  return { fromMs, toMs, direction, byMs: Math.abs(toMs - fromMs) };
}

/** The move of a post that was scheduled, or undefined when it was a draft (nothing moves). */
export function moveOf(post: Pick<Post, 'status' | 'scheduledAt'>, toMs: number): Move | undefined {
  if (post.status !== 'scheduled' || !post.scheduledAt) return undefined;
  const from = Date.parse(post.scheduledAt);
  return Number.isNaN(from) ? undefined : describeMove(from, toMs);
}

/** "3 days 2 hours earlier", "30 min later", "unchanged". */
export function moveAmount(move: Move): string {
  if (move.direction === 'same') return 'the same time';
  return `${move.byMs < 60_000 ? `${Math.round(move.byMs / 1000)} s` : humanAgo(move.byMs)} ${move.direction}`;
}

/** "post_1 moves from 2026-12-01 12:30 CET to 2026-11-28 10:51 CET: 3 days 2 hours earlier" */
export function moveLine(id: string, move: Move, formatTime: (epochMs: number) => string): string {
  return `${id} moves from ${formatTime(move.fromMs)} to ${formatTime(move.toMs)}: ${moveAmount(move)}`;
}
