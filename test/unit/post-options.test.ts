// The platforms' settings are judged by plain code (posts check judges every row with it, and
// loading zod cost each check its start): held here, for any value, to the zod/mini strict object
// each platform's settings were judged by before, problem for problem and in the same order.
import fc from 'fast-check';
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { judgeOptions, tagsLength, valueProblem, type OptionProblem } from '../../src/wire/post-options.js';
import { PLATFORMS, type Platform } from '../../src/wire/platforms.js';
import { PLATFORM_EXTRAS, type OptionSpec } from '../../src/wire/post-extras.js';
import { PLATFORM_NAMES } from '../../src/wire/text-limits.js';
import { nearest } from '../../src/wire/suggest.js';

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

/** The judge as it was: a zod/mini strict object, each issue made a problem. */
function byZod(platform: Platform, options: Record<string, unknown>): OptionProblem[] {
  const specs = PLATFORM_EXTRAS[platform].options;
  const keys = specs.map((s) => s.key);
  const name = PLATFORM_NAMES[platform];
  const takes = keys.length ? `${name} takes ${keys.join(', ')}` : `${name} takes no options`;
  const shape: Record<string, z.ZodMiniType> = {};
  for (const spec of specs) shape[spec.key] = z.optional(fieldSchema(spec));
  const parsed = z.strictObject(shape).safeParse(options);
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
    const spec = specs.find((s) => s.key === String(issue.path[0] ?? ''));
    if (spec) problems.push(valueProblem(platform, spec, options[spec.key]));
  }
  return problems;
}

/** Values near each kind's edges: the allowed ones, wrong types, empty and long strings, http URLs, odd tags. */
function valueFor(spec: OptionSpec): fc.Arbitrary<unknown> {
  const any = fc.oneof(fc.constant(undefined), fc.constant(null), fc.integer(), fc.boolean(), fc.string(), fc.array(fc.string(), { maxLength: 3 }), fc.jsonValue(), fc.record({ length: fc.oneof(fc.integer({ min: -1, max: 3 }), fc.string()) }));
  switch (spec.kind) {
    case 'enum':
      return fc.oneof(fc.constantFrom(...spec.values), fc.constantFrom(...spec.values).map((v) => v.toUpperCase()), any);
    case 'boolean':
      return fc.oneof(fc.boolean(), fc.constantFrom('true', 'false'), any);
    case 'string':
      return fc.oneof(
        fc.constantFrom('', 'https://example.com/a', 'http://example.com/a', 'https://', 'https://a b'),
        fc.string({ maxLength: 4 }),
        fc.nat({ max: 3 }).map((n) => `https://example.com/${'x'.repeat(spec.max - 20 + n * 10)}`),
        fc.nat({ max: 3 }).map((n) => ' '.repeat(spec.max - 1 + n)),
        any,
      );
    case 'tags':
      return fc.oneof(
        fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.constant(''), fc.integer(), fc.constant(null), fc.constant([]), fc.array(fc.nat(), { minLength: 1, maxLength: 2 })), { maxLength: 4 }),
        fc.nat({ max: 4 }).map((n) => Array.from({ length: 3 }, () => 'é'.repeat(Math.floor(spec.maxTotal / 3) + n - 2))),
        any,
      );
  }
}

const withOptions = PLATFORMS.filter((p) => PLATFORM_EXTRAS[p].options.length > 0);

describe('judgeOptions', () => {
  it('has platforms with settings of every kind to compare', () => {
    const kinds = new Set(withOptions.flatMap((p) => PLATFORM_EXTRAS[p].options.map((o) => o.kind)));
    expect([...kinds].sort()).toEqual(['boolean', 'enum', 'string', 'tags']);
  });

  it('finds what the zod/mini strict object found, problem for problem, for any settings', () => {
    const settings = fc.constantFrom(...PLATFORMS).chain((platform) => {
      const specs = PLATFORM_EXTRAS[platform].options;
      const known = specs.map((spec) => fc.option(valueFor(spec), { nil: undefined }).map((v) => [spec.key, v] as const));
      const unknown = fc.array(fc.tuple(fc.constantFrom('privacy', 'replysettings', 'board', 'x', 'constructor'), fc.jsonValue()), { maxLength: 2 });
      return fc.tuple(fc.constant(platform), fc.tuple(...known), unknown);
    });
    fc.assert(
      fc.property(settings, ([platform, known, unknown]) => {
        const options: Record<string, unknown> = {};
        for (const [k, v] of [...known, ...unknown]) if (v !== undefined || k === 'x') options[k] = v;
        expect(judgeOptions(platform, options)).toEqual(byZod(platform, options));
      }),
      { numRuns: 1000 },
    );
  });

  it('tells each fault of a string: empty, and not an https URL', () => {
    const spec = withOptions.flatMap((p) => PLATFORM_EXTRAS[p].options.map((o) => [p, o] as const)).find(([, o]) => o.kind === 'string' && o.https);
    expect(spec).toBeDefined();
    const [platform, option] = spec!;
    expect(judgeOptions(platform, { [option.key]: '' })).toHaveLength(2);
    expect(judgeOptions(platform, { [option.key]: '' })).toEqual(byZod(platform, { [option.key]: '' }));
  });

  it('refuses what is not an object of settings', () => {
    for (const options of [null, [], 'public', 3]) expect(judgeOptions('youtube', options)).toEqual([expect.objectContaining({ key: '', message: 'must be an object of settings' })]);
  });
});
