// createClient: the API client every command gets from ctx.client(). Loaded lazily; the response
// schemas (zod/mini) load while the first request is out (endpoints.ts), and undici only when a
// dispatcher is injected.
import { createEndpoints } from './endpoints.js';
import { createPaginate, createPaginatePages } from './paginate.js';
import { createPipeline } from './request.js';
import { createTransport } from './transport.js';
import type { ApiClient, ClientOptions } from './types.js';
import { timerSleep } from './wait.js';

export const DEFAULTS = {
  timeoutMs: 30_000,
  maxRetries: 3,
  maxWaitMs: 60_000,
  userAgent: 'socialpub-client',
} as const;

export function createClient(options: ClientOptions): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const transport = createTransport(options.dispatcher);
  const pipeline = createPipeline({
    baseUrl,
    apiKey: options.apiKey,
    userAgent: options.userAgent ?? DEFAULTS.userAgent,
    timeoutMs: positive(options.timeoutMs, DEFAULTS.timeoutMs),
    maxRetries: Math.max(0, Math.floor(options.maxRetries ?? DEFAULTS.maxRetries)),
    maxWaitMs: Math.max(0, options.maxWaitMs ?? DEFAULTS.maxWaitMs),
    signal: options.signal,
    now: options.now ?? Date.now,
    sleep: options.sleep ?? timerSleep,
    random: options.random ?? Math.random,
    debug: options.debug,
    onRateLimit: options.onRateLimit,
    onRetry: options.onRetry,
    fetcher: transport.fetcher,
  });
  const paginate = createPaginate(pipeline.request);
  return {
    baseUrl,
    request: pipeline.request,
    paginate,
    ...createEndpoints(pipeline.request, paginate, createPaginatePages(pipeline.request)),
    async close() {
      // A dispatcher belongs to whoever passed it in (tests close their MockAgent); the default
      // transport's keep-alive agent is ours to release.
      pipeline.close();
      transport.close();
    },
  };
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}
