// How a post's outcome reads: its status, and when targets partly failed, how many went out
// ("failed · 3/5 published"), from the post's `targets` (a service without them: the status alone).
import type { Post } from '../wire/schemas.js';

export function outcomeText(post: Pick<Post, 'status' | 'targets'>): string {
  const targets = Object.values(post.targets ?? {});
  if (post.status !== 'failed' || targets.length === 0) return post.status;
  const published = targets.filter((t) => t === 'published').length;
  return `failed · ${published}/${targets.length} published`;
}
