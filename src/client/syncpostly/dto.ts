// SyncPostly's response schemas for the client, loaded with zod while the first request is out
// (as ../endpoints.ts does for ours). A single object may come bare or wrapped in `data`
// (assumptions.singleObjects): `single` accepts both and `unwrap` takes the object out.
import type { Schema } from '../../wire/schemas.js';
import type * as SpSchemasModule from '../../wire/syncpostly/schemas.js';
import type { LazySchema } from '../types.js';
import { schemasFrom } from '../validate.js';

type SpSchemas = typeof SpSchemasModule;

const schemas = () => import('../../wire/syncpostly/schemas.js');

export const lazySp = schemasFrom(schemas);

/** The object alone, or `{ data: object }`. */
export type Single<T> = T | { data: T };

export function lazySingle<T>(pick: (s: SpSchemas) => unknown): LazySchema<Single<T>> {
  let built: Promise<Schema<Single<T>>> | undefined;
  return {
    load: () =>
      (built ??= (async () => {
        const [s, z] = await Promise.all([schemas(), import('zod/mini')]);
        const inner = pick(s) as Schema<T>;
        return z.union([inner, z.looseObject({ data: inner })]);
      })()),
  };
}

export function unwrap<T extends { id: string }>(value: Single<T>): T {
  const v = value as { id?: unknown; data?: unknown };
  return (typeof v.id === 'string' ? value : v.data) as T;
}
