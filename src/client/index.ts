// createClient: the API client every command gets from ctx.client(). Loaded lazily; the response
// schemas (zod/mini) load while the first request is out (endpoints.ts), node:http with the first
// request (transport.ts).
import { createEndpoints } from './endpoints.js';
import { createAccountEndpoints } from './account-endpoints.js';
import { createSyncPostlyEndpoints } from './syncpostly/index.js';
export { createRequestBudget, BudgetError, type RequestBudget } from './budget.js';
import { createPaginate, createPaginatePages } from './paginate.js';
import { createPipeline } from './request.js';
import { CLIENT_DEFAULTS, WRITE_RETRY } from './retry-timing.js';
import { createTransport } from './transport.js';
import type { ApiClient, ClientOptions } from './types.js';
import { timerSleep } from './wait.js';

export function createClient(options: ClientOptions): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const dialect = options.dialect ?? 'socialpub';
  const transport = createTransport(options.fetcher);
  const pipeline = createPipeline({
    baseUrl,
    apiKey: options.apiKey,
    userAgent: options.userAgent ?? 'socialpub-client',
    timeoutMs: positive(options.timeoutMs, CLIENT_DEFAULTS.timeoutMs),
    maxRetries: Math.max(0, Math.floor(options.maxRetries ?? CLIENT_DEFAULTS.maxRetries)),
    // A caller that counts its retries (maxRetries) gets that count for writes too, unless it asks for both.
    writeRetryBudgetMs: Math.max(0, options.writeRetryBudgetMs ?? (options.maxRetries === undefined ? WRITE_RETRY.budgetMs : 0)),
    maxWaitMs: Math.max(0, options.maxWaitMs ?? CLIENT_DEFAULTS.maxWaitMs),
    signal: options.signal,
    now: options.now ?? Date.now,
    sleep: options.sleep ?? timerSleep,
    random: options.random ?? Math.random,
    debug: options.debug,
    onRateLimit: options.onRateLimit,
    onRetry: options.onRetry,
    budget: options.budget,
    // SyncPostly documents no idempotency header (its creates are guarded by lostAnswer instead).
    idempotencyKeys: dialect !== 'syncpostly',
    fetcher: transport.fetcher,
  });
  const paginate = createPaginate(pipeline.request);
  const paginatePages = createPaginatePages(pipeline.request);
  return {
    baseUrl,
    dialect,
    budget: options.budget,
    request: pipeline.request,
    paginate,
    ...(dialect === 'syncpostly'
      ? createSyncPostlyEndpoints(pipeline.request, paginate, paginatePages, options.debug, options.now ?? Date.now)
      : { ...createEndpoints(pipeline.request, paginate, paginatePages), accounts: createAccountEndpoints(pipeline.request, paginate) }),
    async close() {
      pipeline.close();
      transport.close();
    },
  };
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}
