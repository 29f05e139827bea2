// Live updates: one server-sent event stream per open page. One timer per sandbox (only while
// a page listens) compares a cheap signature of the state four times a second and tells every
// page "change"; the page then fetches its own fragment again.
import type { ServerResponse } from 'node:http';
import type { SandboxCore } from '../core.js';
import { changeSignature } from './state.js';

const TICK_MS = 250;
/** A comment line now and then keeps proxies and idle timers from closing the stream. */
const PING_EVERY = 60;

interface Hub {
  clients: Set<ServerResponse>;
  timer: NodeJS.Timeout | undefined;
  last: string;
  ticks: number;
}

const HUBS = new WeakMap<SandboxCore, Hub>();

export function subscribe(core: SandboxCore, res: ServerResponse, headers: Record<string, string>): void {
  let hub = HUBS.get(core);
  if (!hub) HUBS.set(core, (hub = { clients: new Set(), timer: undefined, last: '', ticks: 0 }));
  const h = hub;
  res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
  res.write('retry: 2000\n\n');
  h.clients.add(res);
  res.on('close', () => {
    h.clients.delete(res);
    if (h.clients.size === 0 && h.timer) {
      clearInterval(h.timer);
      h.timer = undefined;
    }
  });
  if (h.timer) return;
  h.last = changeSignature(core);
  h.timer = setInterval(() => {
    if (core.closing) {
      for (const c of h.clients) c.end();
      return;
    }
    const now = changeSignature(core);
    const ping = ++h.ticks % PING_EVERY === 0;
    if (now === h.last && !ping) return;
    const message = now === h.last ? ': ping\n\n' : 'event: change\ndata: {}\n\n';
    h.last = now;
    for (const c of h.clients) c.write(message);
  }, TICK_MS);
  h.timer.unref();
}
