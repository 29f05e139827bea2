// The run function of `socialpub api` (loaded only when the command runs).
import type { Context } from '../../context.js';
import { UsageError } from '../../cli-error.js';
import { flagError, quote } from '../../flags/text.js';
import { ApiError } from '../../../client/errors.js';
import type { QueryValue, RequestOptions } from '../../../client/types.js';
import { fieldsToBody, fieldsToQuery, splitPathQuery, type Field } from '../../../client/api-fields.js';
import { contentTypeOf, readInput } from './read-input.js';
import { printBody } from './print-body.js';
import { randomUUID } from 'node:crypto';
import { prepareRequest, sameOrigin } from '../../../client/prepare.js';
import { rowListSchema } from '../../../wire/schemas.js';
import { printPreparedRequest } from './dry-run.js';
import type { ApiFlags } from './index.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

/** `-f key=value` as given: each split at its first `=`. */
function parseFields(raw: readonly string[]): Field[] {
  return raw.map((item) => {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new UsageError(`-f: "${item}" is not key=value`, ['for example -f limit=5 or -f text="hello world"']);
    return [item.slice(0, eq).trim(), item.slice(eq + 1)];
  });
}

export async function runApi(ctx: Context, rawPath: string, opts: ApiFlags): Promise<number> {
  const method = (opts.method ?? 'GET').toUpperCase() as Method;
  if (!METHODS.includes(method)) throw flagError('-X', `${quote(opts.method ?? '')} is not a method`, [`use one of ${METHODS.join(', ')}`]);
  const path = rawPath.trim();
  if (!path) throw new UsageError('api: give a path, for example /api/v1/post-results');
  const fields = parseFields(opts.field ?? []);
  if (opts.paginate && method !== 'GET') throw new UsageError('--paginate works with GET only');
  if (opts.input !== undefined && method === 'GET') throw new UsageError('--input: a GET carries no body', ['use -f key=value for query parameters, or -X POST']);

  const request: RequestOptions<unknown> = { method, path };
  if (method === 'GET' || opts.input !== undefined) {
    if (fields.length > 0) request.query = fieldsToQuery(fields);
  } else if (fields.length > 0) {
    request.body = fieldsToBody(fields);
  }
  if (opts.input !== undefined) {
    const bytes = await readInput(ctx, opts.input);
    request.rawBody = bytes;
    request.contentType = contentTypeOf(bytes);
  }
  if (opts.idempotencyKey !== undefined) {
    if (!opts.idempotencyKey.trim()) throw new UsageError('--idempotency-key: give a non-empty key');
    request.idempotencyKey = opts.idempotencyKey;
  } else if (method === 'POST') {
    // Chosen here rather than in the client so that a failure can name it for a safe re-run.
    request.idempotencyKey = randomUUID();
  }

  if (opts.dryRun) return dryRun(ctx, request);

  const out = ctx.output();
  const client = await ctx.client({
    onRetry: (n) => out.info(`retrying in ${Math.max(1, Math.round(n.delayMs / 1000))}s (attempt ${n.attempt}): ${n.reason}`),
  });
  if (/^https?:\/\//i.test(path) && !sameOrigin(path, client.baseUrl)) {
    out.warn(`${path} is not on ${client.baseUrl}: it is sent without the API key`);
  }
  if (opts.paginate) return paginate(ctx, client, path, request.query ?? {});

  try {
    const res = await client.request(request);
    await printBody(ctx, res.data, res.headers['content-type']);
    if (res.replayed) out.info(`replayed: the service returned the stored response of idempotency key ${res.idempotencyKey}; nothing new was created`);
    return 0;
  } catch (err) {
    if (err instanceof ApiError && err.status !== undefined && err.body !== undefined) await printBody(ctx, err.body, undefined, true);
    if (err instanceof ApiError && request.method === 'POST' && (err.kind === 'network' || err.kind === 'timeout' || err.kind === 'server' || err.kind === 'rate-limited')) {
      // The request may have been committed: the same key makes a re-run safe.
      out.info(`to retry without creating a duplicate, re-run with --idempotency-key ${request.idempotencyKey}`);
    }
    throw err;
  }
}

async function dryRun(ctx: Context, request: RequestOptions<unknown>): Promise<number> {
  const profile = await ctx.profile();
  const prepared = prepareRequest({ baseUrl: profile.baseUrl, apiKey: profile.apiKey, userAgent: `socialpub/${ctx.version} node/${process.versions.node}` }, request);
  await printPreparedRequest(ctx, prepared, profile.apiKey);
  if (!profile.apiKey) ctx.output().warn(`no API key for profile "${profile.name}": a real run would stop with exit 3`);
  return 0;
}

async function paginate(ctx: Context, client: Awaited<ReturnType<Context['client']>>, rawPath: string, fieldQuery: Record<string, QueryValue>): Promise<number> {
  const { path, query: pathQuery } = splitPathQuery(rawPath);
  const query: Record<string, QueryValue> = { ...pathQuery, ...fieldQuery };
  const offset = numberParam(query.offset, 'offset');
  const pageSize = numberParam(query.limit, 'limit');
  const rows = client.paginate<{ id: string }>(path, query, rowListSchema as never, {
    ...(offset !== undefined ? { offset } : {}),
    ...(pageSize !== undefined ? { pageSize } : {}),
  });
  // Rows of an unknown endpoint have no columns: --paginate prints JSON (an array, or NDJSON).
  await ctx.output().list(rows, { kind: 'document' });
  return 0;
}

function numberParam(value: QueryValue, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(Array.isArray(value) ? value[value.length - 1] : value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`-f ${name}: "${String(value)}" is not a whole number`);
  return n;
}
