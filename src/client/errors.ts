// Typed errors of the client layer: one class per outcome, each carrying what a user or a
// script needs (status, code, message, request id, body). The CLI maps them to exit codes.
import { ERROR_CODE } from '../wire/protocol.js';
import type { ErrorIssue } from '../wire/schemas.js';

export type ErrorKind =
  | 'bad-request'
  | 'auth'
  | 'addon-required'
  | 'not-found'
  | 'conflict'
  | 'not-editable'
  | 'unsupported'
  | 'validation'
  | 'idempotency-key-reused'
  | 'payload-too-large'
  | 'rate-limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'response-shape'
  /** This run's own request budget (--max-requests, the read limit's last tenth, a large read): nothing was sent. */
  | 'budget'
  | 'aborted';

export interface ApiErrorInit {
  status?: number;
  code?: string;
  requestId?: string;
  body?: unknown;
  issues?: ErrorIssue[];
  cause?: unknown;
}

export class ApiError extends Error {
  readonly kind: ErrorKind;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly requestId: string | undefined;
  readonly body: unknown;
  readonly issues: ErrorIssue[];

  constructor(kind: ErrorKind, message: string, init: ApiErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.kind = kind;
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.body = init.body;
    this.issues = init.issues ?? [];
  }
}

export class BadRequestError extends ApiError {
  constructor(message: string, init: ApiErrorInit = {}) {
    super('bad-request', message, init);
  }
}
export class AuthError extends ApiError {
  constructor(message: string, init: ApiErrorInit = {}) {
    super('auth', message, init);
  }
}
export class AddonRequiredError extends ApiError {
  constructor(message: string, init: ApiErrorInit = {}) {
    super('addon-required', message, init);
  }
}
export class NotFoundError extends ApiError {
  constructor(message: string, init: ApiErrorInit = {}) {
    super('not-found', message, init);
  }
}
export class ConflictError extends ApiError {
  constructor(message: string, init: ApiErrorInit = {}) {
    super('conflict', message, init);
  }
}
/** 409 POST_NOT_EDITABLE: the post was published or failed (perhaps while it was being edited); nothing changed. */
export class PostNotEditableError extends ApiError {
  constructor(message: string, init: ApiErrorInit = {}) {
    super('not-editable', message, init);
  }
}
/** The service has no such route (405, or a 404 that is not the service's own NOT_FOUND body). */
export class UnsupportedOperationError extends ApiError {
  constructor(message: string, init: ApiErrorInit = {}) {
    super('unsupported', message, init);
  }
}
export class ValidationError extends ApiError {
  constructor(message: string, init: ApiErrorInit = {}) {
    super('validation', message, init);
  }
}
export class IdempotencyKeyReusedError extends ApiError {
  constructor(message: string, init: ApiErrorInit = {}) {
    super('idempotency-key-reused', message, init);
  }
}
export class PayloadTooLargeError extends ApiError {
  constructor(message: string, init: ApiErrorInit = {}) {
    super('payload-too-large', message, init);
  }
}
/** Why a 429 ended the request: the wait asked for, the retries, or both at once. */
export type RateLimitStop = 'max-wait' | 'retries' | 'both';

export class RateLimitError extends ApiError {
  /** When the service said a retry may succeed (epoch ms), if it said. */
  readonly retryAt: number | undefined;
  /**
   * Why the client gave up: the wait asked for was longer than maxWait, or the retries ran out
   * while the wait would have fitted. The fix differs (--max-wait or --max-retries).
   */
  readonly stoppedBy: RateLimitStop | undefined;
  /** Attempts made before giving up. */
  readonly attempts: number | undefined;
  /**
   * An earlier attempt may have reached the service and its answer was lost (a timeout, a cut
   * connection, a 5xx): the 429s after it do not say the write was never made.
   */
  readonly earlierUnsettled: boolean;
  constructor(message: string, init: ApiErrorInit & { retryAt?: number; stoppedBy?: RateLimitStop; attempts?: number; earlierUnsettled?: boolean } = {}) {
    super('rate-limited', message, init);
    this.retryAt = init.retryAt;
    this.stoppedBy = init.stoppedBy;
    this.attempts = init.attempts;
    this.earlierUnsettled = init.earlierUnsettled === true;
  }
}
export class ServerError extends ApiError {
  /** What the service answered, said as its answer ("it answered 503 Service Unavailable: …"), for lines that name an outage. */
  readonly answered: string;
  constructor(message: string, init: ApiErrorInit & { answered?: string } = {}) {
    super('server', message, init);
    this.answered = init.answered ?? message;
  }
}
export class NetworkError extends ApiError {
  constructor(message: string, init: ApiErrorInit = {}) {
    super('network', message, init);
  }
}
export class TimeoutError extends ApiError {
  constructor(message: string, init: ApiErrorInit = {}) {
    super('timeout', message, init);
  }
}
/** The caller's deadline (RequestOptions.deadline) came before an answer, or before the request could be sent. */
export class DeadlineError extends TimeoutError {}
export class ResponseShapeError extends ApiError {
  constructor(message: string, init: ApiErrorInit = {}) {
    super('response-shape', message, init);
  }
}
/** The caller's signal fired (Ctrl-C) during a request or a wait. */
export class AbortedError extends ApiError {
  constructor(message = 'interrupted', init: ApiErrorInit = {}) {
    super('aborted', message, init);
  }
}

/**
 * A 405, or a 404 without the service's own NOT_FOUND body (a framework's "Cannot GET" page),
 * means the service has no such route; a NOT_FOUND 404 means the thing does not exist.
 */
export function lacksRoute(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 405 || (err.status === 404 && err.code !== ERROR_CODE.notFound));
}

/**
 * A value nested thousands of levels deep (a broken answer, a file) overflows the stack of the
 * first recursive walk over it. Bounding depth where bodies are decoded would cost a walk of every
 * page; such an answer is rare and broken, so it is named where errors are reported instead of as
 * V8's bare RangeError.
 */
export const isTooDeep = (err: unknown): boolean => err instanceof RangeError && /call stack/i.test(err.message);
export const TOO_DEEP_MESSAGE = "could not handle a value nested too deeply (thousands of levels): the service's answer, or the file given, is not what it should be";
