// Outside the API: the dashboard (dashboard/), the OpenAPI document and its catalog, a short description at "/", the public URLs of uploaded media (no key, as
// a platform fetches them), and 404 for anything else. Limited per client address.
import { ERROR_CODE } from '../../wire/protocol.js';
import { delayOnce, finish, rateLimited, send, sendError, type Exchange } from '../http/exchange.js';
import { HttpError } from '../http/reply.js';
import { findPublicMedia, HEAD_BYTES, isWhole, KEEP_WHOLE_BYTES, PUBLIC_MEDIA_PREFIX } from './media.js';
import { isDashboardRequest, serveDashboard } from '../dashboard/serve.js';
import { apiCatalog, openApiText } from '../openapi/document.js';
import { SP_ROUTES } from '../syncpostly/routes.js';

export async function handlePublic(x: Exchange): Promise<void> {
  const { core, req, entry } = x;
  // The dashboard has its own door (loopback or token) and stays out of the API's request log.
  if (isDashboardRequest(entry.method, entry.path, req.headers.accept)) return serveDashboard(core, req, x.res, entry.path, new URLSearchParams(entry.query));
  x.window = core.anonymousWindow(req.socket.remoteAddress ?? '?');
  if (!x.window.take(core.clock.now())) return sendError(x, rateLimited(x, x.window, 'unauthenticated'));
  if ((entry.method === 'GET' || entry.method === 'HEAD') && entry.path.startsWith(PUBLIC_MEDIA_PREFIX)) {
    const id = entry.path.slice(PUBLIC_MEDIA_PREFIX.length).split('/')[0] ?? '';
    const m = findPublicMedia(core.workspaces, id);
    if (!m) return sendError(x, new HttpError(404, ERROR_CODE.notFound, `media ${JSON.stringify(id)} not found (or not uploaded yet)`));
    if (entry.method === 'GET' && !isWhole(m)) {
      return sendError(x, new HttpError(404, ERROR_CODE.notFound, `media ${JSON.stringify(id)} was uploaded (${m.sizeBytes} bytes), but the sandbox keeps only the first ${HEAD_BYTES} bytes of files over ${KEEP_WHOLE_BYTES} bytes, so it cannot serve them`));
    }
    const bytes = entry.method === 'GET' ? core.store.blobs.get(m.sha256!) : undefined;
    if (entry.method === 'GET' && !bytes) return sendError(x, new HttpError(404, ERROR_CODE.notFound, `media ${JSON.stringify(id)}: its bytes are missing from the sandbox's media folder`));
    await delayOnce(x);
    x.res.statusCode = 200;
    x.res.setHeader('content-type', m.mimeType);
    x.res.setHeader('content-length', String(m.sizeBytes));
    x.res.setHeader('cache-control', 'public, max-age=300');
    finish(x, 200);
    x.res.end(bytes);
    return;
  }
  if (entry.method === 'GET' && entry.path === '/openapi.json') return send(x, 200, openApiText(core));
  if (entry.method === 'GET' && entry.path === '/.well-known/api-catalog') return send(x, 200, JSON.stringify(apiCatalog(core.baseUrl)), { 'content-type': 'application/linkset+json' });
  if (entry.method === 'GET' && (entry.path === '/' || entry.path === '/healthz')) {
    return send(
      x,
      200,
      JSON.stringify({
        service: 'socialpub sandbox',
        description: 'A local implementation of the Social Publishing Service API. Every /v1 and /api/v1 request needs "Authorization: Bearer <API_KEY>".',
        openapi: '/openapi.json',
        dashboard: '/ (in a browser)',
        endpoints: ['POST /v1/posts', 'POST /v1/schedule', 'GET /v1/posts', 'GET /v1/posts/{id}', 'GET /api/v1/post-results', 'GET /api/v1/post-results/{id}', 'POST /v1/media', 'PUT /v1/media/{id}/upload', 'GET /v1/social-accounts', 'GET /v1/social-accounts/{id}', 'POST /sandbox/accounts/{id}/expire|disconnect|reconnect'],
        syncpostly: {
          description: "SyncPostly's published API, as a second dialect (experimental): the same workspaces, keys and posts.",
          endpoints: SP_ROUTES.map((r) => `${r.method} ${r.pattern.source.slice(1, -1).replaceAll('\\/', '/').replace('([^/]+)', '{id}')}`),
        },
      }),
    );
  }
  return sendError(x, new HttpError(404, ERROR_CODE.notFound, `no endpoint ${entry.method} ${entry.path}; the API lives under /v1 and /api/v1`));
}

