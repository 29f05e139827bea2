// A platform's settings (`payloads.<platform>.options`) judged against the table in
// post-extras.ts, so an unknown key or value is named with what the platform takes and the
// nearest spelling. The client judges `--option` and bodies with it before any request; the
// sandbox answers 422 with the same words. Plain code, not a schema library: `posts check` judges
// every row with it, and loading zod cost each check ~11 ms of its start (a unit test holds it
// to the zod/mini strict object it replaces, problem for problem).
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

const HTTPS_URL = /^https:\/\/[^\s]+$/i;

/**
 * Length faults of anything that has a length, as a length check counts them (a list given where
 * text is expected is also told empty or too long).
 */
function lengthFaults(value: unknown, min: number, max = Infinity): number {
  if (value === null || value === undefined) return 0;
  const length = (value as { length?: unknown }).length as number | undefined;
  if (length === undefined) return 0;
  return Number(!(length >= min)) + Number(!(length <= max));
}

/**
 * How many faults a given value has (each is told, as a strict schema tells each failed check):
 * a value of the wrong type is one, and its length is judged still; a string can be empty, too
 * long and not an https URL at once; each tag that is not a string, or empty, is one, and the
 * tags' total length is judged only when every tag is a string.
 */
function faults(spec: OptionSpec, value: unknown): number {
  switch (spec.kind) {
    case 'enum':
      return typeof value === 'string' && spec.values.includes(value) ? 0 : 1;
    case 'boolean':
      return typeof value === 'boolean' ? 0 : 1;
    case 'string':
      if (typeof value !== 'string') return 1 + lengthFaults(value, 1, spec.max);
      return lengthFaults(value, 1, spec.max) + Number(spec.https === true && !HTTPS_URL.test(value));
    case 'tags': {
      if (!Array.isArray(value)) return 1;
      let n = 0;
      let allStrings = true;
      for (const t of value as unknown[]) {
        if (typeof t !== 'string') {
          allStrings = false;
          n++;
        }
        n += lengthFaults(t, 1);
      }
      return allStrings && tagsLength(value as string[]) > spec.maxTotal ? n + 1 : n;
    }
  }
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
  const record = options as Record<string, unknown>;
  const problems: OptionProblem[] = [];
  for (const spec of specs) {
    const value = record[spec.key];
    if (value === undefined) continue;
    for (let n = faults(spec, value); n > 0; n--) problems.push(valueProblem(platform, spec, value));
  }
  // Every enumerable key, inherited ones too, as a strict object schema finds the unknown ones.
  for (const key in record) {
    if (keys.includes(key)) continue;
    const near = keys.length ? nearest(key, keys) : undefined;
    problems.push({ key, message: `${name} has no option "${key}"`, fix: near ? `did you mean "${near}"? (${takes})` : takes });
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
