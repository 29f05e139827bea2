// `results retry <post-id>`: which targets of a post to send again (those whose latest result
// failed), the new post's body (their original payloads, the title kept) and an idempotency key
// derived from the post and those targets, so a re-run (or a CI re-run) gets the same new post.
// Every failed target is carried, whatever its cause; one the platform refused for its content
// carries the fix it needs, since sent again unchanged it would most likely fail the same way.
import { createHash } from 'node:crypto';
import { isPlatform, PLATFORM_LIMITS } from '../wire/platforms.js';
import type { RuleCode } from '../wire/post-rules.js';
import type { CreatePostBody, Payloads, Post, PostResult } from '../wire/schemas.js';
import { FieldInputError, InvalidInputError } from '../wire/invalid-input.js';
import { latestPerTarget } from './latest.js';

/** Nothing failed (or nothing was published yet): the command exits 2 with this message. */
export class NothingToRetryError extends InvalidInputError {
  readonly postId: string;
  constructor(postId: string, message: string) {
    super([{ field: '<post-id>', message }]);
    this.name = 'NothingToRetryError';
    this.postId = postId;
  }
}

/** Bad input the client can tell before sending anything (exit 2): names the argument or flag. */
export class RetryInputError extends FieldInputError {
  constructor(field: string, message: string, hint?: string) {
    super(field, message, hint);
    this.name = 'RetryInputError';
  }
}

/**
 * Failure codes that say the platform refused the post's content, with what to change: the
 * platform rules' codes, and a duplicate of a recent post. Any other code (rate limit, outage,
 * expired token, lost permission, or one this client does not know) is cured outside the payload.
 */
const CONTENT_FIXES: Record<RuleCode | 'DUPLICATE_CONTENT', string> = {
  TEXT_TOO_LONG: 'shorten the text',
  TEXT_INVALID: 'correct the text',
  MEDIA_REQUIRED: 'add an image or a video',
  MEDIA_REJECTED: 'replace the media the platform refused',
  TITLE_REQUIRED: 'add a title',
  OPTION_INVALID: "correct the platform's settings (options)",
  NOT_SUPPORTED: 'leave out what the platform does not take (a thread or a first comment)',
  DUPLICATE_CONTENT: 'change the text',
};

/** What to change before a target that failed with this code can succeed; undefined when sending it again can. */
export function contentFix(code: string | undefined, platform: string): string | undefined {
  if (code === undefined || !Object.hasOwn(CONTENT_FIXES, code)) return undefined;
  // A platform that takes only videos (YouTube) is not told to add an image.
  if (code === 'MEDIA_REQUIRED' && isPlatform(platform) && !PLATFORM_LIMITS[platform].media.image) return 'add a video';
  return CONTENT_FIXES[code as keyof typeof CONTENT_FIXES];
}

/** One failed target: a platform (and the account on it) whose latest result failed. */
export interface RetryTarget {
  platform: string;
  accountId: string | null;
  username: string | undefined;
  resultId: string;
  code: string | undefined;
  message: string | undefined;
  at: string | undefined;
  /** Set when the platform refused the content: what to change before it can succeed. */
  fix: string | undefined;
}

export interface RetryPlan {
  postId: string;
  /** The failed targets carried by the new post, sorted by platform then account. */
  targets: RetryTarget[];
  /** POST /v1/posts (a draft) or, with scheduledAt added, POST /v1/schedule. */
  body: CreatePostBody;
  idempotencyKey: string;
  /** One line per target for stderr: "instagram @acme: MEDIA_REJECTED: …". */
  reasons: string[];
  /** Failed targets left out because their account is expired or disconnected (see PlanOptions.unhealthy). */
  skipped: RetryTarget[];
}

export interface PlanOptions {
  /** --platform: retry only these of the failed platforms. */
  platforms?: readonly string[];
  /**
   * Accounts (ids) that are expired or disconnected: their targets would fail the same way, so
   * they are left out (reported in `skipped`). Empty or absent: every failed target is retried.
   */
  unhealthy?: ReadonlySet<string>;
}

/** "instagram @acme: MEDIA_REJECTED: the image is too small". */
export function reasonLine(t: RetryTarget): string {
  const who = t.username ? ` @${t.username.replace(/^@/, '')}` : t.accountId ? ` ${t.accountId}` : '';
  const why = [t.code, t.message].filter(Boolean).join(': ') || 'failed without an error code';
  return `${t.platform}${who}: ${why}${t.fix ? ` (refused for its content: ${t.fix} first)` : ''}`;
}

/** The derived key: the post id and the sorted platforms retried, hashed so it stays short and stable. */
export function retryKey(postId: string, platforms: readonly string[]): string {
  const sorted = [...new Set(platforms)].sort();
  const digest = createHash('sha256').update(`socialpub retry\n${postId}\n${sorted.join('\n')}`).digest('hex');
  return `retry-${postId}-${digest.slice(0, 16)}`;
}

export function planRetry(post: Post, results: readonly PostResult[], options: PlanOptions = {}): RetryPlan {
  const failed = latestPerTarget(results)
    .filter((r) => !r.success && r.platform)
    .map<RetryTarget>((r) => ({
      platform: r.platform!,
      accountId: r.social_account_id ?? null,
      username: r.platform_data?.username ?? undefined,
      resultId: r.id,
      code: r.error?.code,
      message: r.error?.message,
      at: r.created_at,
      fix: contentFix(r.error?.code, r.platform!),
    }))
    .sort((a, b) => cmp(a.platform, b.platform) || cmp(a.accountId ?? '', b.accountId ?? ''));

  if (failed.length === 0) {
    const message =
      results.length === 0
        ? `nothing to retry: ${post.id} has no results yet (status ${post.status})`
        : `nothing to retry: every target of ${post.id} succeeded`;
    throw new NothingToRetryError(post.id, message);
  }

  const skipped = options.unhealthy?.size ? failed.filter((t) => t.accountId !== null && options.unhealthy!.has(t.accountId)) : [];
  const retriable = failed.filter((t) => !skipped.includes(t));
  if (retriable.length === 0) {
    throw new NothingToRetryError(post.id, `nothing to retry: every failed target of ${post.id} is on an expired or disconnected account, and would fail the same way`);
  }

  const failedPlatforms = [...new Set(retriable.map((t) => t.platform))];
  let chosen = failedPlatforms;
  if (options.platforms && options.platforms.length > 0) {
    const wanted = [...new Set(options.platforms)];
    const notFailed = wanted.filter((p) => !failedPlatforms.includes(p));
    if (notFailed.length > 0) {
      throw new RetryInputError(
        '--platform',
        `--platform: ${notFailed.join(', ')} did not fail on ${post.id}${skipped.some((t) => notFailed.includes(t.platform)) ? ' (or only on expired or disconnected accounts)' : ''}`,
        `the failed targets are ${failedPlatforms.join(', ')}; name some of them, or leave --platform out`,
      );
    }
    chosen = failedPlatforms.filter((p) => wanted.includes(p));
  }

  const latest = latestPerTarget(results);
  const payloads: Payloads = {};
  const missing: string[] = [];
  const narrowed: string[] = [];
  const liveNotes = new Map<string, string>();
  for (const platform of chosen) {
    const payload = post.payloads[platform];
    if (payload === undefined || payload === null) {
      missing.push(platform);
      continue;
    }
    const accounts = retryAccounts(payload, platform, latest, skipped);
    if (accounts) narrowed.push(...accounts.map((a) => `${platform}:${a}`));
    const rest = remainingThread(payload, platform, latest, retriable);
    if (rest) liveNotes.set(platform, rest.note);
    const sent = rest ? rest.payload : payload;
    payloads[platform] = (accounts ? { ...sent, accounts } : sent) as Payloads[string];
  }
  if (missing.length > 0) {
    // A result on a platform the post has no payload for: the original cannot be sent again as it was.
    throw new NothingToRetryError(post.id, `cannot retry ${missing.join(', ')}: ${post.id} has no payload for ${missing.length === 1 ? 'it' : 'them'}`);
  }

  const targets = retriable.filter((t) => chosen.includes(t.platform));
  const body: CreatePostBody = { payloads, ...(typeof post.title === 'string' && post.title !== '' ? { title: post.title } : {}) };
  const reasons = targets.map((t) => `${reasonLine(t)}${liveNotes.has(t.platform) ? ` (${liveNotes.get(t.platform)})` : ''}`);
  return { postId: post.id, targets, body, idempotencyKey: retryKey(post.id, [...chosen, ...narrowed]), reasons, skipped };
}

/**
 * A thread that failed at a later part (THREAD_PART_FAILED, the part's index into `thread` in the
 * result's context) has its earlier parts live: sent whole again, they would be published twice.
 * When every failed target of the platform broke at the same part, the retry sends that part and
 * those after it (as a thread of their own: the API cannot reply to the live one). Undefined:
 * the payload goes as it was (no thread, another failure, or targets broken at different parts).
 */
function remainingThread(payload: object, platform: string, latest: readonly PostResult[], retriable: readonly RetryTarget[]): { payload: Record<string, unknown>; note: string } | undefined {
  const { thread, text: _text, media: _media, ...rest } = payload as Record<string, unknown>;
  if (!Array.isArray(thread) || thread.length === 0) return undefined;
  const ids = new Set(retriable.filter((t) => t.platform === platform).map((t) => t.resultId));
  const cuts = latest.filter((r) => ids.has(r.id)).map((r) => (r.error?.code === 'THREAD_PART_FAILED' ? (r.error.context as { part?: unknown } | undefined)?.part : undefined));
  const at = cuts[0];
  if (typeof at !== 'number' || !Number.isInteger(at) || at < 0 || at >= thread.length || cuts.some((c) => c !== at)) return undefined;
  const first = thread[at] as { text?: unknown; media?: unknown };
  const parts = thread.length + 1;
  return {
    payload: { ...rest, text: first.text, ...(Array.isArray(first.media) && first.media.length ? { media: first.media } : {}), ...(at + 1 < thread.length ? { thread: thread.slice(at + 1) } : {}) },
    note: `part${at === 0 ? ' 1 is' : `s 1–${at + 1} are`} live: only part${at + 2 === parts ? ` ${parts}` : `s ${at + 2}–${parts}`} of ${parts} sent, as a new post`,
  };
}

/**
 * A payload that names several accounts goes again only to those that did not succeed and are not
 * left out: sent as it was, it would publish twice to the others. Undefined: the payload as it was.
 */
function retryAccounts(payload: unknown, platform: string, latest: readonly PostResult[], skipped: readonly RetryTarget[]): string[] | undefined {
  const named = (payload as { accounts?: unknown }).accounts;
  if (!Array.isArray(named) || !named.every((a) => typeof a === 'string')) return undefined;
  const done = new Set(latest.filter((r) => r.platform === platform && r.success && r.social_account_id).map((r) => r.social_account_id!));
  const left = new Set(skipped.filter((t) => t.platform === platform).map((t) => t.accountId));
  let keep = named.filter((a) => !done.has(a) && !left.has(a));
  // A failure tied to no account: the accounts that did not succeed, since it may be any of them.
  if (keep.length === 0) keep = named.filter((a) => !done.has(a));
  return keep.length === 0 || keep.length === named.length ? undefined : keep;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
