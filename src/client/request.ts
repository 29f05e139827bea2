// The one request pipeline every call goes through: a timeout per attempt,
// retries with full-jitter backoff on connection errors, timeouts, 408, 409, 429 and 5xx,
// Retry-After honoured up to the wait budget, the same Idempotency-Key and body bytes on every
// retry, a caller's deadline that no attempt or pause runs past, typed errors, and zod
// validation of the response at the boundary.
import { ERROR_CODE, HEADER } from '../wire/protocol.js';
import { REFUSED } from '../wire/response-checks.js';
import { describeErrorBody, errorForResponse, type ResponseFacts } from './error-mapping.js';
import { AbortedError, BadRequestError, DeadlineError, NetworkError, ResponseShapeError, TimeoutError } from './errors.js';
import { prepareRequest, type PreparedRequest } from './prepare.js';
import { displayUrl, mayHoldEchoes, maskEchoed, maskEchoedValue, redact, secretsOf } from './redact.js';
import { backoffDelay, formatDuration, isRetryableStatus, LAST_DATE_MS, parseRateLimit, parseRetryAfter, WRITE_RETRY } from './retry-timing.js';
import { BodySourceError, BodyTooLargeError, isStreamBody, type Fetcher, type WireBody } from './transport.js';
import type { RequestBudget } from './budget.js';
import type { ApiResponse, LazySchema, RateLimitInfo, RequestOptions, RetryNotice, SchemaRef } from './types.js';
import type { Schema } from '../wire/schemas.js';
import { validateResponse } from './validate.js';
import { interruptibleSleep, linkSignals, type Sleep } from './wait.js';

export interface PipelineConfig {
  baseUrl: string;
  apiKey: string;
  userAgent: string;
  timeoutMs: number;
  maxRetries: number;
  /** Writes retry transient failures for this long (WRITE_RETRY); 0: writes follow maxRetries as reads do. */
  writeRetryBudgetMs: number;
  maxWaitMs: number;
  signal: AbortSignal | undefined;
  now: () => number;
  sleep: Sleep;
  random: () => number;
  debug: ((line: string) => void) | undefined;
  onRateLimit: ((info: RateLimitInfo) => void) | undefined;
  onRetry: ((notice: RetryNotice) => void) | undefined;
  /** This run's request budget: asked before every attempt, told every answer's RateLimit-* headers. */
  budget: RequestBudget | undefined;
  /** false: the service knows no Idempotency-Key (SyncPostly): none is sent. */
  idempotencyKeys?: boolean;
  fetcher: () => Promise<Fetcher>;
}

export type Requester = <T = unknown>(options: RequestOptions<T>) => Promise<ApiResponse<T>>;

type Outcome =
  | { kind: 'response'; status: number; statusText: string; headers: Record<string, string>; text: string }
  | { kind: 'failure'; timeout: boolean; detail: string; cause: unknown; atDeadline?: boolean; neverSent?: boolean };

export interface Pipeline {
  request: Requester;
  /** Aborts attempts still running and refuses new requests. */
  close(): void;
}

export function createPipeline(config: PipelineConfig): Pipeline {
  const running = new Set<AbortController>();
  let closed = false;
  // Everything a server sends is masked for these before it reaches a message, a trace or a
  // caller (a key is never printed in full): a server or proxy may echo the key back.
  const secrets = secretsOf(config.apiKey, config.baseUrl);

  /** timeoutMs: the request timeout, or less when the caller's deadline comes first. */
  async function attempt(prepared: PreparedRequest, callerSignal: AbortSignal | undefined, timeoutMs: number): Promise<Outcome> {
    const linked = linkSignals([config.signal, callerSignal]);
    const controller = new AbortController();
    // Cut at the caller's deadline: then a streamed body does not restart the timer either.
    const bounded = timeoutMs < config.timeoutMs;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    linked.signal.addEventListener('abort', onAbort, { once: true });
    running.add(controller);
    try {
      if (linked.signal.aborted) throw new AbortedError();
      const fetch = await config.fetcher();
      const res = await fetch(prepared.url, { method: prepared.method, headers: prepared.headers, body: bounded ? prepared.body : withProgress(prepared.body, timer), signal: controller.signal });
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        headers[name.toLowerCase()] = maskEchoed(value, secrets);
      });
      // The body is read under the same timer: a stalled body is a timeout too.
      const text = await res.text().catch((err: unknown) => {
        throw err instanceof BodyTooLargeError ? bodyTooLarge(prepared, res.status, headers[HEADER.requestId], err.limit) : err;
      });
      return { kind: 'response', status: res.status, statusText: maskEchoed(res.statusText, secrets), headers, text };
    } catch (err) {
      // A body too large to read is the server's fault, and the same request would get the same.
      if (err instanceof ResponseShapeError) throw err;
      if (err instanceof BodySourceError) throw new BadRequestError(err.message, { code: 'BODY_UNREADABLE', cause: err });
      if (linked.signal.aborted || err instanceof AbortedError) throw new AbortedError('interrupted', { cause: err });
      if (closed) throw new AbortedError('the API client was closed', { cause: err });
      // The transport refusing to build the request (a header value it cannot send) is not a
      // network failure: retrying cannot help. Its message may quote the header, so it is redacted.
      if (err instanceof TypeError && err.cause === undefined) {
        throw new BadRequestError(`could not build the request: ${redact(err.message, secrets)}`, { code: 'INVALID_REQUEST' });
      }
      if (timedOut && bounded) {
        return { kind: 'failure', timeout: true, atDeadline: true, detail: `no response before the deadline (the ${formatDuration(timeoutMs)} left)`, cause: err };
      }
      if (timedOut) return { kind: 'failure', timeout: true, detail: `no response within ${formatDuration(timeoutMs)}`, cause: err };
      return { kind: 'failure', timeout: false, detail: maskEchoed(networkDetail(err), secrets), cause: err, neverSent: refusedBeforeSending(err) };
    } finally {
      clearTimeout(timer);
      linked.signal.removeEventListener('abort', onAbort);
      linked.dispose();
      running.delete(controller);
    }
  }

  async function pause(nextAttempt: number, delayMs: number, reason: string, callerSignal: AbortSignal | undefined): Promise<void> {
    const until = config.now() + delayMs;
    config.onRetry?.({ attempt: nextAttempt, delayMs, reason, until });
    config.debug?.(`retrying in ${formatDuration(delayMs)} (attempt ${nextAttempt}): ${reason}`);
    await interruptibleSleep(config.sleep, delayMs, [config.signal, callerSignal]);
  }

  const request: Requester = async <T>(options: RequestOptions<T>): Promise<ApiResponse<T>> => {
    if (closed) throw new AbortedError('the API client was closed');
    const prepared = prepareRequest(
      { baseUrl: config.baseUrl, apiKey: config.apiKey, userAgent: config.userAgent, ...(config.idempotencyKeys === false ? { idempotencyKeys: false } : {}) },
      options,
    );
    const maxWaitMs = options.maxWaitMs ?? config.maxWaitMs;
    // A write rides out a blip for WRITE_RETRY.budgetMs; a read keeps to --max-retries.
    const budgeted = prepared.method !== 'GET' && config.writeRetryBudgetMs > 0;
    const maxAttempts = (budgeted ? WRITE_RETRY.maxRetries : config.maxRetries) + 1;
    const firstAt = config.now();
    /** Whether a backoff pause of delayMs would carry a write's retries past its budget. */
    const overBudget = (delayMs: number) => budgeted && config.now() - firstAt + delayMs > config.writeRetryBudgetMs;
    // Time left before the caller's deadline (on the injected clock): no attempt starts at or past
    // it, none runs past it, and no pause sleeps into it, so a wait ends on time through an outage.
    const timeLeft = () => (options.deadline === undefined ? Infinity : options.deadline - config.now());
    /** Whether a pause of delayMs would leave no time for the attempt after it. */
    const noTimeFor = (delayMs: number) => delayMs >= timeLeft();
    let schema: Promise<Schema<T> | undefined> | undefined;
    /**
     * An answer lost after the request may have reached the service, for a write that cannot be
     * replayed: what it made, looked for before anything is sent again (RequestOptions.lostAnswer).
     */
    const recover = async (failure: Error, n: number, why: string): Promise<ApiResponse<T> | undefined> => {
      if (!options.lostAnswer) return undefined;
      config.debug?.(`${prepared.method} ${displayUrl(prepared.url)}: the answer was lost (${why}); looking for what it made before sending it again`);
      const data = await options.lostAnswer({ failure, attempt: n, startedAt: firstAt });
      if (data === undefined) {
        config.debug?.(`${prepared.method} ${displayUrl(prepared.url)}: it made nothing; it may be sent again`);
        return undefined;
      }
      config.debug?.(`${prepared.method} ${displayUrl(prepared.url)}: found what it made; not sending it again`);
      return { status: 200, data, headers: {}, requestId: undefined, replayed: false, recovered: true, idempotencyKey: undefined, rateLimit: undefined, attempts: n };
    };
    /** What the last attempt failed with: said when the deadline comes before the next one. */
    let failed: Error | undefined;
    /** Whether an attempt may have reached the service without a readable answer: a later 429 then settles nothing. */
    let unsettled = false;
    for (let n = 1; ; n++) {
      const left = timeLeft();
      if (left <= 0) throw failed ?? new DeadlineError(`not sent to ${safeOrigin(prepared.url)}: its deadline had passed`, { code: 'TIMEOUT' });
      config.budget?.admit(prepared.method);
      // hrtime, not performance.now(): the perf_hooks it loads cost more than this whole request.
      const started = process.hrtime.bigint();
      const sent = attempt(prepared, options.signal, Math.min(config.timeoutMs, left));
      schema ??= schemaSoon(options.schema);
      const outcome = await sent;
      const trace = {
        method: prepared.method,
        url: displayUrl(prepared.url),
        attempt: n,
        maxAttempts,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        idempotencyKey: prepared.idempotencyKey,
        authorization: prepared.headers[HEADER.authorization],
      };

      if (outcome.kind === 'failure') {
        config.debug?.(traceLine({ ...trace, failure: outcome.timeout ? 'timeout' : `network error (${outcome.detail})` }, secrets));
        // Named by the host the request went to: an upload URL is often another one.
        const delayMs = backoffDelay(n, config.random);
        failed = failureError(outcome, n, safeOrigin(prepared.url));
        if (!outcome.neverSent) {
          unsettled = true;
          const found = await recover(failed, n, outcome.timeout ? 'timeout' : `network error after sending: ${outcome.detail}`);
          if (found) return found;
        }
        if (n >= maxAttempts || outcome.atDeadline || noTimeFor(delayMs) || overBudget(delayMs)) throw failed;
        await pause(n + 1, delayMs, outcome.timeout ? outcome.detail : `connection error (${outcome.detail})`, options.signal);
        continue;
      }

      const { status, headers, text } = outcome;
      const rateLimit = parseRateLimit(headers);
      if (rateLimit) {
        config.budget?.observe(prepared.method, rateLimit);
        config.onRateLimit?.(rateLimit);
      }
      const requestId = headers[HEADER.requestId];
      const replayed = headers[HEADER.idempotentReplayed]?.trim().toLowerCase() === 'true';
      config.debug?.(traceLine({ ...trace, status, rateLimit, requestId, replayed }, secrets));

      if (status >= 200 && status < 300) {
        let data: T;
        try {
          data = await decode(options.schema, schema, text, secrets, { method: prepared.method, target: prepared.target, status, requestId });
        } catch (err) {
          // A body cut short or garbled on the way is as passing as a 5xx: a read may simply be
          // asked again, and so may a write whose Idempotency-Key makes the service replay its
          // first answer. A body that parses but has another shape would come back the same.
          if (!(err instanceof ResponseShapeError) || !garbled(text)) throw err;
          unsettled = true;
          const found = await recover(err, n, `${status} with a body that is not JSON`);
          if (found) return found;
          if (prepared.method !== 'GET' && !prepared.idempotencyKey && !options.lostAnswer) throw err;
          const delayMs = backoffDelay(n, config.random);
          failed = err;
          if (n >= maxAttempts || noTimeFor(delayMs) || overBudget(delayMs)) throw err;
          await pause(n + 1, delayMs, `${status} with a body that is not JSON (cut short or garbled)`, options.signal);
          continue;
        }
        return { status, data, headers, requestId, replayed, idempotencyKey: prepared.idempotencyKey, rateLimit, attempts: n };
      }

      const described = describeErrorBody(text, (value) => maskEchoedValue(value, secrets));
      const now = config.now();
      const retryAfterMs = parseRetryAfter(headers[HEADER.retryAfter], now);
      const facts: ResponseFacts = {
        status,
        statusText: outcome.statusText,
        method: prepared.method,
        target: prepared.target,
        described,
        requestId,
        idempotencyKey: prepared.idempotencyKey,
        attempts: n,
        location: headers.location,
        retryAfterMs,
        maxWaitMs,
        retryAt: status === 429 ? retryAtFrom(now, retryAfterMs, rateLimit) : undefined,
        earlierUnsettled: unsettled,
      };
      if (status >= 500) unsettled = true;
      if (status >= 500 && options.lostAnswer) {
        const found = await recover(errorForResponse(facts), n, `${status}`);
        if (found) return found;
      }
      // A post that went out stays out: retrying the 409 cannot succeed.
      if (!isRetryableStatus(status) || described.code === ERROR_CODE.idempotencyKeyReused || described.code === ERROR_CODE.postNotEditable) throw errorForResponse(facts);
      // Sleeping through a Retry-After longer than the budget would look like a hang: stop now
      // and say when to come back.
      if (retryAfterMs !== undefined && retryAfterMs > maxWaitMs) throw errorForResponse({ ...facts, rateLimitReason: n >= maxAttempts ? 'both' : 'max-wait' });
      const delayMs = retryAfterMs ?? backoffDelay(n, config.random);
      failed = errorForResponse({ ...facts, rateLimitReason: 'retries' });
      if (n >= maxAttempts || noTimeFor(delayMs) || (retryAfterMs === undefined && overBudget(delayMs))) throw failed;
      const reason =
        status === 429
          ? `rate limited (429${retryAfterMs !== undefined ? `, Retry-After ${headers[HEADER.retryAfter]}` : ''})`
          : `${status}${outcome.statusText ? ` ${outcome.statusText}` : ''}`;
      await pause(n + 1, delayMs, reason, options.signal);
    }
  };

  return {
    request,
    close() {
      closed = true;
      for (const controller of running) controller.abort();
    },
  };
}

/** An answer that is empty or not JSON where JSON was due: cut short or garbled on the way. */
function garbled(text: string): boolean {
  if (text.trim() === '') return true;
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

/**
 * A connection refused, a name that does not resolve, a network out of reach: the request never
 * left, so sending it again cannot make it twice.
 */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);
function refusedBeforeSending(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof AggregateError && current.errors.length > 0) current = current.errors[0];
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NEVER_SENT_CODES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function retryAtFrom(now: number, retryAfterMs: number | undefined, rateLimit: RateLimitInfo | undefined): number | undefined {
  const at = retryAfterMs !== undefined ? now + retryAfterMs : rateLimit?.resetSeconds !== undefined ? now + rateLimit.resetSeconds * 1000 : undefined;
  // Beyond it there is no date to say when to come back (and printing one would throw).
  return at !== undefined && Math.abs(at) <= LAST_DATE_MS ? at : undefined;
}

/**
 * The response schema; one that loads on demand starts loading on the next turn of the event
 * loop, once the request has gone out, so that loading overlaps the wait for the answer. One with
 * a plain check is not loaded: decode loads it only if the check refuses the answer.
 */
function schemaSoon<T>(ref: SchemaRef<T> | undefined): Promise<Schema<T> | undefined> {
  if (ref === undefined || !('load' in ref)) return Promise.resolve(ref);
  if (ref.quick) return Promise.resolve(undefined);
  const loading = new Promise<Schema<T>>((resolve, reject) => setImmediate(() => {
    ref.load().then(resolve, reject);
  }));
  // A request that fails never asks for it: its failure must not surface as an unhandled rejection.
  loading.catch(() => {});
  return loading;
}

async function decode<T>(
  ref: SchemaRef<T> | undefined,
  loading: Promise<Schema<T> | undefined>,
  text: string,
  secrets: readonly string[],
  where: { method: string; target: string; status: number; requestId: string | undefined },
): Promise<T> {
  let data: unknown;
  let isJson = true;
  if (text.trim() === '') data = undefined;
  else {
    try {
      // Masked after parsing: a key escaped in JSON (\u0073k_…) is the key again once parsed.
      // Most pages hold nothing to mask, and walking them would cost more than parsing them.
      data = JSON.parse(text) as unknown;
      if (mayHoldEchoes(text, secrets)) data = maskEchoedValue(data, secrets);
    } catch {
      isJson = false;
      data = maskEchoed(text, secrets);
    }
  }
  if (!ref) return data as T;
  if (!isJson) {
    const rid = where.requestId ? ` (request id ${where.requestId})` : '';
    throw new ResponseShapeError(`unexpected response from ${where.method} ${where.target}: the body is not JSON${rid}`, {
      status: where.status,
      code: 'RESPONSE_SHAPE',
      requestId: where.requestId,
      body: (data as string).slice(0, 2000),
    });
  }
  if ('load' in ref && ref.quick) {
    const quick = ref.quick(data);
    if (quick !== REFUSED) return quick as T;
  }
  const schema = (await loading) ?? (await (ref as LazySchema<T>).load());
  return validateResponse(schema, data, { ...where, body: data });
}

/**
 * A streamed body restarts the attempt's timer with every chunk read: the timeout is then the
 * longest silence, not the whole upload, which for a video of gigabytes may take minutes.
 */
function withProgress(body: WireBody | undefined, timer: NodeJS.Timeout): WireBody | undefined {
  if (!isStreamBody(body)) return body;
  return {
    size: body.size,
    open: () => body.open().on('data', () => timer.refresh()),
  };
}

function bodyTooLarge(prepared: PreparedRequest, status: number, requestId: string | undefined, limit: number): ResponseShapeError {
  const path = prepared.target.split('?')[0];
  const rid = requestId ? ` (request id ${requestId})` : '';
  return new ResponseShapeError(
    `refused the response to ${prepared.method} ${path} (status ${status}): its body is larger than ${limit / 1024 / 1024} MiB, far more than an answer of this API holds; the rest was not read${rid}`,
    { status, code: 'RESPONSE_TOO_LARGE', requestId },
  );
}

function failureError(outcome: Extract<Outcome, { kind: 'failure' }>, attempts: number, origin: string): Error {
  const after = attempts > 1 ? ` (after ${attempts} attempts)` : '';
  if (outcome.atDeadline) return new DeadlineError(`${origin} did not answer: ${outcome.detail}${after}`, { code: 'TIMEOUT', cause: outcome.cause });
  return outcome.timeout
    ? new TimeoutError(`${origin} did not answer: ${outcome.detail}${after}`, { code: 'TIMEOUT', cause: outcome.cause })
    : new NetworkError(`could not reach ${origin}: ${outcome.detail}${after}`, { code: 'NETWORK', cause: outcome.cause });
}

/** "connect ECONNREFUSED 127.0.0.1:9", "socket hang up (ECONNRESET)": the most specific thing the transport says. */
function networkDetail(err: unknown): string {
  let current: unknown = err;
  let message: string | undefined;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof AggregateError && current.errors.length > 0) current = current.errors[0];
    const e = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof e.message === 'string' && e.message !== '') message = e.message;
    if (typeof e.code === 'string' && e.code !== '') {
      if (!message) return e.code;
      return message.includes(e.code) ? message : `${message} (${e.code})`;
    }
    current = e.cause;
  }
  return message ?? 'connection failed';
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

// One trace line per attempt for --debug: method, URL, outcome, duration, attempt number and the
// rate-limit headers. The line passes through redact() before it leaves the client.
export interface AttemptTrace {
  method: string;
  url: string;
  attempt: number;
  maxAttempts: number;
  durationMs: number;
  status?: number | undefined;
  failure?: string | undefined;
  requestId?: string | undefined;
  rateLimit?: RateLimitInfo | undefined;
  idempotencyKey?: string | undefined;
  replayed?: boolean | undefined;
  authorization?: string | undefined;
}

export function traceLine(t: AttemptTrace, secrets: ReadonlyArray<string | undefined>): string {
  const parts = [`${t.method} ${t.url} → ${t.status ?? t.failure ?? '?'}`, `${Math.round(t.durationMs)}ms`, `attempt ${t.attempt}/${t.maxAttempts}`];
  if (t.rateLimit) {
    const rl = t.rateLimit;
    parts.push(`ratelimit ${rl.remaining ?? '?'}/${rl.limit ?? '?'} reset ${rl.resetSeconds ?? '?'}s`);
  }
  if (t.requestId) parts.push(`request-id ${t.requestId}`);
  if (t.idempotencyKey) parts.push(`idempotency-key ${t.idempotencyKey}${t.replayed ? ' (replayed)' : ''}`);
  if (t.authorization) parts.push(`authorization ${t.authorization}`);
  return redact(parts.join(' · '), secrets);
}
