// Every tool's input schema as tools/list serves it, judged by the rules of the three function-
// calling dialects an assistant's host may hand it to, each written here as a checker from the
// provider's documented restrictions; and the size of the tools/list answer the server really sends
// (each tool's share printed, to see where the bytes go). Output schemas are checked to compile
// here and against real answers in test/integration/mcp-sdk-client.test.ts.
import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { describeTool, instructions } from '../../src/mcp/server.js';
import { TOOLS } from '../../src/mcp/tools/index.js';
import { checkArgs, publishedSchema, type JsonSchema } from '../../src/mcp/json-schema.js';
import { PLATFORMS } from '../../src/wire/platforms.js';
import { startMcpPipe } from '../helpers/mcp-stdio.js';

type Node = Record<string, unknown>;

/** Every schema node with its path: properties, items, anyOf branches. */
function* nodes(schema: Node, path = '$'): Generator<[Node, string]> {
  yield [schema, path];
  for (const [name, child] of Object.entries((schema.properties as Record<string, Node> | undefined) ?? {})) yield* nodes(child, `${path}.${name}`);
  if (schema.items && typeof schema.items === 'object') yield* nodes(schema.items as Node, `${path}[]`);
  for (const [i, branch] of ((schema.anyOf as Node[] | undefined) ?? []).entries()) yield* nodes(branch, `${path}|${i}`);
}

const types = (n: Node): string[] => (Array.isArray(n.type) ? (n.type as string[]) : typeof n.type === 'string' ? [n.type] : []);

/**
 * OpenAI strict function calling (Structured Outputs, "Supported schemas"): the root is an object,
 * not anyOf; every object lists all its properties in `required` (optional ones are null unions)
 * and sets `additionalProperties: false`; keywords beyond the supported subset (type, properties,
 * required, additionalProperties, items, enum, const, anyOf, description, title, $ref/$defs) are
 * refused or unenforced: the string, number and array constraints, `default`, `propertyNames`,
 * `uniqueItems`, `format`.
 */
function openAiStrict(schema: Node): string[] {
  const allowed = new Set(['type', 'description', 'title', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', '$ref', '$defs']);
  const out: string[] = [];
  if (schema.type !== 'object' || schema.anyOf) out.push('$: the root must be a plain object');
  for (const [n, path] of nodes(schema)) {
    for (const key of Object.keys(n)) if (!allowed.has(key)) out.push(`${path}: ${key} is not supported`);
    if (types(n).includes('object')) {
      if (n.additionalProperties !== false) out.push(`${path}: additionalProperties must be false`);
      const props = Object.keys((n.properties as Node | undefined) ?? {});
      const required = (n.required as string[] | undefined) ?? [];
      for (const p of props) if (!required.includes(p)) out.push(`${path}.${p}: every property must be required (optional: a null union)`);
    }
    if (n.enum && types(n).includes('null') && !(n.enum as unknown[]).includes(null)) out.push(`${path}: a nullable enum must list null`);
  }
  return out;
}

/**
 * Gemini function declarations (FunctionDeclaration.parametersJsonSchema, the JSON Schema form
 * whose documented example closes the object with `additionalProperties: false`; the older
 * `parameters` field takes an OpenAPI 3.0 subset without it): no `propertyNames`,
 * `patternProperties`, `uniqueItems`, `additionalProperties` other than false, no object without
 * properties, and `type` a single type or a type with "null".
 */
function gemini(schema: Node): string[] {
  const out: string[] = [];
  for (const [n, path] of nodes(schema)) {
    for (const key of ['propertyNames', 'patternProperties', 'uniqueItems', 'dependentSchemas', 'not']) if (key in n) out.push(`${path}: ${key} is not supported`);
    if ('additionalProperties' in n && n.additionalProperties !== false) out.push(`${path}: additionalProperties other than false is not supported`);
    if (types(n).includes('object') && Object.keys((n.properties as Node | undefined) ?? {}).length === 0) out.push(`${path}: an object needs properties`);
    const t = types(n).filter((x) => x !== 'null');
    if (t.length > 1) out.push(`${path}: one type (and null) only`);
  }
  return out;
}

/**
 * Anthropic strict tool use (structured outputs, "JSON Schema limitations"): no numeric
 * constraints (minimum, maximum, exclusive bounds, multipleOf), no string length constraints, no
 * array constraints beyond minItems of 0 or 1, `additionalProperties` false on every object.
 */
function anthropicStrict(schema: Node): string[] {
  const out: string[] = [];
  for (const [n, path] of nodes(schema)) {
    for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'maxItems', 'uniqueItems', 'propertyNames', 'patternProperties']) if (key in n) out.push(`${path}: ${key} is not supported`);
    if (typeof n.minItems === 'number' && n.minItems > 1) out.push(`${path}: minItems above 1 is not supported`);
    if (types(n).includes('object') && n.additionalProperties !== false) out.push(`${path}: additionalProperties must be false`);
  }
  return out;
}

/**
 * What the tools/list answer may weigh. It was 26.2 kB (strict schemas, output schemas, four more
 * tools); what every tool means the same way is now said once, in the server's instructions (the
 * shared arguments, the platform names), the hints the MCP spec defaults are left out, and output
 * schemas require only what a client acts on: 17.2 kB. 12 kB was asked, but the contract's 15
 * tools in the strict form alone (names, titles, hints, input schemas without one description:
 * null unions, every property in `required`, text_for's nine platforms in five tools) and output
 * schemas of bare {type: object} weigh 12.3 kB. Below that needs the tools themselves to change
 * (text_for as a list of {platform, text}: -1.75 kB; schedule_post by post_id only: -1.1 kB).
 */
const LIST_BUDGET_KB = 17;

/**
 * Gemini's older `parameters` field (Schema, "a select subset of an OpenAPI 3.0 schema object"):
 * `type` one of its types, optionality as `nullable`; fields outside the subset (such as
 * `additionalProperties`, `propertyNames`, `uniqueItems`, `const`, `anyOf` with null types) are
 * refused; an object needs properties.
 */
function geminiOpenApi(schema: Node): string[] {
  const allowed = new Set(['type', 'format', 'title', 'description', 'nullable', 'enum', 'maxItems', 'minItems', 'properties', 'required', 'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern', 'example', 'anyOf', 'propertyOrdering', 'default', 'items', 'minimum', 'maximum']);
  const out: string[] = [];
  for (const [n, path] of nodes(schema)) {
    for (const key of Object.keys(n)) if (!allowed.has(key)) out.push(`${path}: ${key} is not supported`);
    if (typeof n.type !== 'string') out.push(`${path}: type must be one type`);
    if (n.type === 'object' && Object.keys((n.properties as Node | undefined) ?? {}).length === 0) out.push(`${path}: an object needs properties`);
    if (Array.isArray(n.enum) && n.enum.some((v) => typeof v !== 'string')) out.push(`${path}: enum values are strings`);
  }
  return out;
}

const DIALECTS = { 'OpenAI strict': openAiStrict, Gemini: gemini, 'Anthropic strict': anthropicStrict };
const served = TOOLS.map((t) => describeTool(t));

describe('input schemas work with every model', () => {
  for (const [dialect, check] of Object.entries(DIALECTS)) {
    it(`${dialect} accepts every tool's input schema`, () => {
      for (const t of served) expect(check(t.inputSchema), `${t.name}`).toEqual([]);
    });
  }

  it("--schema-dialect openapi serves Gemini's older OpenAPI subset, which the strict form does not fit", () => {
    for (const t of TOOLS) {
      expect(geminiOpenApi(describeTool(t, 'openapi').inputSchema), t.name).toEqual([]);
      // Every tool has an argument left out by default, or an object closed to others: strict does not fit it.
      expect(geminiOpenApi(describeTool(t).inputSchema).length, t.name).toBeGreaterThan(0);
    }
    const create = describeTool(TOOLS.find((t) => t.name === 'create_draft')!, 'openapi').inputSchema;
    expect((create.properties as Record<string, Node>).title).toMatchObject({ type: 'string', nullable: true });
    expect(create.required).toEqual([]);
  });

  it('the checkers catch what the issue found: the old free-form text_for, unique items, lengths, defaults, optional properties', () => {
    const old: Node = {
      type: 'object',
      properties: {
        text_for: { type: 'object', propertyNames: { enum: ['bluesky'] }, additionalProperties: { type: 'string' } },
        platforms: { type: 'array', items: { type: 'string' }, uniqueItems: true, minItems: 1 },
        title: { type: 'string', maxLength: 200 },
        limit: { type: 'integer', minimum: 1, default: 20 },
        empty: { type: 'object', properties: {} },
      },
      additionalProperties: false,
    };
    expect(openAiStrict(old)).toEqual(
      expect.arrayContaining(['$.text_for: propertyNames is not supported', '$.platforms: uniqueItems is not supported', '$.title: maxLength is not supported', '$.limit: default is not supported', '$.title: every property must be required (optional: a null union)', '$.text_for: additionalProperties must be false']),
    );
    expect(gemini(old)).toEqual(expect.arrayContaining(['$.text_for: propertyNames is not supported', '$.platforms: uniqueItems is not supported', '$.empty: an object needs properties', '$.text_for: additionalProperties other than false is not supported']));
    expect(anthropicStrict(old)).toEqual(expect.arrayContaining(['$.title: maxLength is not supported', '$.limit: minimum is not supported', '$.text_for: additionalProperties must be false']));
  });

  it('text_for is one optional property per platform; optional arguments are null unions', () => {
    const create = served.find((t) => t.name === 'create_draft')!.inputSchema;
    const textFor = (create.properties as Record<string, Node>).text_for!;
    expect(textFor.type).toEqual(['object', 'null']);
    expect((textFor.properties as Record<string, Node>).bluesky).toEqual({ type: ['string', 'null'] });
    expect((create.properties as Record<string, Node>).title!.type).toEqual(['string', 'null']);
    const get = served.find((t) => t.name === 'get_post')!.inputSchema;
    expect((get.properties as Record<string, Node>).post_id!.type).toBe('string');
  });

  it('rules the served schema leaves out are still checked when called, naming the field', () => {
    const list = TOOLS.find((t) => t.name === 'list_results')!.inputSchema;
    expect(JSON.stringify(publishedSchema(list))).not.toMatch(/"maximum"/);
    expect(checkArgs(list, { limit: 51 })[0]).toMatchObject({ field: 'limit', message: 'limit: 51 is above the maximum of 50' });
    const draft = TOOLS.find((t) => t.name === 'create_draft')!.inputSchema;
    expect(checkArgs(draft, { platforms: ['bluesky', 'bluesky'] })[0]).toMatchObject({ field: 'platforms', message: 'platforms: lists an item twice' });
    expect(checkArgs(draft, { title: 'x'.repeat(201) })[0]).toMatchObject({ field: 'title' });
  });

  it('every enum keeps its values; a nullable one also lists null', () => {
    const schema: JsonSchema = { type: 'object', properties: { by: { type: 'string', enum: ['a', 'b'], description: 'x' } } };
    expect(publishedSchema(schema)).toEqual({ type: 'object', properties: { by: { type: ['string', 'null'], description: 'x', enum: ['a', 'b', null] } }, required: ['by'], additionalProperties: false });
  });
});

describe('what the schemas leave out is said once, and checked when called', () => {
  const said = instructions(TOOLS, { readOnly: false });

  it('the platform names are in the instructions, not in every tool; a wrong one is refused naming the field and the fix', () => {
    const text = JSON.stringify(served);
    expect(text).not.toContain(`"enum":["${PLATFORMS[0]}"`);
    expect(said).toContain(`\n- platforms: ${PLATFORMS.join(', ')}\n`);
    // text_for still names each platform as one of its properties.
    expect(Object.keys((served.find((t) => t.name === 'create_draft')!.inputSchema.properties as Record<string, Node>).text_for!.properties as Node)).toEqual([...PLATFORMS]);
    const stats = TOOLS.find((t) => t.name === 'results_stats')!.inputSchema;
    expect(checkArgs(stats, { platforms: ['blusky'] })).toEqual([{ field: 'platforms[0]', message: expect.stringContaining('"blusky" is not one of twitter-x'), fix: 'did you mean "bluesky"?' }]);
  });

  it('every argument is explained: in its own schema, in its tool\'s description, or in the instructions', () => {
    for (const t of served) {
      for (const [name, p] of Object.entries(t.inputSchema.properties as Record<string, Node>)) {
        const explained = typeof p.description === 'string' || new RegExp(`\\b${name}\\b`).test(t.description) || new RegExp(`^- ${name}: `, 'm').test(said);
        expect(explained, `${t.name}.${name}`).toBe(true);
      }
    }
  });

  it('rules moved out of the schemas are named in the instructions and refused with a fix', () => {
    expect(said).toMatch(/checked when called: an invalid_input error names the field and the fix/);
    expect(said).toMatch(/^- title: internal, never published, at most 200 characters$/m);
    expect(said).toMatch(/^- limit: rows, 1–50 \(default 20\)$/m);
    const draft = TOOLS.find((t) => t.name === 'create_draft')!.inputSchema;
    expect(checkArgs(draft, { title: 'x'.repeat(201) })[0]).toEqual({ field: 'title', message: 'title: is longer than 200 characters', fix: 'shorten it to 200' });
    expect(checkArgs(draft, { media: Array(21).fill('https://e.com/a.png') })[0]).toMatchObject({ field: 'media', fix: 'give 20 or fewer' });
    expect(checkArgs(draft, { options: ['x'] })[0]).toMatchObject({ field: 'options[0]', fix: expect.stringContaining('platform.key=value') });
    const list = TOOLS.find((t) => t.name === 'list_results')!.inputSchema;
    expect(checkArgs(list, { limit: 0 })[0]).toMatchObject({ field: 'limit', fix: 'give a whole number from 1 to 50' });
    expect(checkArgs(TOOLS.find((t) => t.name === 'get_post')!.inputSchema, {})[0]).toMatchObject({ field: 'post_id', fix: 'give a post id as list_posts returns it' });
  });
});

/** The hints as a host reads them: what the server leaves out takes the MCP spec's default. */
const hints = (annotations: Record<string, unknown>) => ({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true, ...annotations });

/** The tools/list answer line the server writes on stdio, as a host receives it. */
async function listAnswer(): Promise<string> {
  const mcp = startMcpPipe([], { SOCIALPUB_BASE_URL: 'http://127.0.0.1:9', TZ: 'UTC' });
  try {
    await mcp.initialize();
    await mcp.request(1, 'tools/list');
    return mcp.lines().find((line) => (JSON.parse(line) as { id?: unknown }).id === 1)!;
  } finally {
    expect(await mcp.close()).toBe(0);
  }
}

describe('tools/list', () => {
  it(`the answer the server sends fits in ${LIST_BUDGET_KB} kB and names no source file`, async () => {
    const line = await listAnswer();
    const tools = (JSON.parse(line) as { result: { tools: Array<Record<string, unknown>> } }).result.tools;
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    // Where the bytes go, for whoever trims it next: each tool's whole entry and its parts.
    const size = (v: unknown) => Buffer.byteLength(typeof v === 'string' ? v : JSON.stringify(v ?? ''));
    const rows = tools.map((t) => `${String(t.name).padEnd(17)} ${String(size(t)).padStart(5)}  description ${String(size(t.description)).padStart(4)}  input ${String(size(t.inputSchema)).padStart(5)}  output ${String(size(t.outputSchema)).padStart(4)}`);
    console.log(`tools/list: ${size(line)} bytes\n${rows.join('\n')}`);
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(LIST_BUDGET_KB * 1024);
    expect(line).not.toMatch(/src\/|\.ts\b/);
  });

  it('every tool has an output schema that compiles', () => {
    const ajv = new Ajv({ strict: false });
    for (const t of served) {
      expect(t.outputSchema, t.name).toMatchObject({ type: 'object' });
      expect(() => ajv.compile(t.outputSchema!), t.name).not.toThrow();
    }
  });

  it('annotations tell the truth: what can destroy says so, reads are read-only', () => {
    const read = Object.fromEntries(served.map((t) => [t.name, hints(t.annotations)]));
    for (const name of ['update_post', 'schedule_post', 'unschedule_post', 'delete_post']) expect(read[name], name).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    for (const name of ['create_draft', 'retry_failed']) expect(read[name], name).toMatchObject({ destructiveHint: false, readOnlyHint: false });
    for (const name of ['check_post', 'list_posts', 'get_post', 'list_results', 'get_result', 'wait_for_results', 'results_stats', 'list_accounts']) expect(read[name], name).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    for (const name of ['check_post', 'preview_post']) expect(read[name], name).toMatchObject({ openWorldHint: false });
    // destructiveHint is said outright on every tool: a host that does not apply the spec's default auto-approves by it.
    for (const t of served) expect(t.annotations, t.name).toHaveProperty('destructiveHint');
  });
});
