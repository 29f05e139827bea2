// Values from a fixed set (platform ids, post statuses, formats, --by keys): any letter case,
// comma lists, and one "did you mean" for near misses.
import { PLATFORMS, POST_STATUSES, type Platform, type PostStatus } from '../../wire/platforms.js';
import { nearest, suggestPlatform } from '../../wire/suggest.js';
import { flagError, givenList, quote } from './text.js';


export interface ChoiceRules {
  /** What one value is called in messages ("platform id", "status"). */
  noun: string;
  /** The nearest valid value for a miss (default: edit distance over the choices). */
  suggest?: (value: string) => string | undefined;
  /** The line that lists the valid values (default: "valid: a, b, c"). */
  listLabel?: string;
  /** The error code (default: UNKNOWN_<NOUN>). */
  code?: string;
}

/** "a platform id", "an account status". */
const oneOf = (rules: ChoiceRules) => `${/^[aeiou]/i.test(rules.noun) ? 'an' : 'a'} ${rules.noun}`;
const validList = (choices: readonly string[], rules: ChoiceRules) => `${rules.listLabel ?? 'valid'}: ${choices.join(', ')}`;

export function choice<T extends string>(flag: string, value: string, choices: readonly T[], rules: ChoiceRules): T {
  const v = value.trim().toLowerCase();
  if ((choices as readonly string[]).includes(v)) return v as T;
  const near = (rules.suggest ?? ((x) => nearest(x, choices)))(value);
  const code = rules.code ?? `UNKNOWN_${rules.noun.toUpperCase().replace(/[^A-Z]+/g, '_')}`;
  throw flagError(flag, `${quote(value)} is not ${oneOf(rules)}`, [near ? `did you mean ${quote(near)}?` : undefined, validList(choices, rules)], code);
}

/** A repeatable choice flag: every value checked, repeats dropped. Not given, the list is empty; given blank, refused. */
export function choices<T extends string>(flag: string, values: readonly string[] | undefined, valid: readonly T[], rules: ChoiceRules): T[] {
  const out: T[] = [];
  for (const raw of givenList(flag, values, oneOf(rules), [validList(valid, rules)])) {
    const v = choice(flag, raw, valid, rules);
    if (!out.includes(v)) out.push(v);
  }
  return out;
}

const PLATFORM_RULES: ChoiceRules = { noun: 'platform id', suggest: suggestPlatform, listLabel: 'platforms', code: 'UNKNOWN_PLATFORM' };
const STATUS_RULES: ChoiceRules = { noun: 'post status', listLabel: 'statuses', code: 'UNKNOWN_STATUS' };

export const platform = (flag: string, value: string): Platform => choice(flag, value, PLATFORMS, PLATFORM_RULES);
export const platforms = (flag: string, values: readonly string[] | undefined): Platform[] => choices(flag, values, PLATFORMS, PLATFORM_RULES);
export const statuses = (flag: string, values: readonly string[] | undefined): PostStatus[] => choices(flag, values, POST_STATUSES, STATUS_RULES);
