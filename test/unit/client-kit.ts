// Shared set-up of the client unit tests: a scripted service behind the client's Fetcher seam, a
// fake clock whose sleep only records and advances time, and a client wired to both.
import { createClient } from '../../src/client/index.js';
import type { ApiClient, ClientOptions } from '../../src/client/types.js';
import type { FakeService } from '../helpers/fake-service.js';

export { fakeService, type FakeService, type SeenRequest } from '../helpers/fake-service.js';

export const BASE = 'http://api.test';
export const KEY = 'sk_test_4f9c2a7e1b8d3c6fWXYZ';
export const T0 = Date.parse('2026-03-01T12:00:00.000Z');

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

export function testClient(service: FakeService, options: Partial<ClientOptions> = {}): { client: ApiClient; clock: ReturnType<typeof fakeClock> } {
  const clock = fakeClock();
  const client = createClient({
    baseUrl: BASE,
    apiKey: KEY,
    fetcher: service.fetch,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
    ...options,
  });
  return { client, clock };
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

