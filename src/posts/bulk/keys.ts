// Each bulk row's idempotency key: profile + the row's content (+ how many identical rows came
// before it). Deliberately not the row's position: inserting a row at the top of a file and
// running it again must not re-create every row below it. Two identical rows stay two posts.
import type { MediaFacts } from '../media-facts.js';
import type { MediaSource } from '../draft.js';
import { buildBody } from '../body.js';
import { deriveKey, stableStringify } from '../keys.js';
import type { BulkRow } from './rows.js';

/** The row as written (media as the paths/URLs given, the time resolved to UTC). */
export function rowContent(row: BulkRow, facts: Map<MediaSource, MediaFacts>): string {
  if (row.postId !== undefined) return stableStringify({ postId: row.postId, scheduledAt: row.at?.iso });
  const sources = new Map<string, string>();
  for (const p of row.draft?.platforms ?? []) for (const m of p.media) if (!m.isUrl) sources.set(m.path!, m.source);
  const body = buildBody(row.draft!, facts, (path) => `file:${sources.get(path) ?? path}`);
  return stableStringify({ ...body, scheduledAt: row.at?.iso });
}

export function rowKeys(rows: readonly BulkRow[], facts: Map<MediaSource, MediaFacts>, profile: string): Map<number, string> {
  const seen = new Map<string, number>();
  const keys = new Map<number, string>();
  for (const row of rows) {
    if (row.issues.length) continue;
    const content = rowContent(row, facts);
    const occurrence = seen.get(content) ?? 0;
    seen.set(content, occurrence + 1);
    keys.set(row.index, deriveKey('socialpub-bulk-v1', profile, content, String(occurrence)));
  }
  return keys;
}
