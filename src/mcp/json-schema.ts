// The tools' input schemas are plain JSON Schema, and this checks arguments against the small
// subset they use. Each schema is written once with every rule the server applies (lengths,
// ranges, patterns, unique items); what an assistant reads is derived from it by
// `publishedSchema`: the portable part that OpenAI's strict function calling, Gemini's function
// declarations and Anthropic's strict tool use all accept, the rest said once in the server's
// instructions and checked here when called. Problems come back as InvalidInputError issues naming
// the argument path (`platforms[1]`, `text_for.bluesky`), each with its fix where one can be said.
import type { InputIssue } from '../wire/invalid-input.js';
import { nearest } from '../wire/suggest.js';

export interface JsonSchema {
  type: 'object' | 'array' | 'string' | 'integer' | 'boolean';
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: false;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  enum?: readonly string[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  /** The fix checkArgs gives for a value that breaks a rule here; never served (the rule is said in the instructions). */
  fix?: string;
  /** The fix for an empty string, where it is not `fix` (a title: left out or given text, not shortened). */
  emptyFix?: string;
  /**
   * The enum's values are named once in the server's instructions instead of in every tool that
   * takes them (the platforms: eleven copies were a twentieth of tools/list); checked when called.
   */
  enumInInstructions?: true;
}

/** A schema as served in tools/list (JSON Schema with `null` unions). */
export type PublishedSchema = Record<string, unknown>;

/**
 * How the served schemas say "optional":
 * - `strict` (the default): every property listed in `required`, an optional one as a `null`
 *   union, every object closed with `additionalProperties: false`: what OpenAI's strict function
 *   calling demands, and what Anthropic's strict tool use and Gemini's JSON Schema declarations
 *   (`parametersJsonSchema`) accept;
 * - `openapi`: the OpenAPI 3.0 subset of Gemini's older `parameters` field, for a host that
 *   still uses it: `nullable: true`, only the truly required properties in `required`, and no
 *   `additionalProperties` (which that field refuses; unknown arguments are refused when called).
 */
export const SCHEMA_DIALECTS = ['strict', 'openapi'] as const;
export type SchemaDialect = (typeof SCHEMA_DIALECTS)[number];

/**
 * The schema an assistant reads, in the dialect asked for, without any keyword one of the
 * providers refuses (length, range, pattern, uniqueItems, default). The rules left out are still
 * checked by checkArgs on every call, with the same messages.
 */
export function publishedSchema(schema: JsonSchema, dialect: SchemaDialect = 'strict', nullable = false): PublishedSchema {
  const strict = dialect === 'strict';
  const out: PublishedSchema = { type: nullable && strict ? [schema.type, 'null'] : schema.type };
  if (nullable && !strict) out.nullable = true;
  if (schema.description) out.description = schema.description;
  if (schema.enum && !schema.enumInInstructions) out.enum = nullable && strict ? [...schema.enum, null] : [...schema.enum];
  if (schema.items) out.items = publishedSchema(schema.items, dialect);
  if (schema.type === 'object') {
    const props = schema.properties ?? {};
    const required = new Set(schema.required ?? []);
    out.properties = Object.fromEntries(Object.entries(props).map(([name, p]) => [name, publishedSchema(p, dialect, !required.has(name))]));
    out.required = strict ? Object.keys(props) : [...required];
    if (strict) out.additionalProperties = false;
  }
  return out;
}

const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' && Number.isInteger(v) ? 'integer' : typeof v);

/** Problems listed in one answer; a call with more (5,000 bad items) is told the first ones and a count. */
export const MAX_ISSUES = 10;

/** The arguments' problems, at most MAX_ISSUES of them and a line counting the rest. */
export function checkArgs(schema: JsonSchema, value: unknown): InputIssue[] {
  const issues = check(schema, value, '');
  if (issues.length <= MAX_ISSUES) return issues;
  return [...issues.slice(0, MAX_ISSUES), { field: '(arguments)', message: `… and ${issues.length - MAX_ISSUES} more problems like these` }];
}

/** Longest part of a value quoted back in a message: what was given may be megabytes. */
const QUOTED_CHARS = 40;

/** A value as a message quotes it: JSON-quoted (control characters shown), cut with its length when long. */
export function quoted(s: string): string {
  return s.length <= QUOTED_CHARS ? JSON.stringify(s) : `${JSON.stringify(s.slice(0, QUOTED_CHARS)).slice(0, -1)}…" (${s.length} characters)`;
}

/** Where a string holds half a surrogate pair: it is not text, and no request could carry it. */
const LONE_SURROGATE = /\p{Cs}/u;

function check(schema: JsonSchema, value: unknown, path: string): InputIssue[] {
  const issues: InputIssue[] = [];
  const at = path || '(arguments)';
  const add = (message: string, fix?: string) => issues.push({ field: at, message: `${at}: ${message}`, ...(fix ? { fix } : {}) });
  const actual = typeOf(value);
  if (actual !== schema.type && !(schema.type === 'integer' && actual === 'number')) {
    // One value where a list belongs is the commonest slip: show the list it should be.
    const asList = schema.type === 'array' && actual === 'string' ? `give a list: ${JSON.stringify([value])}` : undefined;
    add(`expected ${schema.type === 'array' || schema.type === 'object' || schema.type === 'integer' ? 'an' : 'a'} ${schema.type}, got ${actual}`, asList);
    return issues;
  }
  switch (schema.type) {
    case 'string': {
      const s = value as string;
      const lone = LONE_SURROGATE.exec(s);
      if (lone) {
        add(`is not valid Unicode (a lone surrogate, \\u${lone[0].charCodeAt(0).toString(16)}, at character ${lone.index + 1})`, 'send it as text (UTF-8) without the broken character');
        return issues;
      }
      if (schema.enum && !schema.enum.includes(s)) {
        const near = nearest(s, schema.enum) ?? partOf(s, schema.enum);
        add(`${quoted(s)} is not one of ${schema.enum.join(', ')}`, near ? `did you mean "${near}"?` : undefined);
      }
      if (schema.minLength !== undefined && s.length < schema.minLength) add(s.length === 0 ? 'is empty' : `is shorter than ${schema.minLength} characters`, (s.length === 0 ? schema.emptyFix : undefined) ?? schema.fix);
      if (schema.maxLength !== undefined && s.length > schema.maxLength) add(`is longer than ${schema.maxLength} characters`, schema.fix ?? `shorten it to ${schema.maxLength}`);
      if (schema.pattern && !new RegExp(schema.pattern).test(s)) add(`${quoted(s)} does not have the expected form`, schema.fix ?? schema.description);
      break;
    }
    case 'integer': {
      const n = value as number;
      const range = schema.minimum !== undefined && schema.maximum !== undefined ? `give a whole number from ${schema.minimum} to ${schema.maximum}` : undefined;
      if (!Number.isInteger(n)) add(`${n} is not a whole number`, range);
      else if (schema.minimum !== undefined && n < schema.minimum) add(`${n} is below the minimum of ${schema.minimum}`, range);
      else if (schema.maximum !== undefined && n > schema.maximum) add(`${n} is above the maximum of ${schema.maximum}`, range);
      break;
    }
    case 'array': {
      const a = value as unknown[];
      if (schema.minItems !== undefined && a.length < schema.minItems) add(`needs at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`, 'give null to leave it out');
      if (schema.maxItems !== undefined && a.length > schema.maxItems) add(`takes at most ${schema.maxItems} items`, `give ${schema.maxItems} or fewer`);
      if (schema.items) a.forEach((item, i) => issues.push(...check(schema.items!, item, `${path}[${i}]`)));
      if (schema.uniqueItems && new Set(a.map((x) => JSON.stringify(x))).size !== a.length) add('lists an item twice', 'list each once');
      break;
    }
    case 'object': {
      const o = value as Record<string, unknown>;
      const props = schema.properties ?? {};
      // Own properties only: an argument named "constructor" is not Object.prototype's.
      const prop = (name: string) => (Object.hasOwn(props, name) ? props[name] : undefined);
      for (const name of schema.required ?? []) {
        const given = Object.hasOwn(o, name) ? o[name] : undefined;
        const fix = prop(name)?.fix ?? prop(name)?.description;
        if (given === undefined || given === null) issues.push({ field: join(path, name), message: `${join(path, name)} is missing`, ...(fix ? { fix } : {}) });
      }
      for (const [name, v] of Object.entries(o)) {
        // Some assistants send null for an optional argument they leave out.
        if (v === undefined || v === null) continue;
        const known = prop(name);
        if (known) issues.push(...check(known, v, join(path, name)));
        else if (schema.additionalProperties === false) {
          // A name no argument has is quoted as any value is: it may be megabytes, or broken text.
          const shown = name.length > QUOTED_CHARS || LONE_SURROGATE.test(name) ? quoted(name) : name;
          const child = join(path, shown);
          const known = Object.keys(props);
          const near = nearest(name, known);
          issues.push({ field: child, message: `${child}: ${path ? `${quoted(name)} is not one of ${known.join(', ')}` : 'unknown argument'}`, fix: near ? `did you mean "${near}"?` : `the ${path ? 'keys' : 'arguments'} are ${known.join(', ')}` });
        }
      }
      break;
    }
  }
  return issues;
}

const join = (path: string, name: string) => (path ? `${path}.${name}` : name);

/** The one value that has `s` as a whole part of its name: "x" → "twitter-x", "facebook" → "facebook-page". */
function partOf(s: string, values: readonly string[]): string | undefined {
  const want = s.trim().toLowerCase();
  const found = values.filter((v) => v.split('-').includes(want));
  return found.length === 1 ? found[0] : undefined;
}

/**
 * The arguments with every null member of an object left out (how strict-mode callers say
 * "absent"); an object left empty by that (text_for with every platform null) goes too, so the
 * call is the same call as one that left it out (the same derived idempotency key).
 */
export function withoutNulls(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(args)) {
    if (v === null || v === undefined) continue;
    if (typeof v !== 'object' || Array.isArray(v)) out[name] = v;
    else {
      const inner = withoutNulls(v as Record<string, unknown>);
      if (Object.keys(inner).length > 0 || Object.keys(v).length === 0) out[name] = inner;
    }
  }
  return out;
}
