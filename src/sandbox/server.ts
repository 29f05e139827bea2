// The request pipeline. For an API request, in order: Request-Id · key (401) · add-on (403) ·
// chaos · route (404/405) · body (413) · idempotency (replay, 409, 422) · rate window (429) ·
// latency · handler (400/404/422 or success) · idempotency record · response with the
// RateLimit headers. Every response, error or not, carries Request-Id and RateLimit-*.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_CODE, HEADER } from '../wire/headers.js';
import type { SandboxCore } from './core.js';
import type { Call } from './handlers/call.js';
import { handlePublic } from './handlers/public.js';
import { discardRest, readBody } from './http/body.js';
import { counted, cut, delayOnce, headerValue, rateLimited, send, sendError, type Exchange } from './http/exchange.js';
import { HttpError, type Reply } from './http/reply.js';
import { fingerprint } from './idempotency.js';
import { isApiPath, JSON_BODY_LIMIT, matchRoute } from './routes.js';
import type { RequestLogEntry } from './types.js';
import type { Workspace } from './workspace.js';

export function createRequestHandler(core: SandboxCore) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const requestId = core.nextRequestId();
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const entry: RequestLogEntry = { method: req.method ?? 'GET', path, query: q < 0 ? '' : rawUrl.slice(q + 1), workspace: null, status: 0, at: 0, requestId };
    const x: Exchange = { core, req, res, requestId, entry, window: undefined, delayed: false, fault: undefined };
    handle(x).catch((err: unknown) => {
      if (res.headersSent || res.destroyed) return;
      const e = err instanceof HttpError ? err : new HttpError(500, ERROR_CODE.internal, `the sandbox failed: ${(err as Error).message}`);
      return sendError(x, e);
    });
  };
}

async function handle(x: Exchange): Promise<void> {
  const { core, req, entry } = x;
  const path = entry.path;
  if (!isApiPath(path)) return handlePublic(x);

  // Who is asking.
  const ws = authenticate(x);
  if (!ws) return;
  entry.workspace = ws.name;
  const method = entry.method;
  x.window = method === 'GET' || method === 'HEAD' ? ws.reads : ws.writes;
  if (!ws.addon) {
    return sendError(x, new HttpError(403, ERROR_CODE.addonRequired, `the API add-on is not active for workspace "${ws.name}": buy it in the workspace settings under Billing → Add-ons (5 USD per month or 50 USD per year), then retry`));
  }

  // The network misbehaves before the service sees anything.
  x.fault = core.chaos.pick();
  if (x.fault) entry.fault = x.fault;
  if (x.fault === 'reset') return cut(x);
  if (x.fault === 'error') return sendError(x, new HttpError(500, ERROR_CODE.internal, 'internal error (injected by --chaos); retry the request'));
  if (x.fault === 'rate-limited') {
    return sendError(x, new HttpError(429, ERROR_CODE.rateLimited, 'rate limited (injected by --chaos); retry after 1 second', undefined, { [HEADER.retryAfter]: '1' }));
  }
  if (x.fault === 'slow') await core.realDelay(core.config.chaosSlowMs);

  const match = matchRoute(method, path);
  let body: Buffer = Buffer.alloc(0);
  let tooLarge: HttpError | undefined;
  if (match.route?.body) {
    const limit = match.route.limit ? match.route.limit(ws, match.params) : JSON_BODY_LIMIT;
    if (limit instanceof HttpError) {
      tooLarge = limit;
    } else {
      const read = await readBody(req, limit);
      if (!read.ok && read.reason === 'aborted') return;
      if (read.ok) body = read.body;
      else {
        tooLarge = new HttpError(413, ERROR_CODE.payloadTooLarge, match.route.body === 'json' ? `the request body is larger than ${limit} bytes` : `the upload is larger than the declared sizeBytes (${limit})`);
        discardRest(req, 16 * JSON_BODY_LIMIT);
        x.res.setHeader('connection', 'close');
      }
    }
  }

  // Idempotency: a replay is answered from the record and counts as nothing.
  const key = method === 'POST' && !tooLarge ? headerValue(req, HEADER.idempotencyKey) : undefined;
  if (key !== undefined) {
    if (key === '' || key.length > 255) return counted(x, new HttpError(400, ERROR_CODE.badRequest, 'Idempotency-Key must be 1 to 255 characters'));
    const admission = ws.idempotency.begin(key, fingerprint(method, path, body), core.clock.now());
    if (admission.kind === 'replay') {
      return send(x, admission.response.status, admission.response.body, { [HEADER.idempotentReplayed]: 'true' });
    }
    if (admission.kind === 'in-flight') {
      return sendError(x, new HttpError(409, ERROR_CODE.conflict, `a request with Idempotency-Key "${key}" is still being processed; retry in a moment`));
    }
    if (admission.kind === 'mismatch') {
      return counted(x, new HttpError(422, ERROR_CODE.idempotencyKeyReused, `Idempotency-Key "${key}" was already used with a different request; use a new key for a different post`));
    }
  }
  const release = () => {
    if (key !== undefined) ws.idempotency.release(key);
  };

  if (!x.window.take(core.clock.now())) {
    release();
    return sendError(x, rateLimited(x, x.window, x.window === ws.writes ? 'write' : 'read'));
  }
  if (!match.route) {
    release();
    if (match.allowed.length) return sendError(x, new HttpError(405, ERROR_CODE.methodNotAllowed, `${method} is not allowed on ${path}; use ${match.allowed.join(' or ')}`, undefined, { allow: match.allowed.join(', ') }));
    return sendError(x, new HttpError(404, ERROR_CODE.notFound, `no endpoint ${method} ${path}`));
  }
  if (tooLarge) {
    release();
    return sendError(x, tooLarge);
  }

  await delayOnce(x);
  let reply: Reply;
  try {
    const call: Call = {
      core,
      ws,
      params: match.params,
      query: new URLSearchParams(entry.query),
      json: match.route.body === 'json' ? parseJsonObject(body) : {},
      raw: body,
      now: core.clock.now(),
    };
    reply = match.route.handle(call);
  } catch (err) {
    release();
    throw err;
  }
  const text = JSON.stringify(reply.body);
  if (key !== undefined) {
    if (reply.status >= 200 && reply.status < 300) {
      ws.idempotency.complete(key, { status: reply.status, body: text });
      core.saveIdempotency(ws, key);
    } else release();
  }
  // The work is committed; with the "lost" fault the client never hears about it.
  if (x.fault === 'lost') return cut(x);
  return send(x, reply.status, text, reply.headers);
}

function authenticate(x: Exchange): Workspace | undefined {
  const { core, req } = x;
  const header = headerValue(req, HEADER.authorization);
  const fail = (message: string) => {
    x.window = core.anonymousWindow(req.socket.remoteAddress ?? '?');
    if (!x.window.take(core.clock.now())) return void sendError(x, rateLimited(x, x.window, 'unauthenticated'));
    void sendError(x, new HttpError(401, ERROR_CODE.unauthorized, message, undefined, { 'www-authenticate': 'Bearer realm="socialpub-sandbox"' }));
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
  return ws;
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
