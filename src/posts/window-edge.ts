// A window edge as `posts queue --from/--to` read it (and `posts calendar --from`): any --at form,
// or a day alone.
import { fromWallClock, parseAt } from './when.js';
import { addDays, localTime } from './local-day.js';

/** A day alone: a date, or a day's name ("today", "tomorrow", "fri"). */
const DAY_ONLY = /^(?:\d{4}-\d{2}-\d{2}|today|tomorrow|(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*)$/i;

/**
 * Epoch ms of an edge: any --at form, or a day alone: from its start (local midnight), or with
 * `end` through its end, so that `--to fri` or `--to 2026-12-31` includes that day's posts.
 */
export function windowEdge(input: string, flag: string, now: number, zone: string, end = false): number {
  const day = input.trim();
  if (!DAY_ONLY.test(day)) return parseAt(input, { now, zone, field: flag }).epochMs;
  const start = parseAt(`${day} 00:00`, { now, zone, field: flag }).epochMs;
  return end ? fromWallClock({ ...addDays(localTime(start, zone), 1), hour: 0, minute: 0, second: 0 }, zone, flag) : start;
}
