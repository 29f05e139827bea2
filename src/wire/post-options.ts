// A platform's settings (`payloads.<platform>.options`) judged against its schema: one zod/mini
// strict object per platform, built from the table in post-extras.ts, so an unknown key or value
// is named with what the platform takes and the nearest spelling. The client judges `--option`
// and bodies with it before any request; the sandbox answers 422 with the same words.
import * as z from 'zod/mini';
import { PLATFORMS, type Platform } from './platforms.js';
import { allowedText, PLATFORM_EXTRAS, type OptionSpec } from './post-extras.js';
import { PLATFORM_NAMES } from './text-limits.js';
import { nearest } from './suggest.js';

export interface OptionProblem {
  /** The setting's key ('' for the options object as a whole). */
  key: string;
  message: string;
  fix: string;
}

/** Sum of the tags' lengths with the commas between them, as YouTube counts snippet.tags. */
export const tagsLength = (tags: readonly string[]) => tags.reduce((n, t) => n + [...t].length, 0) + Math.max(0, tags.length - 1);

function fieldSchema(spec: OptionSpec): z.ZodMiniType {
  switch (spec.kind) {
    case 'enum':
      return z.enum(spec.values as [string, ...string[]]);
    case 'boolean':
      return z.boolean();
    case 'string':
      return z.string().check(
        z.minLength(1),
        z.maxLength(spec.max),
        z.refine((v) => !spec.https || /^https:\/\/[^\s]+$/i.test(v)),
      );
    case 'tags':
      return z.array(z.string().check(z.minLength(1))).check(z.refine((tags) => tagsLength(tags) <= spec.maxTotal));
  }
}

const SCHEMAS = new Map<Platform, z.ZodMiniType>();
/** The platform's settings as a zod/mini schema (every key optional, no other key). */
export function optionsSchema(platform: Platform): z.ZodMiniType {
  let schema = SCHEMAS.get(platform);
  if (!schema) {
    const shape: Record<string, z.ZodMiniType> = {};
    for (const spec of PLATFORM_EXTRAS[platform].options) shape[spec.key] = z.optional(fieldSchema(spec));
    SCHEMAS.set(platform, (schema = z.strictObject(shape)));
  }
  return schema;
}

/** Every problem of a platform's options; empty when the service would take them. */
export function judgeOptions(platform: Platform, options: unknown): OptionProblem[] {
  const specs = PLATFORM_EXTRAS[platform].options;
  const name = PLATFORM_NAMES[platform];
  const keys = specs.map((s) => s.key);
  const takes = keys.length ? `${name} takes ${keys.join(', ')}` : `${name} takes no options`;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    return [{ key: '', message: 'must be an object of settings', fix: takes }];
  }
  const parsed = optionsSchema(platform).safeParse(options);
  if (parsed.success) return [];
  const problems: OptionProblem[] = [];
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const near = keys.length ? nearest(key, keys) : undefined;
        problems.push({ key, message: `${name} has no option "${key}"`, fix: near ? `did you mean "${near}"? (${takes})` : takes });
      }
      continue;
    }
    const key = String(issue.path[0] ?? '');
    const spec = specs.find((s) => s.key === key);
    if (!spec) continue;
    const value = (options as Record<string, unknown>)[key];
    problems.push(valueProblem(platform, spec, value));
  }
  return problems;
}

/** What is wrong with one setting's value, in words that list what it takes. */
export function valueProblem(platform: Platform, spec: OptionSpec, value: unknown): OptionProblem {
  const shown = typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
  const allowed = allowedText(spec);
  if (spec.kind === 'enum' && typeof value === 'string') {
    const near = nearest(value, spec.values);
    return { key: spec.key, message: `${shown} is not a value of ${platform}.${spec.key}`, fix: near ? `did you mean "${near}"? (valid: ${allowed})` : `valid: ${allowed}` };
  }
  if (spec.kind === 'tags' && Array.isArray(value) && value.every((t) => typeof t === 'string' && t !== '')) {
    return { key: spec.key, message: `the tags come to ${tagsLength(value)} characters; ${PLATFORM_NAMES[platform]} takes at most ${spec.maxTotal}`, fix: 'drop or shorten tags' };
  }
  return { key: spec.key, message: `${shown} is not valid for ${platform}.${spec.key}`, fix: `${spec.key} takes ${allowed}` };
}

/** Every `platform.key` there is: what completion offers and `--option` names when it is wrong. */
export function optionNames(): string[] {
  return PLATFORMS.flatMap((p) => PLATFORM_EXTRAS[p].options.map((o) => `${p}.${o.key}`));
}
