// The webhook listener: one HTTP server, one path, POST only. Every request is answered
// (never left hanging) and every outcome is an event; nothing a client sends can throw out of
// the handler. Accepted deliveries are emitted synchronously the moment their body is complete
// and verified, so events come out in the order deliveries finished arriving — there is no
// asynchronous step between receipt and emission that could reorder them. The sender is
// answered 204 right after emission; forwarding to a local app happens afterwards, off the
// sender's critical path. The pieces: options.ts (checks), request.ts (before the body),
// delivery.ts (after it; json-object-check.ts tells a JSON object), outcomes.ts (answers and
// events), forwarder.ts, slow-bodies.ts, http-server.ts (Node's side).
import { EventEmitter } from 'node:events';
import { Counters, SeenIds } from './bookkeeping.js';
import { deliveryHandler } from './delivery.js';
import { Forwarder, type ForwardOutcome } from './forwarder.js';
import { bind, createListenerServer } from './http-server.js';
import { resolveOptions, type ListenerSettings } from './options.js';
import { rejecter, safeEmitter, type Emit } from './outcomes.js';
import { hostGuard, requestHandler, urlHost } from './request.js';
import { SlowBodies } from './slow-bodies.js';
import type { Listener, ListenerEvents, ListenerOptions } from './types.js';


export async function startListener(options: ListenerOptions = {}): Promise<Listener> {
  const settings = resolveOptions(options);
  const emitter = new EventEmitter<ListenerEvents>();
  const emit = safeEmitter(emitter);
  const counters = new Counters();
  const reject = rejecter(counters, emit);
  const forwarder = startForwarder(settings, counters, emit);
  const slowBodies = new SlowBodies(settings.clock, settings.bodyTimeoutMs, (res) =>
    reject(res, 'body-timeout', `body not received within ${settings.bodyTimeoutMs} ms`, null, true),
  );
  let hostAllowed: (hostHeader: string | undefined) => boolean = () => false;
  const onDelivery = deliveryHandler({ settings, counters, seen: new SeenIds(settings.dedupeWindow), emit, reject, forwarder });
  const handle = requestHandler({ settings, counters, reject, slowBodies, onDelivery, hostAllowed: (h) => hostAllowed(h) });
  const server = createListenerServer({ settings, counters, emit, reject, handle });

  let port: number;
  try {
    port = await bind(server, settings.port, settings.host);
  } catch (err) {
    slowBodies.stop();
    throw err;
  }
  hostAllowed = hostGuard(settings.host, port);
  const url = `http://${urlHost(settings.host)}:${port}${settings.path}`;

  let closing: Promise<void> | undefined;
  const listener: Listener = Object.assign(emitter, {
    url,
    port,
    host: settings.host,
    verifying: settings.secret !== undefined,
    stats: () => counters.stats(forwarder?.pending ?? 0),
    close(): Promise<void> {
      return (closing ??= (async () => {
        slowBodies.stop();
        const stopped = new Promise<void>((done) => server.close(() => done()));
        server.closeIdleConnections();
        if (forwarder) await forwarder.close(settings.forwardTimeoutMs);
        server.closeAllConnections();
        await stopped;
      })());
    },
  });
  // Emitted after the caller had a chance to subscribe to it.
  setImmediate(() => emit('ready', { url }));
  return listener;
}

function startForwarder(settings: ListenerSettings, counters: Counters, emit: Emit): Forwarder | undefined {
  if (!settings.forwardUrl) return undefined;
  const onDone = ({ error, status, ...rest }: ForwardOutcome) => {
    if (error === undefined && status !== undefined) {
      counters.forwarded++;
      emit('forwarded', { ...rest, status });
    } else {
      counters.forwardFailed++;
      emit('forward-failed', { ...rest, error: error ?? 'unknown', ...(status !== undefined ? { status } : {}) });
    }
  };
  return new Forwarder({
    url: settings.forwardUrl,
    clock: settings.clock,
    timeoutMs: settings.forwardTimeoutMs,
    retries: settings.forwardRetries,
    backoffMs: settings.forwardBackoffMs,
    concurrency: settings.forwardConcurrency,
    queueLimit: settings.forwardQueueLimit,
    onDone,
  });
}

