// The latest result of each target of a post: what `posts view` shows and what `results retry`
// plans from. A module of its own so that the view does not load retry's node:crypto (~4 ms).
import type { PostResult } from '../wire/schemas.js';

/** The latest result of each platform/account pair, by created_at (the service's order breaks ties: newest first). */
export function latestPerTarget(results: readonly PostResult[]): PostResult[] {
  const latest = new Map<string, { row: PostResult; t: number }>();
  for (const row of results) {
    const key = `${row.platform ?? ''}\u0000${row.social_account_id ?? ''}`;
    const t = row.created_at ? Date.parse(row.created_at) : NaN;
    const seen = latest.get(key);
    if (!seen || (!Number.isNaN(t) && (Number.isNaN(seen.t) || t > seen.t))) latest.set(key, { row, t });
  }
  return [...latest.values()].map((v) => v.row);
}
