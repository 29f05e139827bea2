// Why a publish fails: the codes a support person meets in practice, each with the provider's
// own error in `context`, shaped like that provider's API answers it.
import type { Platform } from '../wire/platforms.js';
import type { RuleCheck } from '../wire/post-rules.js';
import { hash, randomToken, STREAM, type Entropy } from './random.js';

export interface ResultError {
  code: string;
  message: string;
  context: Record<string, unknown>;
}

type Provider = 'x' | 'meta' | 'linkedin' | 'tiktok' | 'google' | 'bluesky' | 'pinterest' | 'generic';

/** Whose API a platform is; a platform added to src/wire/platforms.ts alone fails the generic way. */
const PROVIDER: Partial<Record<Platform, Provider>> = {
  'twitter-x': 'x',
  instagram: 'meta',
  'facebook-page': 'meta',
  threads: 'meta',
  linkedin: 'linkedin',
  tiktok: 'tiktok',
  youtube: 'google',
  bluesky: 'bluesky',
  pinterest: 'pinterest',
};

interface FailureKind {
  code: string;
  weight: number;
  message: string;
  /** The provider's answer, by provider; a provider missing here never fails this way. */
  provider: Partial<Record<Provider, (trace: string) => Record<string, unknown>>>;
}

const FAILURES: FailureKind[] = [
  {
    code: 'API_RATE_LIMIT',
    weight: 25,
    message: "The platform's rate limit was reached, so the post was not published. Publish it again later.",
    provider: {
      x: () => ({ http_status: 429, title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank' }),
      meta: (t) => ({ http_status: 400, error: { message: 'Application request limit reached', type: 'OAuthException', code: 4, is_transient: true, fbtrace_id: t } }),
      linkedin: () => ({ http_status: 429, status: 429, serviceErrorCode: 101, message: 'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.' }),
      tiktok: (t) => ({ http_status: 429, error: { code: 'rate_limit_exceeded', message: 'API rate limit exceeded, please retry later.', log_id: t } }),
      google: () => ({ http_status: 403, error: { code: 403, message: 'The request cannot be completed because you have exceeded your quota.', errors: [{ domain: 'youtube.quota', reason: 'quotaExceeded' }] } }),
      bluesky: () => ({ http_status: 429, error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' }),
      pinterest: () => ({ http_status: 429, code: 8, message: 'You have exceeded your rate limit. Try again later.' }),
      generic: () => ({ http_status: 429, message: 'Too Many Requests' }),
    },
  },
  {
    code: 'TOKEN_EXPIRED',
    weight: 20,
    message: "The connected account's access token has expired. Reconnect the account in the workspace settings.",
    provider: {
      x: () => ({ http_status: 401, title: 'Unauthorized', detail: 'Unauthorized', type: 'about:blank' }),
      meta: (t) => ({ http_status: 400, error: { message: 'Error validating access token: Session has expired.', type: 'OAuthException', code: 190, error_subcode: 463, fbtrace_id: t } }),
      linkedin: () => ({ http_status: 401, status: 401, serviceErrorCode: 65601, code: 'EXPIRED_ACCESS_TOKEN', message: 'The token used in the request has expired' }),
      tiktok: (t) => ({ http_status: 401, error: { code: 'access_token_invalid', message: 'The access token is invalid or not found in the request.', log_id: t } }),
      google: () => ({ http_status: 401, error: { code: 401, message: 'Request had invalid authentication credentials.', errors: [{ domain: 'global', reason: 'authError' }] } }),
      bluesky: () => ({ http_status: 400, error: 'ExpiredToken', message: 'Token has expired' }),
      pinterest: () => ({ http_status: 401, code: 2, message: 'Authentication failed.' }),
    },
  },
  {
    code: 'MEDIA_REJECTED',
    weight: 20,
    // A random failure states nothing about the media that the media could disprove (a 10-second
    // clip refused as "shorter than 3 seconds"): the platform could not fetch or process it,
    // which any file can meet. Failures that are the media's own come from the rules (ruleFailureFor).
    message: 'The platform could not fetch or process the media attached to the post. Publish it again; if it fails again, check that the media is still online.',
    provider: {
      x: () => ({ http_status: 400, title: 'Invalid Request', detail: 'One or more parameters to your request was invalid.', errors: [{ message: 'Your media IDs are invalid.', parameters: { 'media.media_ids': [] } }] }),
      meta: (t) => ({ http_status: 400, error: { message: 'Media download has failed.: The media could not be fetched from this uri.', type: 'OAuthException', code: 9004, error_subcode: 2207052, fbtrace_id: t } }),
      linkedin: () => ({ http_status: 400, status: 400, serviceErrorCode: 100, message: 'Media asset processing failed: the asset is in PROCESSING_FAILED state' }),
      tiktok: (t) => ({ http_status: 400, error: { code: 'video_pull_failed', message: 'Failed to pull the video from the provided URL.', log_id: t } }),
      google: () => ({ http_status: 400, error: { code: 400, message: 'The video could not be processed.', errors: [{ domain: 'youtube.video', reason: 'uploadFailed' }] } }),
      bluesky: () => ({ http_status: 400, error: 'BlobNotFound', message: 'Could not find blob: the upload did not complete' }),
      pinterest: () => ({ http_status: 400, code: 2997, message: 'Sorry, we could not fetch the image.' }),
    },
  },
  {
    code: 'DUPLICATE_CONTENT',
    weight: 10,
    message: 'The platform refused the post as a duplicate of a recent one from the same account.',
    provider: {
      x: () => ({ http_status: 403, title: 'Forbidden', detail: 'You are not allowed to create a Tweet with duplicate content.', type: 'about:blank' }),
      meta: (t) => ({ http_status: 400, error: { message: 'Duplicate status message', type: 'OAuthException', code: 506, fbtrace_id: t } }),
      linkedin: () => ({ http_status: 422, status: 422, message: 'Content is a duplicate of a share published in the last 24 hours' }),
    },
  },
  {
    code: 'PERMISSION_DENIED',
    weight: 10,
    message: 'The connected account no longer grants the permission needed to publish.',
    provider: {
      x: () => ({ http_status: 403, title: 'Forbidden', detail: 'You are not permitted to perform this action.', type: 'about:blank' }),
      meta: (t) => ({ http_status: 403, error: { message: '(#10) Application does not have permission for this action', type: 'OAuthException', code: 10, fbtrace_id: t } }),
      linkedin: () => ({ http_status: 403, status: 403, serviceErrorCode: 100, message: 'Not enough permissions to access: ugcPosts.CREATE.NO_VERSION' }),
      tiktok: (t) => ({ http_status: 403, error: { code: 'scope_not_authorized', message: 'The user did not authorize the scope required for completing this request.', log_id: t } }),
      google: () => ({ http_status: 403, error: { code: 403, message: 'The request is not properly authorized.', errors: [{ domain: 'youtube.common', reason: 'forbidden' }] } }),
      pinterest: () => ({ http_status: 403, code: 29, message: 'You are not permitted to access that resource.' }),
    },
  },
  {
    code: 'PLATFORM_UNAVAILABLE',
    weight: 15,
    message: 'The platform did not answer in time or reported an internal error.',
    provider: {
      x: () => ({ http_status: 503, title: 'Service Unavailable', detail: 'Service Unavailable', type: 'about:blank' }),
      meta: (t) => ({ http_status: 500, error: { message: 'An unexpected error has occurred. Please retry your request later.', type: 'OAuthException', code: 2, is_transient: true, fbtrace_id: t } }),
      linkedin: () => ({ http_status: 504, status: 504, message: 'Gateway Timeout' }),
      tiktok: (t) => ({ http_status: 500, error: { code: 'internal_error', message: 'Something went wrong. Please try again later.', log_id: t } }),
      google: () => ({ http_status: 503, error: { code: 503, message: 'The service is currently unavailable.', errors: [{ domain: 'global', reason: 'backendError' }] } }),
      bluesky: () => ({ http_status: 502, error: 'UpstreamFailure', message: 'Upstream Failure' }),
      pinterest: () => ({ http_status: 503, code: 3, message: 'Pinterest is temporarily unavailable. Try again later.' }),
      generic: () => ({ http_status: 503, message: 'Service Unavailable' }),
    },
  },
];

export const MEDIA_REQUIRED = 'MEDIA_REQUIRED';
export const THREAD_PART_FAILED = 'THREAD_PART_FAILED';
/** Of the random failures of a target with a thread, the share (in weight) where a later part fails. */
const THREAD_PART_WEIGHT = 40;
const MEDIA_REJECTED = 'MEDIA_REJECTED';

/**
 * Codes a live publish meets only as a fact: the account's state (TOKEN_EXPIRED; its status, see
 * AccountBook.failureNow) or an earlier post (DUPLICATE_CONTENT; duplicateFailureFor). Never drawn
 * at random for a live row; the fixtures, history made from the seed, still draw them.
 */
const FACT_CODES: ReadonlySet<string> = new Set(['TOKEN_EXPIRED', 'DUPLICATE_CONTENT']);

/**
 * How long a platform that refuses duplicates remembers a published text (per account): 24 hours,
 * as LinkedIn's refusal says ("a duplicate of a share published in the last 24 hours"); X and
 * Meta refuse a repeat of a recent post too, without naming a window.
 */
export const DUPLICATE_WINDOW_MS = 24 * 3_600_000;

/** Every code the sandbox produces (for docs and tests). */
export const FAILURE_CODES = [...FAILURES.map((f) => f.code), MEDIA_REQUIRED, THREAD_PART_FAILED, 'ACCOUNT_DISCONNECTED', 'TEXT_TOO_LONG', 'TEXT_INVALID', 'TITLE_REQUIRED', 'OPTION_INVALID', 'NOT_SUPPORTED'];

const DUPLICATE = FAILURES.find((f) => f.code === 'DUPLICATE_CONTENT')!;

const BY_PROVIDER = new Map<Provider, FailureKind[]>();
for (const provider of new Set([...Object.values(PROVIDER), 'generic' as const])) BY_PROVIDER.set(provider, FAILURES.filter((f) => f.provider[provider]));

const providerOf = (platform: Platform): Provider => PROVIDER[platform] ?? 'generic';

/**
 * The failure of one row, picked by weight from the kinds its platform can produce. A post without
 * media never fails for its media: a platform cannot refuse what it was not given. A live row
 * (published while the sandbox runs, not a fixture) never draws a FACT_CODES code.
 */
export function failureFor(e: Entropy, scope: number, row: number, platform: Platform, hasMedia = true, threadParts = 0, live = false): ResultError {
  const provider = providerOf(platform);
  const all = BY_PROVIDER.get(provider)!;
  const kinds = all.filter((k) => (hasMedia || k.code !== MEDIA_REJECTED) && !(live && FACT_CODES.has(k.code)));
  const totalWeight = kinds.reduce((n, k) => n + k.weight, 0);
  // A thread publishes part after part: a later one can fail once the first is live.
  const threadPick = threadParts > 0 ? hash(e, STREAM.failureCode, scope, row, 2) % (totalWeight + THREAD_PART_WEIGHT) : 0;
  if (threadParts > 0 && threadPick >= totalWeight) {
    const part = hash(e, STREAM.failureCode, scope, row, 3) % threadParts;
    const inner = failureFor(e, scope, row, platform, false, 0, live);
    return threadPartFailure(platform, part, threadParts, inner.message, inner.context);
  }
  let pick = hash(e, STREAM.failureCode, scope, row) % totalWeight;
  let kind = kinds[0]!;
  for (const k of kinds) {
    if (pick < k.weight) {
      kind = k;
      break;
    }
    pick -= k.weight;
  }
  const trace = randomToken(11, e, STREAM.failureCode, hash(e, STREAM.failureCode, scope, row, 1));
  return { code: kind.code, message: kind.message, context: { provider, platform, ...kind.provider[provider]!(trace) } };
}

/** A publish refused because of the account: its token expired, or it was disconnected from the workspace. */
export function accountFailureFor(e: Entropy, scope: number, row: number, platform: Platform, code: 'TOKEN_EXPIRED' | 'ACCOUNT_DISCONNECTED'): ResultError {
  const provider = providerOf(platform);
  const trace = randomToken(11, e, STREAM.failureCode, hash(e, STREAM.failureCode, scope, row, 1));
  if (code === 'TOKEN_EXPIRED') {
    const kind = FAILURES.find((f) => f.code === code)!;
    const answer = kind.provider[provider] ?? (() => ({ http_status: 401, message: 'The access token has expired.' }));
    return { code, message: kind.message, context: { provider, platform, ...answer(trace) } };
  }
  return {
    code,
    message: 'The account was disconnected from the workspace, so nothing was published to it. Reconnect it in the workspace settings, then publish again.',
    context: { provider, platform, reason: 'account_disconnected' },
  };
}

/** Whether the platform refuses a text its account published recently (a provider with a DUPLICATE_CONTENT answer). */
export function refusesDuplicates(platform: Platform): boolean {
  return DUPLICATE.provider[providerOf(platform)] !== undefined;
}

/** The earlier publish a duplicate repeated. */
export interface EarlierPost {
  postId: string;
  resultId: string;
  publishedAt: string;
}

/** A publish refused as a repeat of `earlier`, which the same account published within DUPLICATE_WINDOW_MS. */
export function duplicateFailureFor(e: Entropy, scope: number, row: number, platform: Platform, earlier: EarlierPost): ResultError {
  const provider = providerOf(platform);
  const trace = randomToken(11, e, STREAM.failureCode, hash(e, STREAM.failureCode, scope, row, 1));
  return {
    code: DUPLICATE.code,
    message: `${DUPLICATE.message.replace(/\.$/, '')}: post ${earlier.postId}, published ${earlier.publishedAt}. Change the text, or publish it after ${DUPLICATE_WINDOW_MS / 3_600_000} hours.`,
    context: { provider, platform, duplicateOf: earlier, ...DUPLICATE.provider[provider]!(trace) },
  };
}

/**
 * A later part of a thread failed (`part`: its index in `thread`, 0 = the first reply): the parts
 * before it are live, the target counts as failed, and `context` says which part and why.
 */
export function threadPartFailure(platform: Platform, part: number, parts: number, why: string, cause: Record<string, unknown>): ResultError {
  return {
    code: THREAD_PART_FAILED,
    message: `Part ${part + 2} of ${parts + 1} of the thread was not published (${why.replace(/\.$/, '')}); the parts before it are live.`,
    context: { ...cause, part, partNumber: part + 2, parts: parts + 1 },
  };
}

/**
 * A platform that publishes only media (PLATFORM_LIMITS[p].requiresMedia) was given text alone:
 * the service accepts such a draft, and the platform refuses it at publish time, as its API
 * answers a post without its image or video.
 */
const MEDIA_REQUIRED_CONTEXT: Partial<Record<Provider, (trace: string) => Record<string, unknown>>> = {
  meta: (t) => ({ http_status: 400, error: { message: 'The parameter image_url or video_url is required.', type: 'OAuthException', code: 100, fbtrace_id: t } }),
  tiktok: (t) => ({ http_status: 400, error: { code: 'invalid_params', message: 'source_info is required: a post needs a video or photos.', log_id: t } }),
  google: () => ({ http_status: 400, error: { code: 400, message: 'Media upload is required for this request.', errors: [{ domain: 'youtube.video', reason: 'mediaBodyRequired' }] } }),
  pinterest: () => ({ http_status: 400, code: 1, message: 'Invalid parameters: media_source is required to create a Pin.' }),
  generic: () => ({ http_status: 400, message: 'A post on this platform needs an image or a video.' }),
};

export function mediaRequiredFor(e: Entropy, scope: number, row: number, platform: Platform): ResultError {
  const provider = providerOf(platform);
  const context = MEDIA_REQUIRED_CONTEXT[provider] ?? MEDIA_REQUIRED_CONTEXT.generic!;
  const trace = randomToken(11, e, STREAM.failureCode, hash(e, STREAM.failureCode, scope, row, 1));
  return {
    code: MEDIA_REQUIRED,
    message: `${platform} publishes only posts with an image or a video, and this post had none for it. Add media to the ${platform} payload and publish again.`,
    context: { provider, platform, ...context(trace) },
  };
}

/** The provider's own answer to a post that breaks one of its rules, by code. */
const RULE_CONTEXT: Partial<Record<Provider, (code: string, reason: string, trace: string) => Record<string, unknown>>> = {
  x: (_c, reason) => ({ http_status: 400, title: 'Invalid Request', detail: reason, type: 'https://api.twitter.com/2/problems/invalid-request' }),
  meta: (_c, reason, t) => ({ http_status: 400, error: { message: reason, type: 'OAuthException', code: 100, error_subcode: 2207026, fbtrace_id: t } }),
  linkedin: (_c, reason) => ({ http_status: 422, status: 422, message: reason }),
  tiktok: (_c, reason, t) => ({ http_status: 400, error: { code: 'invalid_params', message: reason, log_id: t } }),
  google: (code, reason) => ({ http_status: 400, error: { code: 400, message: reason, errors: [{ domain: 'youtube.video', reason: code === 'TITLE_REQUIRED' ? 'invalidTitle' : 'invalidVideoMetadata' }] } }),
  bluesky: (_c, reason) => ({ http_status: 400, error: 'InvalidRequest', message: reason }),
  pinterest: (_c, reason) => ({ http_status: 400, code: 1, message: reason }),
  generic: (_c, reason) => ({ http_status: 400, message: reason }),
};

/**
 * A target that broke one of its platform's rules (src/wire/post-rules.ts): the rule's code, a
 * message that names the fix, and in `context` the reason, the rule and its limit.
 */
export function ruleFailureFor(e: Entropy, scope: number, row: number, platform: Platform, check: RuleCheck, threadParts = 0): ResultError {
  if (check.code === MEDIA_REQUIRED && check.part === undefined) return mediaRequiredFor(e, scope, row, platform);
  const { part, ...whole } = check;
  if (part !== undefined) {
    const inner = ruleFailureFor(e, scope, row, platform, whole);
    return threadPartFailure(platform, part, Math.max(threadParts, part + 1), `${check.code ?? MEDIA_REJECTED}: ${check.message ?? check.rule}`, { ...inner.context, rule: check.rule });
  }
  const provider = providerOf(platform);
  const code = check.code ?? MEDIA_REJECTED;
  const reason = `${check.item ? `${check.item}: ` : ''}${check.message ?? check.rule}`;
  const trace = randomToken(11, e, STREAM.failureCode, hash(e, STREAM.failureCode, scope, row, 1));
  const answer = (RULE_CONTEXT[provider] ?? RULE_CONTEXT.generic!)(code, reason, trace);
  return {
    code,
    message: `${platform} refused the post: ${reason}.${check.fix ? ` Fix: ${check.fix}.` : ''}`,
    context: { provider, platform, reason, rule: check.rule, actual: check.actual, limit: check.limit, source: check.source, ...answer },
  };
}
