// A proxy in front of a sandbox that loses answers: the request reaches the service and does its
// work, then the client's connection is cut before the answer (a "lost response"). Which requests
// lose their answer is up to the test. It listens on 127.0.0.1, port 0 (a faulty proxy whose one
// fault is 'lose').
import type { IncomingMessage } from 'node:http';
import { faultyProxy } from './faulty-proxy.js';

export interface LossyProxy {
  url: string;
  /** How many answers were lost so far. */
  readonly lost: number;
  close(): Promise<void>;
}

export async function lossyProxy(target: string, loseAnswer: (req: IncomingMessage, seen: number) => boolean): Promise<LossyProxy> {
  const proxy = await faultyProxy(target, (req, seen) => (loseAnswer(req, seen) ? 'lose' : 'pass'));
  return {
    url: proxy.url,
    get lost() {
      return proxy.log.filter((l) => l.fault === 'lose').length;
    },
    close: () => proxy.close(),
  };
}
