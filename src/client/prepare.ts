// Turns RequestOptions into the exact request that goes on the wire: URL, headers and body bytes.
// The body is serialised here, once, so every retry sends the same bytes with the same
// Idempotency-Key. `api --dry-run` prints this same object, so what it shows is what would be sent.
import { HEADER } from '../wire/protocol.js';
import { BadRequestError } from './errors.js';
import type { WireBody } from './transport.js';
import type { QueryValue, RequestOptions } from './types.js';

export type HttpMethod = RequestOptions<unknown>['method'];

export interface PreparedRequest {
  method: HttpMethod;
  url: string;
  /** Path and query, for messages. */
  target: string;
  headers: Record<string, string>;
  body: WireBody | undefined;
  idempotencyKey: string | undefined;
  /** Whether the API key is attached (only for the base URL's origin). */
  authenticated: boolean;
}

export interface PrepareSettings {
  baseUrl: string;
  apiKey: string | undefined;
  userAgent: string;
  newIdempotencyKey?: () => string;
  /** false: the service knows no Idempotency-Key (SyncPostly), so none is made or sent. */
  idempotencyKeys?: boolean;
}

type Preparable = Pick<RequestOptions<unknown>, 'method' | 'path' | 'query' | 'body' | 'rawBody' | 'contentType' | 'idempotencyKey'>;

/** Problems the client can see before sending anything: a bad URL, a GET with a body, a bad key. */
function refuse(message: string): never {
  throw new BadRequestError(message, { code: 'INVALID_REQUEST' });
}

// Visible ASCII only: anything else would make fetch throw while building the request.
const HEADER_TOKEN = /^[\x21-\x7e]{1,255}$/;

export function prepareRequest(settings: PrepareSettings, options: Preparable): PreparedRequest {
  let url: URL;
  try {
    url = buildUrl(settings.baseUrl, options.path, options.query);
  } catch {
    refuse(`not a valid URL: ${options.path.includes('://') ? options.path : `${settings.baseUrl}${options.path}`}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') refuse(`not an http(s) URL: ${url.origin}`);
  if ((options.method === 'GET') && (options.body !== undefined || options.rawBody !== undefined)) refuse('a GET request carries no body');
  if (options.idempotencyKey !== undefined && !HEADER_TOKEN.test(options.idempotencyKey)) {
    refuse('an idempotency key is 1 to 255 visible ASCII characters (no spaces)');
  }
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': settings.userAgent,
  };
  // The key goes to the service's own origin only: an upload URL on a storage host never sees it.
  const authenticated = Boolean(settings.apiKey) && sameOrigin(url, settings.baseUrl);
  if (authenticated) {
    // Never echo the key: say what is wrong with it.
    if (!/^[\x21-\x7e]+$/.test(settings.apiKey!)) refuse('the API key contains spaces, line breaks or other characters a key cannot have; log in again with the key alone');
    headers[HEADER.authorization] = `Bearer ${settings.apiKey}`;
  }
  let body: WireBody | undefined;
  if (options.rawBody !== undefined) {
    body = options.rawBody;
    headers['content-type'] = options.contentType ?? 'application/octet-stream';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = options.contentType ?? 'application/json';
  }
  let idempotencyKey = settings.idempotencyKeys === false ? undefined : options.idempotencyKey;
  // crypto is loaded here, when a key is needed: a GET never pays for it.
  // Every write carries a key, so that a retry after a lost answer is replayed, never done twice.
  if (settings.idempotencyKeys !== false && options.method !== 'GET' && options.method !== 'PUT' && !idempotencyKey) idempotencyKey = (settings.newIdempotencyKey ?? (() => process.getBuiltinModule('node:crypto').randomUUID()))();
  if (idempotencyKey) headers[HEADER.idempotencyKey] = idempotencyKey;
  return {
    method: options.method,
    url: url.toString(),
    target: url.pathname + url.search,
    headers,
    body,
    idempotencyKey,
    authenticated,
  };
}

// A path under the base URL (or an absolute URL), plus query parameters, with arrays as repeated
// keys (post_id=a&post_id=b), the encoding the contract chose.
export function isAbsoluteUrl(path: string): boolean {
  return /^https?:\/\//i.test(path);
}

export function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): URL {
  const url = isAbsoluteUrl(path)
    ? new URL(path)
    : new URL(baseUrl.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`));
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    if (isList(value)) {
      url.searchParams.delete(key);
      for (const item of value) url.searchParams.append(key, String(item));
    } else {
      // A scalar replaces a value the path may already carry (paging sets offset/limit).
      url.searchParams.set(key, String(value));
    }
  }
  return url;
}

function isList(value: QueryValue): value is readonly (string | number)[] {
  return Array.isArray(value);
}

/** The key only ever travels to the origin of the base URL. */
export function sameOrigin(a: string | URL, b: string | URL): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
