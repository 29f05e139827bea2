// GET /openapi.json: the contract as OpenAPI 3.1, generated from the zod schemas of
// src/wire/contract.ts (zod's own JSON Schema output, draft 2020-12, which OpenAPI 3.1 speaks)
// and the operations the router serves. Built once per sandbox, on first request.
import * as z from 'zod/mini';
import { CONTRACT_SCHEMAS, limitParam, offsetParam } from '../../wire/contract.js';
import { ERROR_CODE, MAX_BODY_BYTES, PAGE } from '../../wire/protocol.js';
import type { SandboxCore } from '../core.js';
import { matchRoute } from '../routes.js';
import { OPERATIONS, type Operation } from './operations.js';

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json) => ({ 'application/json': { schema } });

/** The path templates the router really serves (a template's parameters stand for any segment). */
export function servedOperations(): [string, Operation][] {
  return Object.entries(OPERATIONS).filter(([key]) => {
    const [method, template] = key.split(' ') as [string, string];
    return matchRoute(method, template.replace(/\{[^}]+\}/g, 'x')).route !== undefined;
  });
}

function componentSchemas(): Json {
  const registry = z.registry<{ id: string; description: string }>();
  for (const [id, { schema, description }] of Object.entries(CONTRACT_SCHEMAS)) registry.add(schema, { id, description });
  const out = z.toJSONSchema(registry, { target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` }).schemas as Record<string, Json>;
  for (const schema of Object.values(out)) {
    // Each schema sits inside the document, not at a URI of its own.
    delete schema.$schema;
    delete schema.$id;
  }
  return out;
}

/** A query parameter's schema: the contract's, as the sandbox checks it, with its default. */
function paramSchema(schema: z.ZodMiniType, fallback: number): Json {
  const { $schema: _, ...out } = z.toJSONSchema(schema, { target: 'draft-2020-12' }) as Json;
  return { ...out, default: fallback };
}

const STANDARD_HEADERS = {
  'Request-Id': { $ref: '#/components/headers/RequestId' },
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimitLimit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimitReset' },
};

const ERROR_TEXT: Record<number, string> = {
  400: `Malformed request (${ERROR_CODE.badRequest}): bad JSON, a bad query value, JSON nested too deep.`,
  401: `Missing or invalid API key (${ERROR_CODE.unauthorized}).`,
  403: `The API add-on is not active for the workspace (${ERROR_CODE.addonRequired}).`,
  404: `Unknown id, or another workspace's (${ERROR_CODE.notFound}).`,
  408: 'The request body stalled.',
  409: `The same Idempotency-Key is still in flight (${ERROR_CODE.conflict}), or the post can no longer change (${ERROR_CODE.postNotEditable}).`,
  413: `The body is larger than ${MAX_BODY_BYTES} bytes (${ERROR_CODE.payloadTooLarge}).`,
  422: `Rule violations (${ERROR_CODE.validation}, with issues), or an Idempotency-Key reused with another body (${ERROR_CODE.idempotencyKeyReused}).`,
  429: `Rate limited (${ERROR_CODE.rateLimited}); always with Retry-After.`,
  500: `The service failed (${ERROR_CODE.internal}).`,
};

function errorResponses(): Json {
  const out: Json = {};
  for (const [status, description] of Object.entries(ERROR_TEXT)) {
    out[`E${status}`] = {
      description: `${description} The error body is the contract's (the service's document does not show it).`,
      headers: { ...STANDARD_HEADERS, ...(status === '429' ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : {}) },
      content: json(ref('Error')),
    };
  }
  return out;
}

function operation(key: string, op: Operation): Json {
  const [method, template] = key.split(' ') as [string, string];
  const parameters: Json[] = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
  if (op.paged) parameters.push({ $ref: '#/components/parameters/Offset' }, { $ref: '#/components/parameters/Limit' });
  for (const q of op.query ?? []) {
    const item = q.schema ? ref(q.schema) : { type: 'string' };
    parameters.push({ name: q.name, in: 'query', description: q.description, schema: q.array ? { type: 'array', items: item } : item, ...(q.array ? { style: 'form', explode: true } : {}) });
  }
  if (op.write) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  const okHeaders: Json = { ...STANDARD_HEADERS, ...(op.write ? { 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } } : {}) };
  const responses: Json = {
    [String(op.ok.status)]: { description: op.ok.description, headers: okHeaders, ...(op.ok.schema ? { content: json(ref(op.ok.schema)) } : {}) },
  };
  for (const status of [...op.errors, 401, 403, 429, 500].sort()) responses[String(status)] = { $ref: `#/components/responses/E${status}` };
  const body = op.body === 'bytes'
    ? { required: true, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } }
    : op.body
      ? { required: true, content: json(ref(op.body)) }
      : undefined;
  const description = [op.description, op.gap].filter(Boolean).join(' ');
  return {
    operationId: `${method.toLowerCase()}${template.replace(/\{[^}]+\}/g, 'ById').replace(/[^A-Za-z]+(\w)/g, (_, c: string) => c.toUpperCase())}`,
    summary: op.summary,
    ...(description ? { description } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

/** Outside the API: no key, limited per client address. */
function publicPaths(): Json {
  const doc = (summary: string, type: string, description: string) => ({ get: { summary, security: [], operationId: summary.replace(/\W+(\w)/g, (_, c: string) => c.toUpperCase()).replace(/^\w/, (c) => c.toLowerCase()), responses: { '200': { description, content: { [type]: { schema: { type: 'object' } } } }, '429': { $ref: '#/components/responses/E429' } } } });
  return {
    '/openapi.json': doc('This document', 'application/json', 'The OpenAPI document of this sandbox'),
    '/.well-known/api-catalog': doc('The API catalog', 'application/linkset+json', 'An RFC 9727 linkset naming this document'),
    '/healthz': doc('Health', 'application/json', 'The sandbox is up'),
    '/media/{id}/{name}': {
      get: {
        summary: 'An uploaded file, as a platform fetches it',
        operationId: 'getPublicMedia',
        security: [],
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, { name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'The bytes', content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } }, '404': { $ref: '#/components/responses/E404' } },
      },
    },
  };
}

export function buildOpenApi(baseUrl: string): Json {
  const paths = publicPaths() as Record<string, Json>;
  for (const [key, op] of servedOperations()) {
    const [method, template] = key.split(' ') as [string, string];
    (paths[template] ??= {})[method.toLowerCase()] = operation(key, op);
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Social Publishing Service (socialpub sandbox)',
      version: '1',
      description:
        'The Social Publishing Service API as this sandbox serves it: the service\'s API document where it speaks, and the socialpub contract where it says "not shown" (each such place says so). Generated from the same schemas the sandbox validates requests with and is tested against.',
    },
    servers: [{ url: baseUrl }],
    security: [{ bearer: [] }],
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>; a key is scoped to one workspace.' } },
      parameters: {
        Offset: { name: 'offset', in: 'query', description: 'Start of the page (default 0); out of range: 400.', schema: paramSchema(offsetParam, 0) },
        Limit: { name: 'limit', in: 'query', description: `Page size (default ${PAGE.defaultLimit}, at most ${PAGE.maxLimit}); out of range: 400. (The contract's choice: the service's document shows no numbers.)`, schema: paramSchema(limitParam, PAGE.defaultLimit) },
        IdempotencyKey: { name: 'Idempotency-Key', in: 'header', description: 'The same key and body within 24 h replays the first answer (with Idempotent-Replayed: true); another body: 422; still in flight: 409. (The service\'s document names no header; the contract does.)', schema: { type: 'string', minLength: 1, maxLength: 255 } },
      },
      headers: {
        RequestId: { description: 'Identifies the request; the client prints it with every error. (The contract\'s.)', schema: { type: 'string' } },
        RateLimitLimit: { description: 'Requests allowed per window. (The contract\'s.)', schema: { type: 'integer' } },
        RateLimitRemaining: { description: 'Requests left in the window. (The contract\'s.)', schema: { type: 'integer' } },
        RateLimitReset: { description: 'Seconds until the window allows more. (The contract\'s.)', schema: { type: 'integer' } },
        RetryAfter: { description: 'Seconds to wait before retrying (every 429 has it).', schema: { type: 'integer' } },
        IdempotentReplayed: { description: '"true" when the answer is a replay of an earlier request with the same Idempotency-Key.', schema: { type: 'string', enum: ['true'] } },
      },
      responses: errorResponses(),
    },
  };
}

/** RFC 9727: the catalog is a linkset (RFC 9264) naming the API and its description. */
export function apiCatalog(baseUrl: string): Json {
  return { linkset: [{ anchor: `${baseUrl}/`, 'service-desc': [{ href: `${baseUrl}/openapi.json`, type: 'application/vnd.oai.openapi+json;version=3.1' }], 'service-doc': [{ href: `${baseUrl}/`, type: 'text/html' }] }] };
}

const TEXT = new WeakMap<SandboxCore, string>();

/** The document as sent (built once per sandbox). */
export function openApiText(core: SandboxCore): string {
  let text = TEXT.get(core);
  if (text === undefined) TEXT.set(core, (text = JSON.stringify(buildOpenApi(core.baseUrl))));
  return text;
}
