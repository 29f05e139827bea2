// Validation at the boundary: a response that breaks its schema becomes a ResponseShapeError that
// names the field and the request id, never a stack trace. Unknown fields pass (schemas are loose).
import type { Schema } from '../wire/schemas.js';
import { ResponseShapeError } from './errors.js';
import type { LazySchema } from './types.js';

/**
 * Response schemas picked from a module of schemas that loads (with zod) only when the first
 * request that needs one is on its way: `const lazy = schemasFrom(() => import('…'))`, then
 * `lazy<Post>((s) => s.postSchema)`. With the schema's plain check (`CHECKS.postSchema`), zod
 * loads only for an answer the check refuses.
 */
export function schemasFrom<M>(load: () => Promise<M>): <T>(pick: (schemas: M) => unknown, quick?: (data: unknown) => unknown) => LazySchema<T> {
  return <T>(pick: (schemas: M) => unknown, quick?: (data: unknown) => unknown) => ({ load: async () => pick(await load()) as Schema<T>, ...(quick ? { quick } : {}) });
}

export interface ShapeContext {
  method: string;
  target: string;
  status: number;
  requestId: string | undefined;
  body: unknown;
}

const MAX_LISTED = 3;

export function validateResponse<T>(schema: Schema<T>, data: unknown, where: ShapeContext): T {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issues = result.error.issues.flatMap((issue) => closestOption(issue as Issue));
  const listed = issues.slice(0, MAX_LISTED).map((issue) => `${formatPath(issue.path)}: ${describeIssue(issue, data)}`);
  const more = issues.length > MAX_LISTED ? ` (and ${issues.length - MAX_LISTED} more)` : '';
  const rid = where.requestId ? ` (request id ${where.requestId})` : '';
  throw new ResponseShapeError(`unexpected response from ${where.method} ${where.target}: ${listed.join('; ')}${more}${rid}`, {
    status: where.status,
    code: 'RESPONSE_SHAPE',
    requestId: where.requestId,
    body: where.body,
    issues: issues.map((issue) => ({ path: formatPath(issue.path), message: describeIssue(issue, data) })),
  });
}

interface Issue {
  code?: string;
  path: ReadonlyArray<PropertyKey>;
  message: string;
  expected?: unknown;
  values?: readonly unknown[];
  /** invalid_union: each option's own issues, their paths relative to the union. */
  errors?: ReadonlyArray<readonly Issue[]>;
}

/**
 * A body none of a union's shapes fits (an object, bare or in `data`) is told by the shape it came
 * nearest, the one with the fewest issues, rather than zod's bare "Invalid input".
 */
function closestOption(issue: Issue): Issue[] {
  if (issue.code !== 'invalid_union' || !issue.errors?.length) return [issue];
  const nearest = issue.errors.reduce((a, b) => (b.length < a.length ? b : a));
  if (nearest.length === 0) return [issue];
  return nearest.flatMap((inner) => closestOption({ ...inner, path: [...issue.path, ...inner.path] }));
}

/**
 * zod/mini carries no English messages ("Invalid input"), so say what was expected and what came,
 * by type only: values can be long or private.
 */
export function describeIssue(issue: Issue, data: unknown): string {
  if (issue.code === 'invalid_type' && typeof issue.expected === 'string') {
    return `expected ${issue.expected}, got ${typeName(valueAt(data, issue.path))}`;
  }
  if (issue.code === 'invalid_value' && Array.isArray(issue.values)) {
    return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return issue.message;
}

function valueAt(data: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current = data;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || typeof key === 'symbol') return undefined;
    if (!(key in current)) return MISSING;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

const MISSING = Symbol('missing');

function typeName(value: unknown): string {
  if (value === MISSING) return 'nothing (the field is missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/** data.3.platform_data.url; "(body)" for the whole body. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  if (path.length === 0) return '(body)';
  return path.map((p) => (typeof p === 'symbol' ? p.toString() : String(p))).join('.');
}
