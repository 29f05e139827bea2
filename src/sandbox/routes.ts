// The service's endpoints. `body` says what the route reads: a JSON object (at most
// MAX_BODY_BYTES) or raw bytes (at most what `limit` says for this request).
import { MAX_BODY_BYTES } from '../wire/protocol.js';
import type { SandboxCore } from './core.js';
import { createMedia, getMedia, uploadKeep, uploadLimit, uploadMedia } from './handlers/media.js';
import { createPost, deletePost, getPost, listPosts, schedulePost, updatePost } from './handlers/posts.js';
import { getResult, listResults } from './handlers/results.js';
import { changeAccount, getAccount, listAccounts } from './handlers/accounts.js';
import type { HttpError, Reply } from './http/reply.js';
import { safeDecode } from './http/path-segment.js';
import type { Workspace } from './workspace.js';
import { SP_ROUTES } from './syncpostly/routes.js';

/** What a handler receives: the workspace of the key, path parameters, the query, the body. */
export interface Call {
  core: SandboxCore;
  ws: Workspace;
  params: string[];
  query: URLSearchParams;
  /** Parsed JSON object body (routes that take JSON). */
  json: Record<string, unknown>;
  /** Raw body (routes that take bytes): all of it, or the first bytes the route keeps. */
  raw: Buffer;
  /** Bytes of raw body received. */
  rawSize: number;
  /** SHA-256 (hex) of the whole raw body, on routes with `digest` when only part of it is kept. */
  rawSha256?: string;
  now: number;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  pattern: RegExp;
  body?: 'json' | 'raw';
  limit?: (ws: Workspace, params: string[]) => number | HttpError;
  /** Of a raw body at most `limit` long, how many bytes to keep (the rest is only counted). */
  keep?: (limit: number) => number;
  /** Hash every byte of a raw body kept only in part as it streams through (Call.rawSha256). */
  digest?: boolean;
  handle(call: Call): Reply;
}

const ID = '([^/]+)';
/** Routes only the sandbox has (authenticated like the API). */
export const SANDBOX_PREFIX = '/sandbox';

export const ROUTES: Route[] = [
  { method: 'POST', pattern: /^\/v1\/posts$/, body: 'json', handle: createPost },
  { method: 'GET', pattern: /^\/v1\/posts$/, handle: listPosts },
  { method: 'GET', pattern: new RegExp(`^/v1/posts/${ID}$`), handle: getPost },
  { method: 'PATCH', pattern: new RegExp(`^/v1/posts/${ID}$`), body: 'json', handle: updatePost },
  { method: 'DELETE', pattern: new RegExp(`^/v1/posts/${ID}$`), handle: deletePost },
  { method: 'POST', pattern: /^\/v1\/schedule$/, body: 'json', handle: schedulePost },
  { method: 'GET', pattern: /^\/api\/v1\/post-results$/, handle: listResults },
  { method: 'GET', pattern: new RegExp(`^/api/v1/post-results/${ID}$`), handle: getResult },
  { method: 'POST', pattern: /^\/v1\/media$/, body: 'json', handle: createMedia },
  { method: 'GET', pattern: new RegExp(`^/v1/media/${ID}$`), handle: getMedia },
  { method: 'PUT', pattern: new RegExp(`^/v1/media/${ID}/upload$`), body: 'raw', limit: uploadLimit, keep: uploadKeep, digest: true, handle: uploadMedia },
  { method: 'GET', pattern: /^\/v1\/social-accounts$/, handle: listAccounts },
  { method: 'GET', pattern: new RegExp(`^/v1/social-accounts/${ID}$`), handle: getAccount },
  // Sandbox only, with the workspace's key: expire, disconnect or reconnect an account.
  { method: 'POST', pattern: new RegExp(`^${SANDBOX_PREFIX}/accounts/${ID}/(expire|disconnect|reconnect)$`), handle: changeAccount },
];

export const JSON_BODY_LIMIT = MAX_BODY_BYTES;

export type Match = { route: Route; params: string[] } | { route: undefined; allowed: string[] };

/** This contract's routes, then SyncPostly's (syncpostly/routes.ts): one port, two dialects. */
const SERVED: readonly Route[] = [...ROUTES, ...SP_ROUTES];

export function matchRoute(method: string, path: string): Match {
  const allowed: string[] = [];
  for (const route of SERVED) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    if (route.method === method) return { route, params: m.slice(1).map(safeDecode) };
    allowed.push(route.method);
  }
  return { route: undefined, allowed };
}

export function isApiPath(path: string): boolean {
  return path === '/v1' || path.startsWith('/v1/') || path === '/api/v1' || path.startsWith('/api/v1/') || path.startsWith(`${SANDBOX_PREFIX}/`);
}

