// The dashboard's HTTP side: which requests are its own (an HTML page at / or under
// /dashboard and /preview, its script, its event stream, its actions), who may see it
// (access.ts), and the answers, written here directly: the request log is the API's, so the
// dashboard's own requests stay out of it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { html, page } from '../../wire/preview/html.js';
import type { SandboxCore } from '../core.js';
import { readBody } from '../http/body.js';
import { admit, isOwnAction } from './access.js';
import { subscribe } from './events.js';
import { nav, render } from './pages.js';
import { DASHBOARD_SCRIPT } from './script.js';
import * as state from './state.js';

/** Nothing from elsewhere, no inline script, no framing. */
const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

const SCRIPT_PATH = '/dashboard/app.js';

/** Whether the dashboard answers this request: a browser asking for / , or a path of its own. */
export function isDashboardRequest(method: string, path: string, accept: string | undefined): boolean {
  if (path === '/') return method === 'GET' && /\btext\/html\b/.test(accept ?? '');
  return path === '/dashboard' || path.startsWith('/dashboard/') || path.startsWith('/preview/');
}

function write(res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, 'content-length': String(Buffer.byteLength(body)), ...extra });
  res.end(body);
}

const json = (res: ServerResponse, status: number, value: unknown) => write(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
const problem = (res: ServerResponse, status: number, code: string, message: string) => json(res, status, { error: { code, message } });

export async function serveDashboard(core: SandboxCore, req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<void> {
  const method = req.method ?? 'GET';
  const verdict = admit(core, req, path, query);
  if (verdict.ok === 'redirect') return void res.writeHead(303, { ...SECURITY_HEADERS, location: verdict.location, 'set-cookie': verdict.cookie }).end();
  if (!verdict.ok) return write(res, verdict.status, 'text/html; charset=utf-8', page({ title: 'Dashboard', body: html`<h1>Dashboard</h1><p>${verdict.reason}</p>` }));
  if (path.startsWith('/dashboard/api/')) return action(core, req, res, path);
  if (method !== 'GET' && method !== 'HEAD') return problem(res, 405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}`);
  if (path === SCRIPT_PATH) return write(res, 200, 'text/javascript; charset=utf-8', DASHBOARD_SCRIPT);
  if (path === '/dashboard/events') return subscribe(core, res, SECURITY_HEADERS);
  const started = performance.now();
  const pagePath = path.startsWith('/preview/') ? `/dashboard/posts/${path.slice('/preview/'.length).replace(/^posts\//, '')}` : path;
  const out = render({ core, path: pagePath, query, now: core.clock.now() });
  const ws = state.workspace(core, query.get('ws')).name;
  const text = req.headers['x-socialpub-fragment'] === '1' ? out.body.text : page({ title: `${out.title} · socialpub sandbox`, body: out.body, nav: nav(core, pagePath, ws), script: SCRIPT_PATH });
  // How long the page took to make (what `npm run bench dashboard` reads).
  write(res, out.status ?? 200, 'text/html; charset=utf-8', text, { 'server-timing': `render;dur=${(performance.now() - started).toFixed(2)}` });
}

async function action(core: SandboxCore, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  if (req.method !== 'POST') return problem(res, 405, 'METHOD_NOT_ALLOWED', 'dashboard actions are POSTs');
  if (!isOwnAction(req)) return problem(res, 403, 'FORBIDDEN', 'dashboard actions come from the dashboard page only');
  const read = await readBody(req, 4_096, 5_000);
  if (!read.ok) return problem(res, 400, 'BAD_REQUEST', 'the body could not be read');
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(read.body.toString('utf8') || '{}') as Record<string, unknown>;
  } catch {
    return problem(res, 400, 'BAD_REQUEST', 'the body is not JSON');
  }
  if (path === '/dashboard/api/resend') {
    const id = typeof body.webhookId === 'string' ? body.webhookId : '';
    if (!state.resendDelivery(core, id)) return problem(res, 409, 'NOT_RESENT', `delivery ${id} cannot be sent again: no webhook URL, or its body is no longer kept`);
    return json(res, 202, { message: `resending ${id}` });
  }
  if (path === '/dashboard/api/faults') {
    const share = (v: unknown) => (typeof v === 'number' && v >= 0 && v <= 1 ? v : undefined);
    const chaos = share(body.chaos);
    const failureRate = share(body.failureRate);
    if ((body.chaos !== undefined && chaos === undefined) || (body.failureRate !== undefined && failureRate === undefined)) return problem(res, 422, 'VALIDATION_ERROR', 'chaos and failureRate are shares from 0 to 1');
    state.setFaults(core, { ...(chaos !== undefined ? { chaos } : {}), ...(failureRate !== undefined ? { failureRate } : {}) });
    return json(res, 200, { message: `chaos ${state.faults(core).chaos}, failure rate ${state.faults(core).failureRate}` });
  }
  if (path === '/dashboard/api/accounts') {
    const act = body.action;
    if (act !== 'expire' && act !== 'disconnect' && act !== 'reconnect') return problem(res, 422, 'VALIDATION_ERROR', 'action is one of expire, disconnect, reconnect');
    const ws = state.workspace(core, typeof body.ws === 'string' ? body.ws : null);
    if (!state.accountAction(core, ws, String(body.id ?? ''), act)) return problem(res, 404, 'NOT_FOUND', `no account ${String(body.id)} in ${ws.name}`);
    return json(res, 200, { message: `${act}: ${String(body.id)}` });
  }
  return problem(res, 404, 'NOT_FOUND', `no dashboard action ${path}`);
}
