// One source: the request bodies and query values the sandbox takes are those GET /openapi.json
// describes. From each body schema of the served document, bodies are generated that break one
// constraint each (a required field left out, a wrong type, a value outside an enum or a bound,
// an unknown platform id, a field a closed object does not name, a format); an independent
// validator confirms each breaks the document, and the sandbox must refuse each with 422 and an
// issue at that field's path. What the document leaves open (a field it does not name in an
// open object) the sandbox must take. Query values likewise, with 400.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOMY_LIMITS, testSandbox, type TestSandbox } from '../helpers/sandbox.js';

type Schema = Record<string, unknown> & { $ref?: string; type?: string | string[]; anyOf?: Schema[]; properties?: Record<string, Schema>; required?: string[]; additionalProperties?: boolean | Schema; propertyNames?: Schema; items?: Schema; enum?: unknown[]; not?: Schema; minLength?: number; minimum?: number; maximum?: number; format?: string };
type Doc = { paths: Record<string, Record<string, { parameters?: { $ref?: string; name?: string; in?: string; schema?: Schema }[] }>>; components: { schemas: Record<string, Schema>; parameters: Record<string, { name: string; schema: Schema }> } };

const REMOVE = Symbol('remove');
/** One body that breaks the document at `path` (or, for `open`, one it leaves open). */
interface Variant {
  path: string[];
  value: unknown;
  what: string;
  open?: boolean;
}

let sb: TestSandbox;
let doc: Doc;
let ajv: Ajv2020;

beforeAll(async () => {
  sb = await testSandbox({ ...ROOMY_LIMITS });
  doc = (await (await fetch(`${sb.url}/openapi.json`)).json()) as Doc;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('date-time', { validate: (s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i.test(s) && !Number.isNaN(Date.parse(s)) });
  ajv.addSchema({ $id: 'doc', components: doc.components });
});
afterAll(() => sb.close());

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${sb.url}${path}`, { method, headers: { authorization: `Bearer ${sb.key('demo')}`, 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });

const resolve = (s: Schema): Schema => (s.$ref ? resolve(doc.components.schemas[s.$ref.replace('#/components/schemas/', '')]!) : s);

/** The JSON types a schema admits (undefined: any). */
function types(s: Schema): Set<string> | undefined {
  const r = resolve(s);
  if (r.anyOf) {
    const all = r.anyOf.map(types);
    return all.includes(undefined) ? undefined : new Set(all.flatMap((t) => [...t!]));
  }
  if (r.type === undefined) return r.enum ? new Set(r.enum.map((v) => typeof v)) : undefined;
  const list = Array.isArray(r.type) ? r.type : [r.type];
  return new Set(list.flatMap((t) => (t === 'integer' ? ['integer', 'number'] : [t])));
}

const jsonType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' && Number.isInteger(v) ? 'integer' : typeof v);

/** The branch of a schema that describes a (valid) value: a nullable's non-null side. */
function branchFor(s: Schema, value: unknown): Schema {
  const r = resolve(s);
  if (!r.anyOf) return r;
  return resolve(r.anyOf.find((b) => types(b)?.has(jsonType(value))) ?? r.anyOf[0]!);
}

/** Every way to break `s` at `value` (valid), one constraint at a time, plus the ways it leaves open. */
function* variants(s: Schema, value: unknown, path: string[]): Generator<Variant> {
  const r = branchFor(s, value);
  const admits = types(s);
  if (admits && path.length > 0) {
    if (!admits.has('boolean')) yield { path, value: true, what: 'a wrong type' };
    if (admits.has('integer') && !admits.has('string')) yield { path, value: 1.5, what: 'not a whole number' };
  }
  if (r.enum) yield { path, value: 'not-one-of-them', what: 'outside the enum' };
  if (r.minLength) yield { path, value: 'x'.repeat(r.minLength - 1), what: `shorter than ${r.minLength}` };
  if (r.minimum !== undefined) yield { path, value: r.minimum - 1, what: `below ${r.minimum}` };
  if (r.maximum !== undefined) yield { path, value: r.maximum + 1, what: `above ${r.maximum}` };
  if (r.format === 'date-time') yield { path, value: 'next tuesday', what: 'not a date-time' };
  if (r.type === 'object' && typeof value === 'object' && value !== null) {
    const obj = value as Record<string, unknown>;
    for (const key of r.required ?? []) yield { path: [...path, key], value: REMOVE, what: 'a required field left out' };
    for (const [key, prop] of Object.entries(r.properties ?? {})) {
      if (prop.not) yield { path: [...path, key], value: 'x', what: 'a field this form may not have' };
      else if (key in obj) yield* variants(prop, obj[key], [...path, key]);
    }
    if (r.propertyNames?.enum) {
      const some = Object.values(obj).find((v) => v !== null);
      yield { path: [...path, 'not-a-platform'], value: some, what: 'a key outside the enum' };
    }
    if (r.additionalProperties === false) yield { path: [...path, 'surprise'], value: 1, what: 'a field the closed object does not name' };
    else if (r.properties) yield { path: [...path, 'surprise'], value: 1, what: 'a field the open object does not name', open: true };
    if (typeof r.additionalProperties === 'object' && !r.properties) {
      for (const [key, v] of Object.entries(obj)) if (v !== null) yield* variants(r.additionalProperties, v, [...path, key]);
    }
  }
  if (r.type === 'array' && Array.isArray(value) && r.items && value.length) yield* variants(r.items, value[0], [...path, '0']);
}

function apply(body: unknown, { path, value }: Variant): unknown {
  const out = structuredClone(body) as Record<string, unknown>;
  let at: Record<string, unknown> = out;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
  const last = path[path.length - 1]!;
  if (value === REMOVE) delete at[last];
  else at[last] = value;
  return out;
}

const inAWeek = () => new Date(sb.clock.now() + 7 * 86_400_000).toISOString();

/** A payload with every field the document names, that every rule takes. */
async function fullPayload() {
  const accounts = (await (await api('GET', '/v1/social-accounts?platform=twitter-x&status=connected')).json()) as { data: { id: string }[] };
  return {
    text: 'Hello',
    media: [{ url: 'https://example.com/a.png', type: 'image', alt: 'A' }],
    thread: [{ text: 'Two', media: [{ url: 'https://example.com/b.png', type: 'image', alt: 'B' }] }],
    firstComment: 'Links below',
    options: { replySettings: 'following' },
    accounts: [accounts.data[0]!.id],
  };
}

async function draftId(): Promise<string> {
  const res = await api('POST', '/v1/posts', { payloads: { bluesky: { text: 'draft' } } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

interface Case {
  name: string;
  schema: string;
  /** A body every rule takes, and the request that sends it. */
  body: () => Promise<unknown>;
  send: (body: unknown) => Promise<Response>;
  ok: number;
  /** Of a union, which branch's object schema the body follows. */
  branch?: number;
}

const CASES: Case[] = [
  { name: 'POST /v1/posts', schema: 'CreatePostBody', ok: 201, body: async () => ({ payloads: { 'twitter-x': await fullPayload() }, title: 'T' }), send: (b) => api('POST', '/v1/posts', b) },
  { name: 'PATCH /v1/posts/{id}', schema: 'UpdatePostBody', ok: 200, body: async () => ({ payloads: { 'twitter-x': await fullPayload(), linkedin: null }, title: 'T', scheduledAt: inAWeek() }), send: async (b) => api('PATCH', `/v1/posts/${await draftId()}`, b) },
  { name: 'POST /v1/schedule (a draft)', schema: 'ScheduleBody', branch: 0, ok: 201, body: async () => ({ postId: await draftId(), scheduledAt: inAWeek() }), send: (b) => api('POST', '/v1/schedule', b) },
  { name: 'POST /v1/schedule (a new post)', schema: 'ScheduleBody', branch: 1, ok: 201, body: async () => ({ payloads: { 'twitter-x': await fullPayload() }, scheduledAt: inAWeek(), title: 'T' }), send: (b) => api('POST', '/v1/schedule', b) },
  { name: 'POST /v1/media', schema: 'CreateMediaBody', ok: 201, body: async () => ({ name: 'a.png', mimeType: 'image/png', sizeBytes: 3 }), send: (b) => api('POST', '/v1/media', b) },
];

describe('request bodies: the sandbox refuses what the document refuses, at the same path', () => {
  it.each(CASES)('$name', async ({ schema, body, send, ok, branch }) => {
    const whole = doc.components.schemas[schema]!;
    const form = branch === undefined ? whole : resolve(whole.anyOf![branch]!);
    const valid = ajv.getSchema(`doc#/components/schemas/${schema}`)!;
    const base = await body();
    expect(valid(base), JSON.stringify(valid.errors)).toBe(true);
    expect((await send(base)).status).toBe(ok);
    const all = [...variants(form, base, [])];
    // Every kind of constraint the body schemas have is exercised somewhere.
    expect(all.length).toBeGreaterThan(branch === 0 ? 4 : 8);
    for (const v of all) {
      const sent = apply(base, v);
      const at = v.path.join('.');
      const res = await send(sent);
      const answer = (await res.json()) as { error?: { code: string; issues?: { path: string }[] } };
      if (v.open) {
        expect(valid(sent), `${at}: ${v.what}`).toBe(true);
        expect(res.status, `${at}: ${v.what} is taken (the document leaves it open): ${JSON.stringify(answer)}`).toBe(ok);
        continue;
      }
      expect(valid(sent), `${at}: ${v.what} breaks the document`).toBe(false);
      expect(res.status, `${at}: ${v.what}: ${JSON.stringify(answer)}`).toBe(422);
      expect(answer.error!.code).toBe('VALIDATION_ERROR');
      const paths = answer.error!.issues!.map((i) => i.path);
      // Of a union, a body that lost what marks its form is read as the other form; the
      // refusal names that form's field (e.g. postId without payloads: payloads required).
      const crossesForms = branch !== undefined && (v.value === REMOVE || v.what === 'a field this form may not have') && v.path.length === 1;
      if (crossesForms) expect(paths.length, `${at}: ${v.what}`).toBeGreaterThan(0);
      else expect(paths, `${at}: ${v.what}`).toContain(at);
    }
  });

  it('names the fix, not zod\'s words', async () => {
    const res = await api('POST', '/v1/posts', { payloads: { bluesky: { text: 1, media: [{ url: 'https://e.x/a.png', type: 'gif' }] }, myspace: { text: 'x' } } });
    const issues = ((await res.json()) as { error: { issues: { path: string; message: string }[] } }).error.issues;
    expect(issues).toEqual([
      { path: 'payloads.bluesky.text', message: 'required: a string' },
      { path: 'payloads.bluesky.media.0.type', message: 'must be "image" or "video"' },
      { path: 'payloads.myspace', message: expect.stringMatching(/^unknown platform "myspace"; supported: twitter-x, /) },
    ]);
  });
});

describe('query values: the sandbox refuses what the document refuses (400), and takes what it allows', () => {
  it('every enum and bound of a documented query parameter', async () => {
    let checked = 0;
    for (const [template, ops] of Object.entries(doc.paths)) {
      const get = ops.get;
      if (!get?.parameters || template.includes('{')) continue;
      for (const p of get.parameters) {
        const param = p.$ref ? doc.components.parameters[p.$ref.split('/').pop()!]! : (p as { name: string; schema: Schema });
        if ((p as { in?: string }).in === 'header' || !param.schema) continue;
        const item = resolve(param.schema.items ?? param.schema);
        const refused: string[] = [];
        const taken: string[] = [];
        if (item.enum) {
          refused.push('not-one-of-them');
          taken.push(...item.enum.map(String));
        }
        if (item.minimum !== undefined) {
          refused.push(String(item.minimum - 1));
          taken.push(String(item.minimum));
        }
        if (item.maximum !== undefined) {
          refused.push(String(item.maximum + 1));
          taken.push(String(item.maximum));
        }
        for (const value of refused) {
          const res = await api('GET', `${template}?${param.name}=${encodeURIComponent(value)}`);
          const answer = (await res.json()) as { error: { issues: { path: string }[] } };
          expect(res.status, `${template}?${param.name}=${value}`).toBe(400);
          expect(answer.error.issues.map((i) => i.path)).toContain(param.name);
          checked++;
        }
        for (const value of taken) expect((await api('GET', `${template}?${param.name}=${encodeURIComponent(value)}`)).status, `${template}?${param.name}=${value}`).toBe(200);
      }
    }
    // status and paging of posts, platform and paging of results, platform, status and paging of accounts.
    expect(checked).toBeGreaterThanOrEqual(13);
  });
});
