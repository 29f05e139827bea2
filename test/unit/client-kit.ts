// Shared set-up of the client unit tests: an undici MockAgent with net connect disabled, a fake
// clock whose sleep only records and advances time, and a client wired to both.
import { MockAgent } from 'undici';
import { createClient } from '../../src/client/index.js';
import type { ApiClient, ClientOptions } from '../../src/client/types.js';

export const BASE = 'http://api.test';
export const KEY = 'sk_test_4f9c2a7e1b8d3c6fWXYZ';
export const T0 = Date.parse('2026-03-01T12:00:00.000Z');

/** What MockAgent hands a reply callback (the parts the tests read). */
export interface ReplyOptions {
  method: string;
  path: string;
  headers?: unknown;
  body?: unknown;
}

export interface Recorded {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** The body's bytes exactly as sent. */
  bytes?: Buffer | undefined;
}

export function mockAgent() {
  const agent = new MockAgent();
  agent.disableNetConnect();
  return { agent, pool: agent.get(BASE) };
}

export function fakeClock(start = T0) {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

export function testClient(agent: MockAgent, options: Partial<ClientOptions> = {}): { client: ApiClient; clock: ReturnType<typeof fakeClock> } {
  const clock = fakeClock();
  const client = createClient({
    baseUrl: BASE,
    apiKey: KEY,
    dispatcher: agent,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
    ...options,
  });
  return { client, clock };
}

/** Normalises what MockAgent hands a reply callback into something easy to assert on. */
export function record(opts: ReplyOptions): Recorded {
  const headers: Record<string, string> = {};
  const h = opts.headers;
  if (h && typeof (h as Headers).get === 'function' && typeof (h as Headers).forEach === 'function') {
    (h as Headers).forEach((v, k) => (headers[k.toLowerCase()] = v));
  } else if (h && typeof h === 'object') {
    for (const [k, v] of Object.entries(h as Record<string, string>)) headers[k.toLowerCase()] = String(v);
  }
  const b = opts.body;
  const bytes = b === undefined || b === null ? undefined : typeof b === 'string' ? Buffer.from(b) : Buffer.from(b as Uint8Array);
  return { method: opts.method, path: opts.path, headers, body: bytes?.toString('utf8'), bytes };
}

export const json = { 'content-type': 'application/json' };

export function sampleResult(id: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    post_id: 'post_1',
    success: true,
    social_account_id: 'acct_1',
    platform_data: { id: `pd_${id}`, url: `https://example.social/${id}`, username: 'someone' },
    error: null,
    ...extra,
  };
}

/**
 * A MockAgent that counts requests in flight (dispatched and not yet finished), to check the
 * pagination concurrency bound from the transport's side.
 */
export class CountingMockAgent extends MockAgent {
  open = 0;
  maxOpen = 0;
  override dispatch(options: Parameters<MockAgent['dispatch']>[0], handler: Parameters<MockAgent['dispatch']>[1]): boolean {
    this.open++;
    this.maxOpen = Math.max(this.maxOpen, this.open);
    let finished = false;
    const finish = () => {
      if (!finished) {
        finished = true;
        this.open--;
      }
    };
    const ends = new Set<PropertyKey>(['onResponseEnd', 'onResponseError', 'onComplete', 'onError']);
    const wrapped = new Proxy(handler, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (ends.has(prop)) finish();
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    return super.dispatch(options, wrapped);
  }
}
