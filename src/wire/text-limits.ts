// A text judged against one platform's limit, in that platform's unit: what the client refuses
// before sending, what the sandbox refuses as the service, and what the prompt shows as "N of LIMIT".
import { PLATFORM_LIMITS, type Platform } from './platforms.js';
import { countText, explainCount, xInvalidCharacters, type TextCount } from './text-length.js';

export const PLATFORM_NAMES: Record<Platform, string> = {
  'twitter-x': 'X',
  instagram: 'Instagram',
  linkedin: 'LinkedIn',
  'facebook-page': 'Facebook',
  tiktok: 'TikTok',
  youtube: 'YouTube',
  bluesky: 'Bluesky',
  threads: 'Threads',
  pinterest: 'Pinterest',
};

/** "bluesky's", "Threads'": a platform id or name ending in s takes the apostrophe alone. */
export const possessive = (name: string): string => (/s$/i.test(name) ? `${name}'` : `${name}'s`);

export interface TextVerdict {
  count: TextCount;
  limit: number;
  /** How far over the limit, in the platform's unit; 0 when it fits. */
  over: number;
  /** "X counts this text as 281: 2 URLs count 23 each", when the count needs explaining. */
  explanation: string | undefined;
  /** "281 of 280 (X counts this text as 281: 2 URLs count 23 each)". */
  summary: string;
  /** The UTF-8 ceiling some platforms add (Bluesky), when the text passes it. */
  bytesOver?: { length: number; max: number; over: number };
  /** Why the platform refuses the text whatever its length (X: U+FFFF, an unclosed directional mark). */
  invalid?: string;
}

export function judgeText(platform: Platform, text: string): TextVerdict {
  const limits = PLATFORM_LIMITS[platform];
  const count = countText(text, limits.textUnit);
  const explanation = explainCount(count, PLATFORM_NAMES[platform]);
  const verdict: TextVerdict = {
    count,
    limit: limits.maxText,
    over: Math.max(0, count.length - limits.maxText),
    explanation,
    summary: `${count.length} of ${limits.maxText}${explanation ? ` (${explanation})` : ''}`,
  };
  if (limits.textUnit === 'x-weighted') {
    const invalid = xInvalidCharacters(text);
    if (invalid) verdict.invalid = invalid;
  }
  // A UTF-16 code unit is at most 3 UTF-8 bytes: a text that short cannot pass the byte limit.
  if (limits.maxTextBytes !== undefined && text.length * 3 > limits.maxTextBytes) {
    const bytes = new TextEncoder().encode(text).byteLength;
    if (bytes > limits.maxTextBytes) verdict.bytesOver = { length: bytes, max: limits.maxTextBytes, over: bytes - limits.maxTextBytes };
  }
  return verdict;
}

/** The unit's name in a fix ("shorten it by 3 characters"): X's weighted units read as characters. */
export function unitWord(platform: Platform, n: number): string {
  const unit = PLATFORM_LIMITS[platform].textUnit;
  if (unit === 'utf8-bytes') return n === 1 ? 'byte' : 'bytes';
  return n === 1 ? 'character' : 'characters';
}

/** "303 characters is 23 over twitter-x's limit of 280 (X counts this text as 303: 2 URLs count 23 each)". */
export function overLimit(platform: Platform, verdict: TextVerdict): string {
  return `${verdict.count.length} ${unitWord(platform, verdict.count.length)} is ${verdict.over} over ${possessive(platform)} limit of ${verdict.limit}${verdict.explanation ? ` (${verdict.explanation})` : ''}`;
}
