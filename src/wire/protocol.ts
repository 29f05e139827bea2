// The protocol's constants: header names, error codes, paging rules, the body
// limit and the paths, in one place so that the client, the sandbox and the listener cannot drift
// apart on spelling.
export const HEADER = {
  authorization: 'authorization',
  idempotencyKey: 'idempotency-key',
  idempotentReplayed: 'idempotent-replayed',
  requestId: 'request-id',
  retryAfter: 'retry-after',
  rateLimitLimit: 'ratelimit-limit',
  rateLimitRemaining: 'ratelimit-remaining',
  rateLimitReset: 'ratelimit-reset',
  webhookId: 'webhook-id',
  webhookTimestamp: 'webhook-timestamp',
  webhookSignature: 'webhook-signature',
} as const;

/** Error codes the service's error body carries. */
export const ERROR_CODE = {
  badRequest: 'BAD_REQUEST',
  unauthorized: 'UNAUTHORIZED',
  addonRequired: 'ADDON_REQUIRED',
  notFound: 'NOT_FOUND',
  conflict: 'IDEMPOTENCY_KEY_IN_FLIGHT',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  validation: 'VALIDATION_ERROR',
  idempotencyKeyReused: 'IDEMPOTENCY_KEY_REUSED',
  rateLimited: 'RATE_LIMITED',
  internal: 'INTERNAL_ERROR',
  methodNotAllowed: 'METHOD_NOT_ALLOWED',
  /** A published or failed post cannot be changed, rescheduled or deleted. */
  postNotEditable: 'POST_NOT_EDITABLE',
} as const;

/** Page size rules of offset/limit paging. */
export const PAGE = { defaultLimit: 10, maxLimit: 100 } as const;

/** Largest request body the service accepts. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Paths of the service. The publishing API sits under /v1, post results under /api/v1. */
export const PATHS = {
  posts: '/v1/posts',
  schedule: '/v1/schedule',
  media: '/v1/media',
  postResults: '/api/v1/post-results',
  socialAccounts: '/v1/social-accounts',
} as const;

/**
 * A host on this machine only: localhost and its subdomains, 127.0.0.0/8 and ::1 (bracketed or
 * not, any case). What a base URL names (a local sandbox, not the service) and what a listener
 * binds (reachable from this machine alone) are judged by this one rule.
 */
/**
 * The shapes of the sandbox's post and result ids. The contract leaves id formats to the service,
 * so these only tell one kind pasted where the other belongs; an id of another shape is never
 * refused for its shape.
 */
export const looksLikePostId = (id: string): boolean => /^post_[A-Za-z0-9]+$/.test(id);
export const looksLikeResultId = (id: string): boolean => /^res_[A-Za-z0-9]+$/.test(id);

/**
 * What no service's id can hold: characters that would change the request's path (a slash, ?, #,
 * %, white space, control characters). Any other shape is asked for, and a 404 says it is unknown.
 */
export const cannotBeAnId = (id: string): boolean => /[\s/\\?#%\u0000-\u001f\u007f-\u009f]/.test(id);

export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || h === '0:0:0:0:0:0:0:1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
