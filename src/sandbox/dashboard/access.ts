// Who may open the dashboard. It shows every workspace of the sandbox, so: on a loopback
// address, only requests that name a loopback host (a web page elsewhere cannot reach it by
// DNS rebinding); on any other address, only with the token the sandbox printed at start,
// given once as ?token= (it then lives in an HttpOnly cookie). Changes are POSTs that carry a
// header a form cannot set, from this origin.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isLoopbackHost } from '../../wire/protocol.js';
import type { SandboxCore } from '../core.js';

export interface DashboardAccess {
  /** Required when set (a non-loopback address, or asked for). */
  token: string | undefined;
  /** The sandbox listens on loopback only. */
  loopback: boolean;
}

const ACCESS = new WeakMap<SandboxCore, DashboardAccess>();

export const COOKIE = 'socialpub_dashboard';
export const ACTION_HEADER = 'x-socialpub-dashboard';

export function configureDashboard(core: SandboxCore, access: DashboardAccess): void {
  ACCESS.set(core, access);
}

export function accessOf(core: SandboxCore): DashboardAccess {
  return ACCESS.get(core) ?? { token: undefined, loopback: true };
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

function hostName(host: string | undefined): string | undefined {
  if (!host) return undefined;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

export type Verdict = { ok: true } | { ok: false; status: number; reason: string } | { ok: 'redirect'; location: string; cookie: string };

/** Whether this request may see the dashboard (and, for a ?token=, where to send it next). */
export function admit(core: SandboxCore, req: IncomingMessage, path: string, query: URLSearchParams): Verdict {
  const access = accessOf(core);
  const host = hostName(req.headers.host);
  if (access.loopback && (host === undefined || !isLoopbackHost(host))) {
    return { ok: false, status: 403, reason: 'This dashboard answers only to a loopback host name (127.0.0.1, localhost): open it from this machine.' };
  }
  if (!access.token) return { ok: true };
  const given = query.get('token');
  if (given !== null && same(given, access.token)) {
    query.delete('token');
    const rest = query.toString();
    return { ok: 'redirect', location: `${path}${rest ? `?${rest}` : ''}`, cookie: `${COOKIE}=${access.token}; HttpOnly; SameSite=Strict; Path=/` };
  }
  const held = cookie(req, COOKIE);
  if (held !== undefined && same(held, access.token)) return { ok: true };
  return { ok: false, status: 401, reason: 'This dashboard needs the token the sandbox printed when it started: open the dashboard URL it printed (…/?token=…).' };
}

/** A change (POST) must come from a page of this origin: our script sets the header, a form cannot. */
export function isOwnAction(req: IncomingMessage): boolean {
  if (req.headers[ACTION_HEADER] !== '1') return false;
  const origin = req.headers.origin;
  return origin === undefined || hostName(origin.replace(/^https?:\/\//, '')) === hostName(req.headers.host);
}
