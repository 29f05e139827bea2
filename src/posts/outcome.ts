// Reading a post as the service sent it: its payloads as objects, a payload's text, its headline
// (the title, else the first text), and how its outcome reads: the status, and when targets
// partly failed, how many went out ("failed · 3/5 published", from the post's `targets`; a
// service without them: the status alone). Small on purpose: `posts view` loads it on every run.
import type { Post } from '../wire/schemas.js';

export function outcomeText(post: Pick<Post, 'status' | 'targets'>): string {
  const targets = Object.values(post.targets ?? {});
  if (post.status !== 'failed' || targets.length === 0) return post.status;
  const published = targets.filter((t) => t === 'published').length;
  return `failed · ${published}/${targets.length} published`;
}

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
