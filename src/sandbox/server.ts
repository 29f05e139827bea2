// The request pipeline. For an API request, in order: Request-Id · one Authorization header
// (400) · key (401) · add-on (403) · chaos · route (404/405) · body (413, 408 when it stalls,
// 400 when nested too deep) · idempotency (replay, 409, 422) · rate window (429) · latency ·
// handler (400/404/422 or success) and idempotency record, committed together (507 when the
// disk is full: nothing happened) · response with the RateLimit headers. Every response, error or not, carries
// Request-Id and RateLimit-*. Each step is a function that answers and returns false, or
// returns true to go on. A request of the SyncPostly dialect (everything under /api/v1 but
// post-results, syncpostly/dialect.ts) takes the same steps, with SyncPostly's error body, its 401
// (also for a workspace without the add-on: it documents no 403) and no idempotency.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_CODE, HEADER } from '../wire/protocol.js';
import type { SandboxCore } from './core.js';
import { StorageError } from './db/errors.js';
import { handlePublic } from './handlers/public.js';
import { discardRest, MAX_JSON_DEPTH, readBody, tooDeep } from './http/body.js';
import { counted, cut, delayOnce, headerValue, rateLimited, send, sendError, type Exchange } from './http/exchange.js';
import { badRequest, HttpError, storageHttpError, type Reply } from './http/reply.js';
import { fingerprint } from './idempotency.js';
import { isApiPath, JSON_BODY_LIMIT, matchRoute, type Call, type Route } from './routes.js';
import type { RequestLogEntry } from './types.js';
import type { Workspace } from './workspace.js';
import { dialectOf, SP_UNAUTHORIZED } from './syncpostly/dialect.js';

/** An API request past authentication, with what the later steps learn about it. */
interface ApiExchange extends Exchange {
  ws: Workspace;
  match: ReturnType<typeof matchRoute>;
  body: Buffer;
  /** Bytes of body received (more than body holds when the route keeps only the first ones). */
  bodySize: number;
  /** SHA-256 of the whole raw body, for routes that ask for it (uploads). */
  bodySha256?: string;
  /** A body refusal (413) decided while reading, answered after the rate window counts it. */
  refusal: HttpError | undefined;
  idempotencyKey: string | undefined;
}

export function createRequestHandler(core: SandboxCore) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const requestId = core.nextRequestId();
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const entry: RequestLogEntry = { method: req.method ?? 'GET', path, query: q < 0 ? '' : rawUrl.slice(q + 1), workspace: null, status: 0, at: 0, requestId };
    const x: Exchange = { core, req, res, requestId, dialect: dialectOf(path), entry, window: undefined, delayed: false, fault: undefined };
    handle(x).catch((err: unknown) => {
      if (res.headersSent || res.destroyed) return;
      const e =
        err instanceof HttpError ? err : err instanceof StorageError ? storageHttpError(err) : new HttpError(500, ERROR_CODE.internal, `the sandbox failed: ${(err as Error).message}`);
      return sendError(x, e);
    });
  };
}

async function handle(x: Exchange): Promise<void> {
  if (!isApiPath(x.entry.path)) return handlePublic(x);
  if (!singleAuthorization(x)) return;
  const ws = authenticate(x);
  if (!ws) return;
  if (!hasAddon(x, ws)) return;
  if (!(await meetChaos(x))) return;
  const api: ApiExchange = Object.assign(x, { ws, match: matchRoute(x.entry.method, x.entry.path), body: Buffer.alloc(0), bodySize: 0, refusal: undefined, idempotencyKey: undefined });
  if (!(await readRequestBody(api))) return;
  if (!refuseDeepJson(api)) return;
  if (!admitIdempotencyKey(api)) return;
  if (!takeRateWindow(api)) return;
  const route = routeOrRefuse(api);
  if (!route) return;
  await delayOnce(x);
  return respond(api, runHandler(api, route));
}

/** Node keeps the first of two Authorization headers; the service must not guess which was meant. */
function singleAuthorization(x: Exchange): boolean {
  const raw = x.req.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === HEADER.authorization) count++;
  if (count <= 1) return true;
  x.window = x.core.anonymousWindow(x.req.socket.remoteAddress ?? '?');
  void counted(x, badRequest(`the request has ${count} Authorization headers; send exactly one: "Authorization: Bearer <API_KEY>"`));
  return false;
}

function authenticate(x: Exchange): Workspace | undefined {
  const { core, req } = x;
  const header = headerValue(req, HEADER.authorization);
  const fail = (message: string) => {
    x.window = core.anonymousWindow(req.socket.remoteAddress ?? '?');
    if (!x.window.take(core.clock.now())) return void sendError(x, rateLimited(x, x.window, 'unauthenticated'));
    void sendError(x, unauthorized(x, message));
  };
  const hint = 'the sandbox prints its keys with `socialpub sandbox --json`, and `--write-profile` saves the demo key as a profile';
  if (header === undefined || header.trim() === '') {
    fail(`missing API key: send the header "Authorization: Bearer <API_KEY>"; ${hint}`);
    return undefined;
  }
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) {
    fail(`malformed Authorization header: use "Authorization: Bearer <API_KEY>"`);
    return undefined;
  }
  const ws = core.keyring.find(m[1]!);
  if (!ws) {
    fail(`invalid API key: no workspace has this key (sandbox keys change at every start unless --seed or --data is given); ${hint}`);
    return undefined;
  }
  x.entry.workspace = ws.name;
  const method = x.entry.method;
  x.window = method === 'GET' || method === 'HEAD' ? ws.reads : ws.writes;
  return ws;
}

/** SyncPostly's 401 says one thing whatever went wrong. */
function unauthorized(x: Exchange, message: string): HttpError {
  return new HttpError(401, ERROR_CODE.unauthorized, x.dialect === 'syncpostly' ? SP_UNAUTHORIZED : message, undefined, { 'www-authenticate': 'Bearer realm="socialpub-sandbox"' });
}

function hasAddon(x: Exchange, ws: Workspace): boolean {
  if (ws.addon) return true;
  // SyncPostly documents no 403: a key of a workspace without API access is not a valid key there.
  if (x.dialect === 'syncpostly') {
    void sendError(x, unauthorized(x, SP_UNAUTHORIZED));
    return false;
  }
  void sendError(x, new HttpError(403, ERROR_CODE.addonRequired, `the API add-on is not active for workspace "${ws.name}": buy it in the workspace settings under Billing → Add-ons (5 USD per month or 50 USD per year), then retry`));
  return false;
}

/** The network misbehaves before the service sees anything. */
async function meetChaos(x: Exchange): Promise<boolean> {
  const { core, entry } = x;
  x.fault = core.chaos.pick({ method: entry.method, path: entry.path, workspace: entry.workspace });
  if (x.fault) entry.fault = x.fault;
  if (x.fault === 'reset') {
    cut(x);
    return false;
  }
  if (x.fault === 'error') {
    void sendError(x, new HttpError(500, ERROR_CODE.internal, 'internal error (injected by --chaos); retry the request'));
    return false;
  }
  if (x.fault === 'rate-limited') {
    void sendError(x, new HttpError(429, ERROR_CODE.rateLimited, 'rate limited (injected by --chaos); retry after 1 second', undefined, { [HEADER.retryAfter]: '1' }));
    return false;
  }
  // Real time on purpose: the fault exists to outlast a client's real timeout.
  if (x.fault === 'slow') await core.realDelay(core.config.chaosSlowMs);
  return true;
}

async function readRequestBody(x: ApiExchange): Promise<boolean> {
  const route = x.match.route;
  if (!route?.body) return true;
  const limit = route.limit ? route.limit(x.ws, x.match.params) : JSON_BODY_LIMIT;
  if (limit instanceof HttpError) {
    x.refusal = limit;
    return true;
  }
  const keep = route.keep?.(limit) ?? limit;
  // A body kept whole is hashed where it is stored; only one kept in part is hashed as it streams.
  const read = await readBody(x.req, limit, x.core.config.bodyIdleMs, keep, route.digest === true && keep < limit);
  if (read.ok) {
    x.body = read.body;
    x.bodySize = read.size;
    if (read.sha256 !== undefined) x.bodySha256 = read.sha256;
    return true;
  }
  if (read.reason === 'aborted') return false;
  if (read.reason === 'stalled') {
    x.res.setHeader('connection', 'close');
    await sendError(x, new HttpError(408, 'REQUEST_TIMEOUT', `no byte of the request body arrived for ${x.core.config.bodyIdleMs} ms; send the whole body, then retry`));
    x.req.socket.destroy();
    return false;
  }
  x.refusal = new HttpError(413, ERROR_CODE.payloadTooLarge, route.body === 'json' ? `the request body is larger than ${limit} bytes` : `the upload is larger than the declared sizeBytes (${limit})`);
  discardRest(x.req, 16 * JSON_BODY_LIMIT);
  x.res.setHeader('connection', 'close');
  return true;
}

/** Before anything is stored (not even the idempotency key): a value we could not write back is refused. */
function refuseDeepJson(x: ApiExchange): boolean {
  if (x.match.route?.body !== 'json' || x.refusal || !tooDeep(x.body)) return true;
  void counted(x, badRequest(`the JSON body is nested deeper than ${MAX_JSON_DEPTH} levels; flatten it (payload options are a few levels deep at most)`, [{ path: 'body', message: `nested deeper than ${MAX_JSON_DEPTH} levels` }]));
  return false;
}

/** A replay is answered from the record and counts as nothing. */
function admitIdempotencyKey(x: ApiExchange): boolean {
  const { req, ws, core, entry } = x;
  // Every write honours the key: POST, PATCH and DELETE alike; SyncPostly documents no such header.
  const write = x.dialect === 'socialpub' && (entry.method === 'POST' || entry.method === 'PATCH' || entry.method === 'DELETE');
  const key = write && !x.refusal ? headerValue(req, HEADER.idempotencyKey) : undefined;
  if (key === undefined) return true;
  if (key === '' || key.length > 255) {
    void counted(x, new HttpError(400, ERROR_CODE.badRequest, 'Idempotency-Key must be 1 to 255 characters'));
    return false;
  }
  entry.idempotencyKeyLast4 = key.slice(-4);
  const admission = ws.idempotency.begin(key, fingerprint(entry.method, entry.path, x.body), core.clock.now());
  if (admission.kind === 'new') {
    x.idempotencyKey = key;
    return true;
  }
  if (admission.kind === 'replay') {
    entry.replayed = true;
    void send(x, admission.response.status, admission.response.body, { [HEADER.idempotentReplayed]: 'true' });
  } else if (admission.kind === 'in-flight') void sendError(x, new HttpError(409, ERROR_CODE.conflict, `a request with Idempotency-Key "${key}" is still being processed; retry in a moment`));
  else void counted(x, new HttpError(422, ERROR_CODE.idempotencyKeyReused, `Idempotency-Key "${key}" was already used with a different request; use a new key for a different post`));
  return false;
}

/** Forgets a key whose request failed without changing anything, so it may be retried. */
function releaseKey(x: ApiExchange): void {
  if (x.idempotencyKey !== undefined) x.ws.idempotency.release(x.idempotencyKey);
}

function takeRateWindow(x: ApiExchange): boolean {
  const window = x.window!;
  if (window.take(x.core.clock.now())) return true;
  releaseKey(x);
  void sendError(x, rateLimited(x, window, window === x.ws.writes ? 'write' : 'read'));
  return false;
}

function routeOrRefuse(x: ApiExchange): Route | undefined {
  const { match, entry } = x;
  if (!match.route) {
    releaseKey(x);
    if (match.allowed.length) void sendError(x, new HttpError(405, ERROR_CODE.methodNotAllowed, `${entry.method} is not allowed on ${entry.path}; use ${match.allowed.join(' or ')}`, undefined, { allow: match.allowed.join(', ') }));
    else void sendError(x, new HttpError(404, ERROR_CODE.notFound, `no endpoint ${entry.method} ${entry.path}`));
    return undefined;
  }
  if (x.refusal) {
    releaseKey(x);
    void sendError(x, x.refusal);
    return undefined;
  }
  return match.route;
}

interface Answer {
  reply: Reply;
  text: string;
}

/** The handler, and for a write its idempotency record, in one transaction committed before the answer. */
function runHandler(x: ApiExchange, route: Route): Answer {
  const call: Call = {
    core: x.core,
    ws: x.ws,
    params: x.match.route ? x.match.params : [],
    query: new URLSearchParams(x.entry.query),
    json: route.body === 'json' ? parseJsonObject(x.body) : {},
    raw: x.body,
    rawSize: x.bodySize,
    ...(x.bodySha256 !== undefined ? { rawSha256: x.bodySha256 } : {}),
    now: x.core.clock.now(),
  };
  const answer = (): Answer => {
    const reply = route.handle(call);
    const text = reply.status === 204 ? '' : JSON.stringify(reply.body);
    const key = x.idempotencyKey;
    if (key !== undefined) {
      if (reply.status >= 200 && reply.status < 300) x.ws.idempotency.complete(key, { status: reply.status, body: text });
      else releaseKey(x);
    }
    return { reply, text };
  };
  try {
    return route.method === 'GET' ? answer() : x.core.store.transaction(answer);
  } catch (err) {
    releaseKey(x);
    throw err instanceof StorageError ? storageHttpError(err) : err;
  }
}

function respond(x: ApiExchange, { reply, text }: Answer): Promise<void> | void {
  // The work is committed; with the "lost" fault the client never hears about it.
  if (x.fault === 'lost') return cut(x);
  return send(x, reply.status, text, reply.headers);
}

function parseJsonObject(body: Buffer): Record<string, unknown> {
  if (body.length === 0) throw new HttpError(400, ERROR_CODE.badRequest, 'the request body is empty; send a JSON object');
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new HttpError(400, ERROR_CODE.badRequest, `malformed JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, ERROR_CODE.badRequest, `the request body must be a JSON object, not ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`);
  }
  return value as Record<string, unknown>;
}
