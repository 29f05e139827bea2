// A response schema that loads on demand (zod and the wire schemas, ~6 ms) starts loading only
// once the request has been handed to the transport, so the load overlaps the wait; it still
// validates; and a request that fails leaves no unhandled rejection behind.
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { createPipeline, type PipelineConfig } from '../../src/client/request.js';
import { NetworkError, ResponseShapeError } from '../../src/client/errors.js';
import type { Fetcher, WireResponse } from '../../src/client/transport.js';
import type { LazySchema } from '../../src/client/types.js';
import { CHECKS } from '../../src/wire/response-checks.js';
import { postSchema, type Post } from '../../src/wire/schemas.js';

function answer(body: unknown): WireResponse {
  return { status: 200, statusText: 'OK', headers: { forEach: (cb) => cb('application/json', 'content-type') }, text: async () => JSON.stringify(body) };
}

function pipeline(fetch: Fetcher) {
  return createPipeline(pipelineConfig(fetch));
}

const item = z.looseObject({ id: z.string() });

describe('a schema loaded on demand', () => {
  it('loads after the request was sent and before its answer is read, then validates', async () => {
    const events: string[] = [];
    // The answer comes a turn of the event loop after the request is sent, as from a network.
    const fetch: Fetcher = async () => {
      events.push('sent');
      await new Promise((r) => setImmediate(r));
      events.push('answered');
      return answer({ id: 'x_1' });
    };
    const schema: LazySchema<{ id: string }> = {
      load: async () => {
        events.push('load');
        return item;
      },
    };
    const p = pipeline(fetch);
    const res = await p.request({ method: 'GET', path: '/items/x_1', schema });
    expect(res.data).toEqual({ id: 'x_1' });
    expect(events).toEqual(['sent', 'load', 'answered']);
  });

  it('still turns an answer that breaks it into a ResponseShapeError', async () => {
    const p = pipeline(async () => answer({ id: 42 }));
    const err = await p.request({ method: 'GET', path: '/items/x', schema: { load: async () => item } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect((err as Error).message).toMatch(/id: expected string, got number/);
  });

  it('is loaded once per request, not once per attempt', async () => {
    let loads = 0;
    let calls = 0;
    const fetch: Fetcher = async () => {
      calls++;
      if (calls === 1) throw Object.assign(new Error('reset'), { code: 'ECONNRESET' });
      return answer({ id: 'x' });
    };
    const p = createPipeline({ ...pipelineConfig(fetch), maxRetries: 1 });
    await p.request({ method: 'GET', path: '/items/x', schema: { load: async () => (loads++, item) } });
    expect(calls).toBe(2);
    expect(loads).toBe(1);
  });

  it('leaves no unhandled rejection when the request fails and the load fails too', async () => {
    const p = pipeline(async () => {
      throw Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    });
    await expect(p.request({ method: 'GET', path: '/x', schema: { load: () => Promise.reject(new Error('no schema')) } })).rejects.toBeInstanceOf(NetworkError);
    // The load ran (a turn later) and failed; vitest fails the run on an unhandled rejection.
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
  });
});

describe('a schema with its plain check (src/wire/response-checks.ts)', () => {
  it('takes an answer the check accepts without loading the schema, as the check gave it', async () => {
    let loads = 0;
    const schema: LazySchema<Post> = { load: async () => (loads++, postSchema), quick: CHECKS.postSchema };
    const body = { extra: 1, id: 'post_1', status: 'draft', payloads: { x: { text: 'hi' } } };
    const res = await pipeline(async () => answer(body)).request({ method: 'GET', path: '/v1/posts/post_1', schema });
    expect(loads).toBe(0);
    // zod's order: the schema's keys first, then the others.
    expect(Object.keys(res.data)).toEqual(['id', 'status', 'payloads', 'extra']);
  });

  it('loads the schema for an answer the check refuses, and says what zod says', async () => {
    let loads = 0;
    const schema: LazySchema<Post> = { load: async () => (loads++, postSchema), quick: CHECKS.postSchema };
    const body = { id: 'post_1', status: 7, payloads: {} };
    const err = await pipeline(async () => answer(body)).request({ method: 'GET', path: '/v1/posts/post_1', schema }).catch((e: unknown) => e);
    expect(loads).toBe(1);
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect((err as Error).message).toBe('unexpected response from GET /v1/posts/post_1: status: expected string, got number');
  });
});

function pipelineConfig(fetch: Fetcher): PipelineConfig {
  return {
    baseUrl: 'http://127.0.0.1:9',
    apiKey: 'sk_test_lazy',
    userAgent: 'test',
    timeoutMs: 5000,
    maxRetries: 0,
    writeRetryBudgetMs: 0,
    budget: undefined,
    maxWaitMs: 0,
    signal: undefined,
    now: () => 0,
    sleep: async () => {},
    random: () => 0,
    debug: undefined,
    onRateLimit: undefined,
    onRetry: undefined,
    fetcher: async () => fetch,
  };
}
