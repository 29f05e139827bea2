// Run by every build: writes src/wire/response-checks.ts, the response schemas of
// src/wire/schemas.ts and account-schemas.ts as plain functions, so that a command whose answer
// fits its schema never loads zod (~8 ms of start-up on `results get` and `posts view`).
// The zod schemas stay the one source: each function returns what the schema's safeParse
// returns as data (a loose object's known keys first, then the others; `__proto__` left out) or
// REFUSED, and only then does the client load zod to say what is wrong. Any schema kind, check
// or wrapper not handled below fails the generation, naming where it is: a function is never
// looser or stricter than its schema (test/unit/response-checks.test.ts compares them on valid,
// mutated and random bodies, and fails when this file is stale).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url);
export const CHECKS_FILE = new URL('src/wire/response-checks.ts', root);
/** The modules whose exported schemas become checks, as the generated file names them. */
export const SCHEMA_MODULES = ['src/wire/schemas.ts', 'src/wire/account-schemas.ts'];

/** Wrappers that do not change a value's shape (as --fields sees it). */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly', 'catch']);

/**
 * Dotted names of an object schema's fields, parents before their children (`error`,
 * `error.code`, …). Records and arrays are leaves: their keys are data, not field names.
 */
export function schemaFields(schema, prefix = '') {
  let def = schema.def;
  while (WRAPPERS.has(def.type) && def.innerType) def = def.innerType.def;
  if (def.type !== 'object' || !def.shape) return [];
  return Object.entries(def.shape).flatMap(([key, child]) => [prefix + key, ...schemaFields(child, `${prefix}${key}.`)]);
}

const isSchema = (v) => typeof v === 'object' && v !== null && typeof v.def === 'object' && typeof v.safeParse === 'function';

/** The source of src/wire/response-checks.ts for these exported schemas, by name. */
export function checksSource(schemas) {
  const functions = [];
  const names = new Map();
  const bodies = new Map();
  const building = new Set();
  const unsupported = (where, what) => {
    throw new Error(`gen-wire-checks: ${where}: ${what} has no plain check; add it to scripts/gen-wire-checks.mjs (and its test) or leave the schema out`);
  };
  const noChecks = (def, where) => {
    if (def.checks?.length) unsupported(where, `a ${def.type} with checks`);
    if (def.coerce) unsupported(where, `a coerced ${def.type}`);
  };
  /** The name of a function (value) => output | REFUSED for this schema. */
  const check = (schema, where) => {
    if (names.has(schema)) return names.get(schema);
    const def = schema.def;
    const leaf = { string: 'string', boolean: 'boolean', unknown: 'unknown' }[def.type];
    if (leaf) {
      noChecks(def, where);
      if (def.format !== undefined) unsupported(where, `a ${def.type} of format ${def.format}`);
      return leaf;
    }
    if (def.type === 'number') {
      noChecks(def, where);
      if (def.format === undefined) return 'number';
      if (def.format === 'safeint') return 'int';
      unsupported(where, `a number of format ${def.format}`);
    }
    if (building.has(schema)) unsupported(where, 'a schema that holds itself');
    building.add(schema);
    const body = [];
    if (def.type === 'optional' || def.type === 'nullable') {
      // zod lets a key holding nullable(optional(…)) be missing too: not told apart below.
      if (def.type === 'nullable' && def.innerType.def.type === 'optional') unsupported(where, 'a nullable optional');
      const inner = check(def.innerType, where);
      body.push(`return value === ${def.type === 'optional' ? 'undefined' : 'null'} ? value : ${inner}(value);`);
    } else if (def.type === 'enum') {
      noChecks(def, where);
      const values = Object.values(def.entries);
      if (!values.every((v) => typeof v === 'string')) unsupported(where, 'an enum of other than strings');
      body.push(`return ${values.map((v) => `value === ${JSON.stringify(v)}`).join(' || ')} ? value : REFUSED;`);
    } else if (def.type === 'array') {
      noChecks(def, where);
      body.push(`return array(value, ${check(def.element, `${where}[]`)});`);
    } else if (def.type === 'record') {
      noChecks(def, where);
      const key = def.keyType.def;
      if (key.type !== 'string' || key.checks?.length || def.mode !== undefined) unsupported(where, 'a record keyed other than by any string');
      body.push(`return record(value, ${check(def.valueType, `${where}.*`)});`);
    } else if (def.type === 'object') {
      noChecks(def, where);
      const catchall = def.catchall?.def.type;
      if (catchall !== undefined && catchall !== 'unknown' && catchall !== 'never') unsupported(where, `an object whose other keys are ${catchall}`);
      const keys = Object.keys(def.shape).filter((k) => k !== '__proto__');
      body.push('if (!isObject(value)) return REFUSED;', 'const out: Record<string, unknown> = {};', 'let x: unknown;');
      for (const key of keys) {
        const child = def.shape[key];
        const at = JSON.stringify(key);
        // zod's rule for a key: an optional one may be missing (and is then left out); any other must be there.
        if (child.def.type === 'optional') body.push(`if (${at} in value) {`, `  x = ${check(child, `${where}.${key}`)}(value[${at}]);`, '  if (x === REFUSED) return REFUSED;', `  out[${at}] = x;`, '}');
        else if (child.def.type === 'unknown') unsupported(`${where}.${key}`, 'an unknown value under a key');
        else body.push(`x = ${check(child, `${where}.${key}`)}(value[${at}]);`, `if (x === REFUSED || !(${at} in value)) return REFUSED;`, `out[${at}] = x;`);
      }
      if (catchall === 'unknown') body.push(`return rest(value, out, ${JSON.stringify(keys)});`);
      else if (catchall === 'never') body.push(`return onlyKnown(value, ${JSON.stringify(keys)}) ? out : REFUSED;`);
      else body.push('return out;');
    } else unsupported(where, `a schema of type ${def.type}`);
    // Schemas written alike (each `z.optional(z.string())` is its own object) share one function.
    const text = body.map((l) => `  ${l}`).join('\n');
    let name = bodies.get(text);
    if (name === undefined) {
      name = `c${bodies.size}`;
      bodies.set(text, name);
      functions.push(`function ${name}(value: unknown): unknown {\n${text}\n}`);
    }
    names.set(schema, name);
    return name;
  };
  const exported = Object.entries(schemas)
    .filter(([, schema]) => isSchema(schema))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, schema]) => ({ name, fn: check(schema, name), fields: schemaFields(schema) }));
  const code = functions.join('\n\n');
  return `${HEADER}
${[...helpersFor(code), code].join('\n\n')}

/** Each schema's check: what its safeParse gives as data, or REFUSED. */
export const CHECKS = {
${exported.map((e) => `  ${e.name}: ${e.fn},`).join('\n')}
} as const;

/** Each schema's field names for --fields (parents before children; records and arrays are leaves). */
export const FIELDS = {
${exported.map((e) => `  ${e.name}: ${JSON.stringify(e.fields)},`).join('\n')}
} as const;
`;
}

const HEADER = `// Generated by scripts/gen-wire-checks.mjs from ${SCHEMA_MODULES.join(' and ')} at every build:
// do not edit. Each response schema as a plain function, so that an answer that fits is taken
// without loading zod; one that does not is handed to zod, which says what is wrong.

/** What a check returns for a value its schema refuses. */
export const REFUSED: unique symbol = Symbol('refused');
`;

/** The functions generated checks call, each written into the file only when something calls it. */
const HELPERS = `function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** zod's test for a record: an object whose constructor, if a function, has an ordinary prototype. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  const ctor = value.constructor;
  if (ctor === undefined || typeof ctor !== 'function') return true;
  const proto: unknown = ctor.prototype;
  return isObject(proto) && Object.prototype.hasOwnProperty.call(proto, 'isPrototypeOf');
}

function string(value: unknown): unknown {
  return typeof value === 'string' ? value : REFUSED;
}

function number(value: unknown): unknown {
  return typeof value === 'number' && Number.isFinite(value) ? value : REFUSED;
}

function int(value: unknown): unknown {
  return Number.isSafeInteger(value) ? value : REFUSED;
}

function boolean(value: unknown): unknown {
  return typeof value === 'boolean' ? value : REFUSED;
}

function unknown(value: unknown): unknown {
  return value;
}

function array(value: unknown, item: (value: unknown) => unknown): unknown {
  if (!Array.isArray(value)) return REFUSED;
  const out: unknown[] = new Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const x = item(value[i]);
    if (x === REFUSED) return REFUSED;
    out[i] = x;
  }
  return out;
}

/** A record keyed by any string: its own enumerable string keys (a symbol key is refused), \`__proto__\` left out. */
function record(value: unknown, item: (value: unknown) => unknown): unknown {
  if (!isPlainObject(value)) return REFUSED;
  const out: Record<string, unknown> = {};
  for (const key of Reflect.ownKeys(value)) {
    if (key === '__proto__' || !Object.prototype.propertyIsEnumerable.call(value, key)) continue;
    if (typeof key !== 'string') return REFUSED;
    const x = item(value[key]);
    if (x === REFUSED) return REFUSED;
    out[key] = x;
  }
  return out;
}

/** A loose object's other keys, after its known ones, as they come (\`__proto__\` left out). */
function rest(value: Record<string, unknown>, out: Record<string, unknown>, known: readonly string[]): unknown {
  for (const key in value) if (key !== '__proto__' && !known.includes(key)) out[key] = value[key];
  return out;
}

/** A strict object: no key besides its known ones (\`__proto__\` included). */
function onlyKnown(value: Record<string, unknown>, known: readonly string[]): boolean {
  for (const key in value) if (!known.includes(key)) return false;
  return true;
}
`
  .split(/\n\n+/)
  .map((text) => ({ text: text.trim(), name: /function (\w+)/.exec(text)[1] }));

/** The helpers the given code calls or passes (not a type named alike), and those they call in turn, in HELPERS' order. */
function helpersFor(code) {
  const used = new Set();
  for (let grew = true; grew; ) {
    grew = false;
    const text = [code, ...HELPERS.filter((h) => used.has(h.name)).map((h) => h.text)].join('\n');
    for (const h of HELPERS) if (!used.has(h.name) && new RegExp(`(?<!\\w: )\\b${h.name}(?=[()])`).test(text)) used.add(h.name), (grew = true);
  }
  return HELPERS.filter((h) => used.has(h.name)).map((h) => h.text);
}

/** The exported schemas of SCHEMA_MODULES, bundled with zod for this run. */
async function loadSchemas() {
  const contents = SCHEMA_MODULES.map((m) => `export * from ${JSON.stringify(new URL(m, root).pathname)};`).join('\n');
  const out = await build({ stdin: { contents, resolveDir: root.pathname, loader: 'ts' }, bundle: true, platform: 'node', format: 'cjs', write: false, logLevel: 'warning' });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', out.outputFiles[0].text)(module, module.exports, createRequire(import.meta.url));
  return module.exports;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const source = checksSource(await loadSchemas());
  let current;
  try {
    current = readFileSync(CHECKS_FILE, 'utf8');
  } catch {
    current = undefined;
  }
  // Written only when it changed: an unchanged file keeps tsc's incremental build valid.
  if (current !== source) writeFileSync(CHECKS_FILE, source);
}
