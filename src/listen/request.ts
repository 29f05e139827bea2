// The first look at a request, before its body: Host guard, path, method and declared size.
// Each failure is answered at once and the connection closed, without reading the body; a
// request that passes has its body read under the byte cap and the slow-body deadline.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Reject } from './answers.js';
import type { Counters } from './counters.js';
import type { DeliveryHandler } from './delivery.js';
import type { ListenerSettings } from './options.js';
import { readBody } from './read-body.js';
import type { SlowBodies } from './slow-bodies.js';
import { header, oneLine } from './text.js';

export interface RequestDeps {
  settings: ListenerSettings;
  counters: Counters;
  reject: Reject;
  slowBodies: SlowBodies;
  onDelivery: DeliveryHandler;
  /** Set once the port is bound (the guard needs the port). */
  hostAllowed(hostHeader: string | undefined): boolean;
}

export function requestHandler(deps: RequestDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { settings, counters, reject, slowBodies, onDelivery } = deps;
  const { path, maxBodyBytes } = settings;

  const turnedAway = (req: IncomingMessage, res: ServerResponse): boolean => {
    const hostHeader = header(req, 'host');
    if (!deps.hostAllowed(hostHeader)) {
      const shown = hostHeader === undefined ? 'no Host header' : `Host "${oneLine(hostHeader)}"`;
      reject(res, 'forbidden-host', `${shown} is not this listener's loopback address (DNS-rebinding guard)`, null, true);
      return true;
    }
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const pathname = q < 0 ? url : url.slice(0, q);
    if (pathname !== path) {
      reject(res, 'not-found', `nothing at ${oneLine(pathname)}; deliveries go to ${path}`, null, true);
      return true;
    }
    if (req.method !== 'POST') {
      reject(res, 'method-not-allowed', `${oneLine(req.method ?? '?', 20)} is not allowed; deliveries are POST`, null, true, { allow: 'POST' });
      return true;
    }
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > maxBodyBytes) {
      reject(res, 'body-too-large', `body of ${oneLine(declared, 20)} bytes is larger than ${maxBodyBytes}`, null, true);
      return true;
    }
    return false;
  };

  return (req, res) => {
    counters.requests++;
    try {
      if (turnedAway(req, res)) return;
      slowBodies.started(res);
      readBody(req, maxBodyBytes, (result) => {
        if (!slowBodies.finished(res)) return; // the sweep already answered 408
        try {
          if (!result.ok) return reject(res, 'body-too-large', `body larger than ${maxBodyBytes} bytes`, null, true);
          onDelivery(req, res, result.body);
        } catch {
          // Nothing a client sends may throw out of the handler: a bug here answers 500, and the
          // listener keeps serving. (Consumers' exceptions never get here; see safe-emit.ts.)
          reject(res, 'internal-error', 'internal error while handling the delivery', null, true);
        }
      });
    } catch {
      reject(res, 'internal-error', 'internal error while handling the request', null, true);
    }
  };
}
