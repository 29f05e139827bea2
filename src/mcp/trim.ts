// Rows as an assistant gets them in lists: the fields that answer "what happened", short enough
// that 50 rows fit in its context. `get_result` returns a whole row.
import type { Post, PostResult } from '../wire/schemas.js';

/** Longest text shown for a post in a list (a tweet's worth). */
export const TEXT_PREVIEW = 280;

export interface ResultRow {
  id: string;
  post_id: string;
  platform: string | null;
  success: boolean;
  created_at: string | null;
  account: string | null;
  url: string | null;
  error_code: string | null;
  error_message: string | null;
}

export function trimResult(r: PostResult): ResultRow {
  return {
    id: r.id,
    post_id: r.post_id,
    platform: r.platform ?? null,
    success: r.success,
    created_at: r.created_at ?? null,
    account: r.platform_data?.username ?? r.social_account_id ?? null,
    url: r.platform_data?.url ?? null,
    error_code: r.error?.code ?? null,
    error_message: r.error?.message ?? null,
  };
}

export interface PostRow {
  id: string;
  status: string;
  title: string | null;
  scheduled_at: string | null;
  created_at: string | null;
  platforms: string[];
  /** The first platform's text, cut at TEXT_PREVIEW characters. */
  text: string | null;
  /** Whether text was cut: the whole is in get_post (an assistant must not re-post the preview). */
  text_truncated: boolean;
}

export function trimPost(p: Post): PostRow {
  const first = Object.values(p.payloads).find((v): v is { text: string } => typeof (v as { text?: unknown } | null)?.text === 'string');
  const text = first ? [...first.text] : undefined;
  return {
    id: p.id,
    status: p.status,
    title: p.title ?? null,
    scheduled_at: p.scheduledAt ?? null,
    created_at: p.createdAt ?? null,
    platforms: Object.keys(p.payloads),
    text: text ? (text.length > TEXT_PREVIEW ? `${text.slice(0, TEXT_PREVIEW - 1).join('')}…` : text.join('')) : null,
    text_truncated: text !== undefined && text.length > TEXT_PREVIEW,
  };
}
