// Reading a post as the service sent it: its payloads as objects, a payload's text, its headline
// (the title, else the first text), and how its outcome reads: the status, and when targets
// partly failed, how many went out ("failed · 3/5 published", from the post's `targets`; a
// service without them: the status alone). Small on purpose: `posts view` loads it on every run.
import type { Post } from '../wire/schemas.js';

/** A scheduled post still not published this long after its time is overdue: support should look. */
export const OVERDUE_MS = 5 * 60_000;

/** How long past its time a post is that is still `scheduled` OVERDUE_MS after it; undefined when it is not overdue. */
export function overdueBy(post: Pick<Post, 'status' | 'scheduledAt'>, now: number): number | undefined {
  const due = post.status === 'scheduled' && typeof post.scheduledAt === 'string' ? Date.parse(post.scheduledAt) : NaN;
  return Number.isFinite(due) && now - due >= OVERDUE_MS ? now - due : undefined;
}

/** "12 min", "3 h 5 min", "2 days". */
export function lateness(ms: number): string {
  const m = Math.floor(ms / 60_000);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  return `${Math.floor(h / 24)} days`;
}

/** A post's status as people read it (`failed · 3/5 published`); with `now`, a scheduled post past its time is `scheduled · overdue by 12 min`. */
export function postStatusText(post: Pick<Post, 'status' | 'targets'> & { scheduledAt?: string | null | undefined }, now?: number): string {
  const late = now === undefined ? undefined : overdueBy({ status: post.status, scheduledAt: post.scheduledAt ?? null }, now);
  if (late !== undefined) return `${post.status} · overdue by ${lateness(late)}`;
  const targets = Object.values(post.targets ?? {});
  if (post.status !== 'failed' || targets.length === 0) return post.status;
  const published = targets.filter((t) => t === 'published').length;
  return `failed · ${published}/${targets.length} published`;
}

/** Only a draft or a scheduled post can change (edit, move, delete); one that went out cannot. */
export const canChange = (post: Pick<Post, 'status'>): boolean => post.status === 'draft' || post.status === 'scheduled';

export type Payload = Record<string, unknown>;
export const isObject = (v: unknown): v is Payload => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The post's payloads as objects (anything else a service sent is treated as an empty payload). */
export function payloadsOf(post: Pick<Post, 'payloads'>): Record<string, Payload> {
  const out: Record<string, Payload> = {};
  for (const [p, v] of Object.entries(post.payloads ?? {})) out[p] = isObject(v) ? v : {};
  return out;
}

export const textOf = (payload: Payload | undefined): string => (typeof payload?.text === 'string' ? payload.text : '');

/** The first platform's text ('' when none has one). */
export function firstText(post: Post): string {
  for (const payload of Object.values(post.payloads ?? {})) {
    const text = (payload as { text?: unknown } | null)?.text;
    if (typeof text === 'string' && text) return text;
  }
  return '';
}

/** The title, else the first platform's text. */
export function headline(post: Post): string {
  return post.title || firstText(post);
}
