// A request body (or a query value) held to the contract's schema (src/wire/contract.ts), the
// same one GET /openapi.json is generated from: which fields exist, their types, which are
// required, the enums and which keys are unknown all come from there, so the document and the
// sandbox cannot drift. This file only words zod's issues the contract's way (dotted paths,
// messages that name the fix); the platform rules run after it, on what it found sound.
import * as z from 'zod/mini';
import { platformId } from '../wire/contract.js';

export interface Issue {
  path: string;
  message: string;
}

export interface Shape {
  /** What the schema refused, worded for the wire. */
  issues: Issue[];
  /** Whether the value at this dotted path has the type the schema gives it (no issue there or above). */
  fits(path: string): boolean;
  /** Whether it fits through and through (no issue below it either). */
  sound(path: string): boolean;
}

const EXAMPLE_TIME = '2026-12-01T09:00:00Z';
const PAYLOADS_HINT = 'an object keyed by platform id, e.g. {"twitter-x": {"text": "Hello"}}';
const TIME_HINT = `an RFC 3339 timestamp with an offset, e.g. ${EXAMPLE_TIME}`;

/**
 * How a field is described when the schema refuses it, by its dotted path (first match wins):
 * `wrong` for any refusal, `missing` when it is absent, `never` when it may not be sent here.
 * Wording only: whether a value is refused is the schema's call. Unlisted fields get a
 * description from the issue itself.
 */
const WORDS: { at: RegExp; wrong: string; missing?: string; never?: string }[] = [
  { at: /^payloads$/, wrong: `must be ${PAYLOADS_HINT}`, missing: `required: ${PAYLOADS_HINT}` },
  { at: /^payloads\.[^.]+$/, wrong: 'must be an object with a "text" field' },
  { at: /\.text$/, wrong: 'required: a string' },
  { at: /\.media\.\d+\.url$/, wrong: 'required: a non-empty string' },
  { at: /\.media\.\d+$/, wrong: 'must be an object with a "url"' },
  { at: /^payloads\.[^.]+\.media$/, wrong: 'must be an array of {"url": string, "type"?: "image"|"video"}' },
  { at: /\.thread\.\d+\.media$/, wrong: 'must be an array of {"url": string}' },
  { at: /\.thread\.\d+$/, wrong: 'must be an object with a "text" string' },
  { at: /\.thread$/, wrong: 'must be an array of {"text": string, "media"?: [{"url": string}]}: the parts after the first' },
  { at: /\.accounts$/, wrong: 'must be an array of account ids (GET /v1/social-accounts lists them); leave it out for the default account' },
  { at: /\.accounts\.\d+$/, wrong: 'must be an account id string' },
  { at: /^scheduledAt$/, wrong: `must be a string: ${TIME_HINT}`, missing: `required: ${TIME_HINT}` },
  { at: /^postId$/, wrong: 'must be a post id string', never: 'give either "postId" (schedule a draft) or "payloads" (create and schedule), not both' },
  { at: /^name$/, wrong: 'required: the file name' },
  { at: /^mimeType$/, wrong: 'required: a MIME type such as image/jpeg or video/mp4' },
  { at: /^sizeBytes$/, wrong: 'required: the file size in bytes, a whole number > 0' },
];

const TYPE_WORDS: Record<string, string> = { string: 'a string', number: 'a number', int: 'a whole number', boolean: 'true or false', array: 'an array', object: 'an object', record: 'an object', null: 'null' };

const oneOf = (values: readonly unknown[]) => {
  const quoted = values.map((v) => JSON.stringify(v));
  return quoted.length <= 2 ? quoted.join(' or ') : `one of ${quoted.join(', ')}`;
};

/** The message for one refusal at a path (unknown keys come here one key at a time). */
function word(issue: z.core.$ZodIssue, path: string): string {
  const words = WORDS.find((w) => w.at.test(path));
  const missing = issue.code === 'invalid_type' && issue.input === undefined;
  if (issue.code === 'invalid_type' && issue.expected === 'never') return words?.never ?? 'may not be sent here; leave it out';
  if (words) return (missing && words.missing) || words.wrong;
  switch (issue.code) {
    case 'invalid_type': {
      const expected = TYPE_WORDS[issue.expected] ?? issue.expected;
      return missing ? `required: ${expected}` : `must be ${expected}`;
    }
    case 'invalid_value':
      return `must be ${oneOf(issue.values)}`;
    case 'too_small':
      return issue.origin === 'string' ? `must be at least ${issue.minimum} characters` : `must be at least ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'string' ? `must be at most ${issue.maximum} characters` : `must be at most ${issue.maximum}`;
    default:
      return issue.message;
  }
}

const dotted = (path: readonly PropertyKey[]) => path.map(String).join('.');

/** The branch of a union the body comes nearest to: fewest missing fields, then fewest issues, then the last. */
function nearest(branches: z.core.$ZodIssue[][]): z.core.$ZodIssue[] {
  const missing = (issues: z.core.$ZodIssue[]) => issues.filter((i) => i.code === 'invalid_type' && i.input === undefined).length;
  return branches.reduce((best, b) => (missing(b) < missing(best) || (missing(b) === missing(best) && b.length <= best.length) ? b : best));
}

function toWire(issues: readonly z.core.$ZodIssue[], base: readonly PropertyKey[], out: Issue[]): void {
  for (const issue of issues) {
    const at = [...base, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length) {
      toWire(nearest(issue.errors), at, out);
    } else if (issue.code === 'unrecognized_keys') {
      // Under `payloads` the keys are platform ids: name the ones there are.
      const platforms = at[at.length - 1] === 'payloads';
      for (const key of issue.keys) {
        out.push({ path: dotted([...at, key]), message: platforms ? `unknown platform "${key}"; supported: ${platformId.options.join(', ')}` : `is not a field here; leave it out (GET /openapi.json describes this body)` });
      }
    } else {
      const path = dotted(at);
      out.push({ path, message: word(issue, path) });
    }
  }
}

export function checkShape(schema: z.ZodMiniType, value: unknown): Shape {
  const result = z.safeParse(schema, value, { reportInput: true });
  if (result.success) return { issues: [], fits: () => true, sound: () => true };
  const issues: Issue[] = [];
  toWire(result.error.issues, [], issues);
  const fits = (path: string) => !issues.some((i) => i.path === '' || i.path === path || path.startsWith(`${i.path}.`));
  return { issues, fits, sound: (path) => fits(path) && !issues.some((i) => i.path.startsWith(`${path}.`)) };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where a dotted path points in a body, as positions (a field the body lacks comes after those it has). */
function position(body: unknown, path: string): number[] {
  const out: number[] = [];
  let at = body;
  for (const segment of path.split('.')) {
    const index = Array.isArray(at) ? Number(segment) : isObject(at) ? Object.keys(at).indexOf(segment) : -1;
    out.push(index < 0 || Number.isNaN(index) ? Infinity : index);
    at = Array.isArray(at) || isObject(at) ? (at as Record<string, unknown>)[segment] : undefined;
  }
  return out;
}

/** Issues in the order of the body they name, a field before what it holds (the schema's and the rules' together). */
export function inBodyOrder(issues: Issue[], body: unknown): Issue[] {
  if (issues.length < 2) return issues;
  const keyed = issues.map((issue) => ({ issue, at: position(body, issue.path) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < Math.min(a.at.length, b.at.length); i++) {
      if (a.at[i] !== b.at[i]) return a.at[i]! < b.at[i]! ? -1 : 1;
    }
    return a.at.length - b.at.length;
  });
  return keyed.map((k) => k.issue);
}
