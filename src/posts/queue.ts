// `posts queue`: the scheduled posts due in a window, earliest first, grouped by local day. The
// service lists posts newest-created first and cannot filter by time, so every scheduled post is
// read page by page and only those inside the window are kept — at most `cap` of them, the
// earliest (a max-heap on the time drops the latest), so memory stays bounded however many posts
// the workspace holds and however wide the window is; the count of all posts in the window is kept.
import type { Post } from '../wire/schemas.js';
import { clockText, dateKey, localTime } from './local-day.js';
import { firstText } from './outcome.js';

/** How many posts a queue keeps at most (the earliest ones in the window). */
export const QUEUE_CAP = 2000;

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

export interface QueuedPost {
  id: string;
  /** UTC, as the service gave it. */
  scheduledAt: string;
  /** Local "HH:MM" in the zone. */
  time: string;
  platforms: string[];
  title: string | null;
  /** The first platform's text. */
  text: string;
}

export interface QueueDay {
  /** Local "YYYY-MM-DD". */
  date: string;
  weekday: string;
  posts: QueuedPost[];
}

/** The `--json` shape. */
export interface QueueData {
  zone: string;
  from: string;
  to: string;
  /** Scheduled posts in the window; more than are shown when the cap was reached. */
  total: number;
  shown: number;
  days: QueueDay[];
}

interface Kept {
  at: number;
  post: Post;
}

/** Keeps the `cap` earliest posts of [from, to) from a stream of posts in any order. */
export class QueueWindow {
  private readonly heap: Kept[] = [];
  total = 0;

  constructor(
    readonly from: number,
    readonly to: number,
    private readonly cap = QUEUE_CAP,
  ) {}

  offer(post: Post): void {
    if (post.status !== 'scheduled' || !post.scheduledAt) return;
    const at = Date.parse(post.scheduledAt);
    if (!(at >= this.from && at < this.to)) return;
    this.total++;
    const h = this.heap;
    if (h.length < this.cap) {
      h.push({ at, post });
      this.up(h.length - 1);
    } else if (at < h[0]!.at) {
      h[0] = { at, post };
      this.down(0);
    }
  }

  /** The kept posts, earliest first (ties: by id, so the order is stable). */
  sorted(): Post[] {
    return [...this.heap].sort((a, b) => a.at - b.at || (a.post.id < b.post.id ? -1 : 1)).map((k) => k.post);
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (h[parent]!.at >= h[i]!.at) return;
      [h[parent], h[i]] = [h[i]!, h[parent]!];
      i = parent;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < h.length && h[l]!.at > h[top]!.at) top = l;
      if (r < h.length && h[r]!.at > h[top]!.at) top = r;
      if (top === i) return;
      [h[top], h[i]] = [h[i]!, h[top]!];
      i = top;
    }
  }
}

/** The kept posts grouped by local day in `zone`. */
export function queueData(window: QueueWindow, zone: string): QueueData {
  const days: QueueDay[] = [];
  const posts = window.sorted();
  for (const post of posts) {
    const local = localTime(Date.parse(post.scheduledAt!), zone);
    const date = dateKey(local);
    let day = days[days.length - 1];
    if (!day || day.date !== date) days.push((day = { date, weekday: WEEKDAYS[local.weekday]!, posts: [] }));
    day.posts.push({ id: post.id, scheduledAt: post.scheduledAt!, time: clockText(local), platforms: Object.keys(post.payloads ?? {}), title: post.title ?? null, text: firstText(post) });
  }
  return { zone, from: new Date(window.from).toISOString(), to: new Date(window.to).toISOString(), total: window.total, shown: posts.length, days };
}
