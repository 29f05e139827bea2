// The public surface of the client layer. Commands depend on these types only.
import type { Fetcher, StreamBody } from './transport.js';
import type { RequestBudget } from './budget.js';

export type { StreamBody } from './transport.js';
import type {
  CreateMediaBody,
  CreatePostBody,
  ListPage,
  MediaObject,
  MediaUpload,
  Post,
  PostResult,
  ScheduleBody,
  Schema,
  UpdatePostBody,
} from '../wire/schemas.js';
import type { SocialAccount } from '../wire/account-schemas.js';
import type { Dialect } from '../wire/dialects.js';

/**
 * A schema whose code loads when first needed (zod and the schemas are ~6 ms to load): request()
 * starts loading it once the request is on its way, so the load overlaps the wait for the answer.
 */
export interface LazySchema<T> {
  load(): Promise<Schema<T>>;
  /**
   * The same schema without zod (src/wire/response-checks.ts): what its safeParse gives as data,
   * or REFUSED. When given, zod loads only for an answer it refuses, to say what is wrong.
   */
  quick?: (data: unknown) => unknown;
}

/** A response schema, ready or loaded on demand. */
export type SchemaRef<T> = Schema<T> | LazySchema<T>;

export interface RateLimitInfo {
  limit: number | undefined;
  remaining: number | undefined;
  /** Seconds until the window resets, as the service said. */
  resetSeconds: number | undefined;
}

export interface RetryNotice {
  /** The attempt that starts after this wait (2 for the first retry). */
  attempt: number;
  delayMs: number;
  reason: string;
  /** Epoch ms at which the next attempt starts. */
  until: number;
}

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Which API the service speaks (contract 7.5); default `socialpub`. */
  dialect?: Dialect;
  /** Sends the requests instead of node:http (tests script answers with one). */
  fetcher?: Fetcher;
  timeoutMs?: number;
  maxRetries?: number;
  /**
   * How long a write (anything but GET) keeps retrying a transient failure, at most
   * WRITE_RETRY.maxRetries times (default: WRITE_RETRY.budgetMs without maxRetries, 0 with it); 0: writes retry maxRetries times, as reads do.
   */
  writeRetryBudgetMs?: number;
  /** Longest Retry-After the client sleeps through; beyond it a RateLimitError. */
  maxWaitMs?: number;
  /** Aborts requests and waits at once (Ctrl-C). */
  signal?: AbortSignal;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** 0 ≤ x < 1, for backoff jitter; injectable for tests. */
  random?: () => number;
  /** Debug trace sink; lines are already redacted. Absent: no trace. */
  debug?: (line: string) => void;
  userAgent?: string;
  /** Called with the RateLimit headers of every response that had them. */
  onRateLimit?: (info: RateLimitInfo) => void;
  /** Called before each wait between attempts (for "waiting until HH:MM" progress). */
  onRetry?: (notice: RetryNotice) => void;
  /** This run's request budget (--max-requests, the read limit's last tenth, large reads); none: unlimited. */
  budget?: RequestBudget;
}

export type QueryValue = string | number | boolean | undefined | readonly (string | number)[];

export interface RequestOptions<T> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path under the base URL ("/v1/posts"), or an absolute URL on the same origin. */
  path: string;
  query?: Record<string, QueryValue>;
  /** JSON body, serialised once so that every retry sends the same bytes. */
  body?: unknown;
  /** Raw bytes instead of JSON (media upload), or a file streamed from disk. */
  rawBody?: Uint8Array | StreamBody;
  contentType?: string;
  /** POST only: the caller's key; one is generated (UUID v4) when absent. */
  idempotencyKey?: string;
  /** Overrides ClientOptions.maxWaitMs for this call (bulk mode waits longer). */
  maxWaitMs?: number;
  /** Validates the response body; absent: the body is returned as parsed JSON. */
  schema?: SchemaRef<T>;
  /** Aborts this call only (pagination cancels pages still in flight); ClientOptions.signal aborts every call. */
  signal?: AbortSignal;
  /**
   * A write the service cannot replay (no idempotency header): an attempt whose answer was lost
   * after it may have reached the service (a timeout, a connection dropped after sending, a 5xx,
   * a 2xx cut short) is not sent again blindly. This is asked first: what it finds is the answer
   * (ApiResponse.recovered); undefined means the request did not take effect and may be sent
   * again, within the write retry budget. A refusal before sending (connection refused, a name
   * that does not resolve) and a 429 are retried as usual: nothing was done.
   */
  lostAnswer?: LostAnswerCheck<T>;
  /**
   * Epoch ms on the client's clock (`now`) by which the call, retries included, is over: no
   * attempt starts at or after it, each is cut short at it, and a retry whose pause would reach it
   * is not made (the last failure is thrown instead).
   */
  deadline?: number;
}

export interface LostAnswer {
  /** What the attempt failed with (thrown if nothing is found and no retry is left). */
  failure: Error;
  /** The attempt whose answer was lost (1 = the first). */
  attempt: number;
  /** When the first attempt started, on the client's clock (`now`). */
  startedAt: number;
}

/** Looks for what a write whose answer was lost made; undefined: nothing, it may be sent again. */
export type LostAnswerCheck<T> = (lost: LostAnswer) => Promise<T | undefined>;

export interface ApiResponse<T> {
  status: number;
  data: T;
  headers: Record<string, string>;
  requestId: string | undefined;
  /** True when the service replayed a stored response for this idempotency key. */
  replayed: boolean;
  idempotencyKey: string | undefined;
  rateLimit: RateLimitInfo | undefined;
  /** Attempts this call took (1 when the first answered); a replay after a retry is this call's own work. */
  attempts?: number;
  /** The answer was lost and `lostAnswer` found what the request made: the data is that, not an answer. */
  recovered?: boolean;
}

export interface PageQuery {
  offset?: number;
  limit?: number;
}

export interface IterateOptions {
  /** First offset to read from. */
  offset?: number;
  /** Page size to request (≤ 100). */
  pageSize?: number;
  /** Pages kept in flight once meta.total is known (1 = sequential). */
  concurrency?: number;
  /** Told the total as soon as the first page arrives; paging goes on once it returns (a large read may be refused there). */
  onTotal?: (total: number) => unknown;
  /** Told about every page as it is consumed, in order. */
  onPage?: (page: { offset: number; count: number; total: number }) => void;
  /** Every page's request ends by then (RequestOptions.deadline). */
  deadline?: number;
}

export interface PostListQuery extends PageQuery {
  status?: readonly string[];
}

export interface ResultListQuery extends PageQuery {
  postId?: readonly string[];
  platform?: readonly string[];
  /** Only rows of these accounts; a service may ignore it, so callers filter rows too. */
  socialAccountId?: readonly string[];
}

export interface AccountListQuery extends PageQuery {
  platform?: readonly string[];
  status?: readonly string[];
}

export interface WriteOptions {
  idempotencyKey?: string;
  maxWaitMs?: number;
  /**
   * An earlier run sent this create at or after this time (epoch ms) and never saw its answer (a
   * resumed bulk run). The idempotency key replays it where there is one; a dialect without one
   * (SyncPostly) looks for the post it made before sending it again.
   */
  sentBefore?: number;
}

export interface UpdateOptions extends WriteOptions {
  /** The post as the caller has just read it: a dialect that merges the change itself (SyncPostly's) need not read it again. */
  current?: Post;
}

export interface ApiClient {
  readonly baseUrl: string;
  /** The dialect the endpoints below translate to (contract 7.5). */
  readonly dialect: Dialect;
  /** The budget the client was made with, for a command about to read many pages. */
  readonly budget?: RequestBudget | undefined;
  request<T = unknown>(options: RequestOptions<T>): Promise<ApiResponse<T>>;
  /** Offset/limit pagination over any list endpoint, in the service's order, de-duplicated by id. */
  paginate<T extends { id: string }>(
    path: string,
    query: Record<string, QueryValue>,
    schema: SchemaRef<ListPage<T>>,
    options?: IterateOptions,
  ): AsyncIterable<T>;
  posts: {
    create(body: CreatePostBody, options?: WriteOptions): Promise<ApiResponse<Post>>;
    /**
     * Throws what create/schedule would refuse before sending (InvalidInputError, AccountChoiceError),
     * its media aside: called before local files are uploaded, so that a refusal sends nothing. Absent: nothing to check.
     */
    check?(body: CreatePostBody): Promise<void>;
    schedule(body: ScheduleBody, options?: WriteOptions): Promise<ApiResponse<Post>>;
    list(query?: PostListQuery): Promise<ApiResponse<ListPage<Post>>>;
    iterate(query?: PostListQuery, options?: IterateOptions): AsyncIterable<Post>;
    /** The same rows as iterate, a page at a time: break to stop paging (pages in flight are cancelled). */
    pages(query?: PostListQuery, options?: IterateOptions): AsyncIterable<Post[]>;
    /** GET /v1/posts/{id}: a service without the route answers 405, or 404 without a NOT_FOUND body. */
    get(id: string, options?: Pick<RequestOptions<Post>, 'deadline'>): Promise<ApiResponse<Post>>;
    /** PATCH /v1/posts/{id}; a service without the route: UnsupportedOperationError. */
    update(id: string, patch: UpdatePostBody, options?: UpdateOptions): Promise<ApiResponse<Post>>;
    /** DELETE /v1/posts/{id} (204); a service without the route: UnsupportedOperationError. */
    delete(id: string, options?: WriteOptions): Promise<ApiResponse<unknown>>;
  };
  results: {
    list(query?: ResultListQuery): Promise<ApiResponse<ListPage<PostResult>>>;
    iterate(query?: ResultListQuery, options?: IterateOptions): AsyncIterable<PostResult>;
    /** The same rows as iterate, a page at a time: break to stop paging (pages in flight are cancelled). */
    pages(query?: ResultListQuery, options?: IterateOptions): AsyncIterable<PostResult[]>;
    get(id: string): Promise<ApiResponse<PostResult>>;
  };
  accounts: {
    /** GET /v1/social-accounts, every page; a service without the route answers 405, or 404 without a NOT_FOUND body (see lacksRoute). */
    iterate(query?: AccountListQuery, options?: IterateOptions): AsyncIterable<SocialAccount>;
    get(id: string): Promise<ApiResponse<SocialAccount>>;
  };
  media: {
    /** Throws InvalidInputError when the service cannot take some of these files (by type), before any is uploaded; absent: any type goes. */
    check?(files: readonly { name: string; mimeType: string }[]): void;
    create(body: CreateMediaBody, options?: WriteOptions): Promise<ApiResponse<MediaUpload>>;
    upload(uploadUrl: string, body: Uint8Array | StreamBody, contentType: string): Promise<ApiResponse<unknown>>;
    /** GET /v1/media/{id}: the media object, with the URL payloads reference. */
    get(id: string): Promise<ApiResponse<MediaObject>>;
  };
  close(): Promise<void>;
}
