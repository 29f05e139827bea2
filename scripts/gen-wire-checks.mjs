// Run by every build: writes src/wire/response-checks.ts, the response schemas of
// src/wire/schemas.ts and account-schemas.ts as plain checks made of src/wire/check-kinds.ts, so
// that a command whose answer fits its schema never loads zod (~9 ms of CPU on `results get`).
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
  const lines = [];
  const names = new Map();
  const byExpression = new Map();
  const building = new Set();
  const kinds = new Set();
  const kind = (name) => (kinds.add(name), name);
  const unsupported = (where, what) => {
    throw new Error(`gen-wire-checks: ${where}: ${what} has no plain check; add it to src/wire/check-kinds.ts and scripts/gen-wire-checks.mjs (and the test) or leave the schema out`);
  };
  const noChecks = (def, where) => {
    if (def.checks?.length) unsupported(where, `a ${def.type} with checks`);
    if (def.coerce) unsupported(where, `a coerced ${def.type}`);
  };
  /** The name of the check for this schema, declared (children first) in `lines`. */
  const check = (schema, where) => {
    if (names.has(schema)) return names.get(schema);
    const def = schema.def;
    if (def.type === 'string' || def.type === 'boolean' || def.type === 'unknown') {
      noChecks(def, where);
      if (def.format !== undefined) unsupported(where, `a ${def.type} of format ${def.format}`);
      return kind(def.type);
    }
    if (def.type === 'number') {
      noChecks(def, where);
      if (def.format === undefined) return kind('number');
      if (def.format === 'safeint') return kind('int');
      unsupported(where, `a number of format ${def.format}`);
    }
    if (building.has(schema)) unsupported(where, 'a schema that holds itself');
    building.add(schema);
    let expression;
    if (def.type === 'optional' || def.type === 'nullable') {
      // zod lets a key holding nullable(optional(…)) be missing too: not told apart here.
      if (def.type === 'nullable' && def.innerType.def.type === 'optional') unsupported(where, 'a nullable optional');
      expression = `${kind(def.type)}(${check(def.innerType, where)})`;
    } else if (def.type === 'enum') {
      noChecks(def, where);
      const values = Object.values(def.entries);
      if (!values.every((v) => typeof v === 'string')) unsupported(where, 'an enum of other than strings');
      expression = `${kind('oneOf')}(${JSON.stringify(values)})`;
    } else if (def.type === 'array') {
      noChecks(def, where);
      expression = `${kind('array')}(${check(def.element, `${where}[]`)})`;
    } else if (def.type === 'record') {
      noChecks(def, where);
      const key = def.keyType.def;
      if (key.type !== 'string' || key.checks?.length || key.format !== undefined || def.mode !== undefined) unsupported(where, 'a record keyed other than by any string');
      expression = `${kind('record')}(${check(def.valueType, `${where}.*`)})`;
    } else if (def.type === 'object') {
      noChecks(def, where);
      const others = { undefined: 'strip', unknown: 'loose', never: 'strict' }[def.catchall?.def.type];
      if (others === undefined) unsupported(where, `an object whose other keys are ${def.catchall.def.type}`);
      const keys = Object.keys(def.shape)
        .filter((k) => k !== '__proto__')
        .map((k) => {
          const child = def.shape[k].def;
          // zod's rule for a key: an optional one may be missing; any other must be there.
          if (child.type === 'unknown') unsupported(`${where}.${k}`, 'an unknown value under a key');
          return `[${JSON.stringify(k)}, ${check(def.shape[k], `${where}.${k}`)}${child.type === 'optional' ? ', 1' : ''}]`;
        });
      expression = `${kind('object')}([${keys.join(', ')}], '${others}')`;
    } else unsupported(where, `a schema of type ${def.type}`);
    // Schemas written alike (each `z.optional(z.string())` is its own object) share one check.
    let name = byExpression.get(expression);
    if (name === undefined) {
      name = `c${byExpression.size}`;
      byExpression.set(expression, name);
      lines.push(`const ${name} = ${expression};`);
    }
    names.set(schema, name);
    return name;
  };
  const exported = Object.entries(schemas)
    .filter(([, schema]) => isSchema(schema))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, schema]) => ({ name, check: check(schema, name), fields: schemaFields(schema) }));
  return `// Generated at every build by scripts/gen-wire-checks.mjs from ${SCHEMA_MODULES.join(' and ')}:
// do not edit. Each response schema as a plain check (src/wire/check-kinds.ts), so that an answer
// that fits is taken without loading zod; one that does not goes to zod, which says what is wrong.
import { ${[...kinds].sort().join(', ')} } from './check-kinds.js';

export { REFUSED } from './check-kinds.js';

${lines.join('\n')}

/** Each schema's check: what its safeParse gives as data, or REFUSED. */
export const CHECKS = {
${exported.map((e) => `  ${e.name}: ${e.check},`).join('\n')}
} as const;

/** Each schema's field names for --fields (parents before children; records and arrays are leaves). */
export const FIELDS = {
${exported.map((e) => `  ${e.name}: ${JSON.stringify(e.fields)},`).join('\n')}
} as const;
`;
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
