// From an error response to one typed error per outcome (src/client/errors.ts); the CLI turns
// them into exit codes in src/cli/errors.ts. The body may have any shape: the contract's
// `{ error: { code, message, issues }, requestId }`, other JSON conventions, plain text, an HTML
// error page from a proxy, or nothing at all. Messages read well after "error: " and carry the
// service's own words when it gave any.
import { ERROR_CODE } from '../wire/protocol.js';
import type { ErrorIssue } from '../wire/schemas.js';
import type { ApiError } from './errors.js';
import {
  AddonRequiredError,
  AuthError,
  BadRequestError,
  ConflictError,
  IdempotencyKeyReusedError,
  NotFoundError,
  PayloadTooLargeError,
  PostNotEditableError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
  type ApiErrorInit,
  type RateLimitStop,
} from './errors.js';
import { formatDuration } from './retry-timing.js';

export interface ResponseFacts {
  status: number;
  statusText: string;
  method: string;
  /** Path and query, for messages (never the key: it travels in a header). */
  target: string;
  described: DescribedBody;
  requestId: string | undefined;
  idempotencyKey: string | undefined;
  /** For 429: when a retry may succeed (epoch ms). */
  retryAt?: number | undefined;
  /** For 429: why the client stopped waiting ('both': the wait was too long and no retry was left). */
  rateLimitReason?: RateLimitStop | undefined;
  /** The wait the service asked for (429), for the message. */
  retryAfterMs?: number | undefined;
  maxWaitMs?: number | undefined;
  attempts?: number;
  /** An earlier attempt may have reached the service without a readable answer (a timeout, a cut connection, a 5xx). */
  earlierUnsettled?: boolean;
  /** Location header of a redirect (redirects are not followed: the key stays put). */
  location?: string | undefined;
}

function withDetail(summary: string, detail: string | undefined): string {
  if (!detail) return summary;
  // Avoid "not found: Not Found".
  if (detail.toLowerCase() === summary.toLowerCase()) return summary;
  // The service's words already say it ("the API add-on is not active for workspace …"): say it once.
  if (sameOpening(summary, detail)) return detail;
  return `${summary}: ${detail}`;
}

/** Whether two sentences open with the same five words (case aside). */
function sameOpening(a: string, b: string): boolean {
  const words = (s: string) => s.toLowerCase().split(/\s+/).filter(Boolean).slice(0, 5);
  const [x, y] = [words(a), words(b)];
  return x.length === 5 && x.every((w, i) => w === y[i]);
}

/**
 * 403 without ADDON_REQUIRED (a proxy, a key without access to that resource) is an AuthError:
 * the fix is the same family (check the key and the workspace), and the exit code is 3.
 */
export function errorForResponse(f: ResponseFacts): ApiError {
  const { status, described } = f;
  const code = described.code;
  const detail = described.message;
  const init: ApiErrorInit = {
    status,
    code,
    requestId: f.requestId ?? described.requestId,
    body: described.body,
    issues: described.issues,
  };
  const statusLine = `${status}${f.statusText ? ` ${f.statusText}` : ''}`;
  switch (true) {
    case status === 400:
      return new BadRequestError(withDetail('the service rejected the request as malformed', detail), init);
    case status === 401:
      return new AuthError(withDetail('the API key was not accepted', detail), init);
    case status === 403 && code === ERROR_CODE.addonRequired:
      return new AddonRequiredError(withDetail('the API add-on is not active for this workspace', detail), init);
    case status === 403:
      return new AuthError(withDetail('access denied with this API key', detail), init);
    case status === 404:
      return new NotFoundError(withDetail(`not found: ${f.method} ${f.target}`, detail), init);
    case status === 408:
      return new TimeoutError(withDetail(`the service timed out waiting for the request${attemptsNote(f)}`, detail), init);
    case status === 409 && code === ERROR_CODE.postNotEditable:
      return new PostNotEditableError(withDetail('the post can no longer be changed', detail), init);
    case status === 409:
      return new ConflictError(
        withDetail(`conflict${attemptsNote(f)}${f.idempotencyKey ? `: a request with idempotency key ${f.idempotencyKey} is still in progress` : ''}`, detail),
        init,
      );
    case status === 413:
      return new PayloadTooLargeError(withDetail('the request body is too large for the service', detail), init);
    case status === 422 && code === ERROR_CODE.idempotencyKeyReused:
      return new IdempotencyKeyReusedError(
        withDetail(`idempotency key ${f.idempotencyKey ?? '(none)'} was already used with a different request body`, detail),
        init,
      );
    case status === 422:
      return new ValidationError(withDetail('the service refused the request', detail ?? issueSummary(described)), init);
    case status === 429:
      return new RateLimitError(rateLimitMessage(f), {
        ...init,
        ...(f.retryAt !== undefined ? { retryAt: f.retryAt } : {}),
        ...(f.rateLimitReason !== undefined ? { stoppedBy: f.rateLimitReason } : {}),
        ...(f.attempts !== undefined ? { attempts: f.attempts } : {}),
        ...(f.earlierUnsettled ? { earlierUnsettled: true } : {}),
      });
    case status >= 500:
      return new ServerError(withDetail(`the service failed (${statusLine})${attemptsNote(f)}${tooLongToWait(f)}`, detail), {
        ...init,
        answered: withDetail(`it answered ${statusLine}${attemptsNote(f)}${tooLongToWait(f)}`, detail),
      });
    case status >= 300 && status < 400:
      return new BadRequestError(`the service answered ${statusLine}${redirectNote(f)}; check the base URL`, init);
    default:
      return new BadRequestError(withDetail(`the service answered ${statusLine}`, detail), init);
  }
}

function attemptsNote(f: ResponseFacts): string {
  return f.attempts && f.attempts > 1 ? ` after ${f.attempts} attempts` : '';
}

/** A 5xx not retried because its Retry-After was beyond --max-wait: say so, or the missing retries look like a bug. */
function tooLongToWait(f: ResponseFacts): string {
  if (f.retryAfterMs === undefined || f.maxWaitMs === undefined || (f.rateLimitReason !== 'max-wait' && f.rateLimitReason !== 'both')) return '';
  return `; it asks to retry in ${formatDuration(f.retryAfterMs)}, longer than the ${formatDuration(f.maxWaitMs)} the client waits (--max-wait)`;
}

function redirectNote(f: ResponseFacts): string {
  return f.location ? ` (a redirect to ${f.location})` : ' (a redirect)';
}

function issueSummary(d: DescribedBody): string | undefined {
  const n = d.issues.length;
  return n ? `${n} problem${n === 1 ? '' : 's'} with the request` : undefined;
}

function rateLimitMessage(f: ResponseFacts): string {
  const asked = f.retryAfterMs !== undefined ? `; the service asks to wait ${formatDuration(f.retryAfterMs)}` : '';
  if ((f.rateLimitReason === 'max-wait' || f.rateLimitReason === 'both') && f.maxWaitMs !== undefined) {
    return `rate limited${asked}, longer than the ${formatDuration(f.maxWaitMs)} the client waits`;
  }
  return `rate limited${attemptsNote(f)}${asked}`;
}

export interface DescribedBody {
  /** Parsed JSON when the body was JSON, else the text (undefined when empty). */
  body: unknown;
  message: string | undefined;
  code: string | undefined;
  issues: ErrorIssue[];
  requestId: string | undefined;
}

const MAX_MESSAGE = 300;

export function parseBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * `mask` runs on the parsed body before anything is taken from it, so that a message clipped to
 * its first 300 characters cannot keep half of a secret.
 */
export function describeErrorBody(text: string, mask: (body: unknown) => unknown = (body) => body): DescribedBody {
  const body = mask(parseBody(text));
  const out: DescribedBody = { body, message: undefined, code: undefined, issues: [], requestId: undefined };
  if (body === undefined) return out;
  if (typeof body === 'string') {
    out.message = messageFromText(body);
    return out;
  }
  if (!isRecord(body)) return out;
  const err = body.error;
  if (isRecord(err)) {
    out.code = str(err.code) ?? str(err.type);
    out.message = str(err.message) ?? str(err.detail);
    out.issues = issuesFrom(err.issues ?? err.details);
  } else if (typeof err === 'string') {
    // { error: "not_found", message: "..." } or { error: "Something went wrong" }
    if (/^[A-Z0-9_]+$/i.test(err) && str(body.message)) out.code = err;
    else out.message = err;
  }
  out.code ??= str(body.code);
  out.message ??= str(body.message) ?? str(body.detail) ?? str(body.title) ?? str(body.error_description) ?? firstMessage(body.errors);
  if (out.issues.length === 0) out.issues = issuesFrom(body.issues ?? body.errors);
  const requestId = str(body.requestId) ?? str(body.request_id);
  if (requestId) out.requestId = oneLine(requestId);
  if (out.code) out.code = oneLine(out.code);
  if (out.message) out.message = clip(out.message);
  return out;
}

function messageFromText(text: string): string | undefined {
  const trimmed = text.trim();
  if (/^<(!doctype|html|\?xml|head|body)/i.test(trimmed) || /<\/(html|body|h1|title)>/i.test(trimmed)) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(trimmed)?.[1] ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(trimmed)?.[1];
    const plain = (title ?? trimmed.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, '')).replace(/<[^>]+>/g, ' ');
    const collapsed = decodeEntities(plain).replace(/\s+/g, ' ').trim();
    return collapsed ? clip(collapsed) : undefined;
  }
  const line = trimmed.split(/\r?\n/).find((l) => l.trim() !== '');
  return line ? clip(line.trim()) : undefined;
}

function issuesFrom(value: unknown): ErrorIssue[] {
  if (!Array.isArray(value)) return [];
  const issues: ErrorIssue[] = [];
  for (const item of value) {
    if (!isRecord(item)) continue;
    const message = str(item.message);
    if (!message) continue;
    const path = Array.isArray(item.path) ? item.path.map(String).join('.') : (str(item.path) ?? str(item.field) ?? '');
    // Each is a hint line (and part of a CI annotation): as bounded as the message.
    issues.push({ path: clip(path), message: clip(message) });
  }
  return issues;
}

function firstMessage(value: unknown): string | undefined {
  if (!Array.isArray(value)) return undefined;
  for (const item of value) {
    if (typeof item === 'string' && item.trim()) return item;
    if (isRecord(item) && str(item.message)) return str(item.message);
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * The service's message as one line, at most MAX_MESSAGE characters. Its line breaks become
 * spaces: an error is one `error:` line, and a line of the service's own on stderr could start
 * with `::`, which a GitHub Actions runner obeys as a workflow command.
 */
function clip(text: string): string {
  const line = oneLine(text);
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE - 1)}…` : line;
}

const oneLine = (text: string) => text.replace(/\s*[\r\n]+\s*/g, ' ');

function decodeEntities(text: string): string {
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
