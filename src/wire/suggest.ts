// "Did you mean …?": one edit distance and one table of nicknames for every place that names a
// platform, a status, a field or a zone (flags, bodies, bulk files, the sandbox's 422 issues).
import { PLATFORMS, type Platform } from './platforms.js';

/** Levenshtein distance, case-insensitive (two rows of the table are enough). */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const cur = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    prev = cur;
  }
  return prev[t.length]!;
}

/** The closest candidate, or undefined when nothing is reasonably close. */
export function nearest(value: string, candidates: readonly string[], maxDistance?: number): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  const limit = maxDistance ?? Math.max(2, Math.ceil(value.length / 2));
  for (const c of candidates) {
    // The distance is at least the difference in length: a megabyte typed for a status is not measured.
    if (Math.abs(value.length - c.length) > limit) continue;
    const d = editDistance(value, c);
    if (d < bestD) [best, bestD] = [c, d];
  }
  return bestD <= limit ? best : undefined;
}

// Names people type for a platform whose id is spelled otherwise. A Map: "constructor" or
// "__proto__" typed by a user must not find Object.prototype's members.
const PLATFORM_NICKNAMES = new Map<string, Platform>([
  ['twitter', 'twitter-x'],
  ['x', 'twitter-x'],
  ['tw', 'twitter-x'],
  ['tweet', 'twitter-x'],
  ['fb', 'facebook-page'],
  ['facebook', 'facebook-page'],
  ['meta', 'facebook-page'],
  ['ig', 'instagram'],
  ['insta', 'instagram'],
  ['yt', 'youtube'],
  ['bsky', 'bluesky'],
  ['tt', 'tiktok'],
  ['li', 'linkedin'],
  ['pin', 'pinterest'],
]);

/** The platform id the user probably meant ("twiter" → twitter-x, "fb" → facebook-page). */
export function suggestPlatform(value: string): Platform | undefined {
  const v = value.trim().toLowerCase();
  if (!v) return undefined;
  const nick = PLATFORM_NICKNAMES.get(v) ?? PLATFORM_NICKNAMES.get(v.replace(/[^a-z]/g, ''));
  if (nick) return nick;
  const prefixed = PLATFORMS.find((p) => v.length >= 3 && (p.startsWith(v) || v.startsWith(p)));
  if (prefixed) return prefixed;
  const near = nearest(v, [...PLATFORMS, ...PLATFORM_NICKNAMES.keys()]);
  return near === undefined ? undefined : (PLATFORM_NICKNAMES.get(near) ?? (near as Platform));
}

/** "did you mean "X"? (valid: a, b)" or the list of valid values. */
export function didYouMean(suggestion: string | undefined, valid: readonly string[]): string {
  return suggestion ? `did you mean "${suggestion}"? (valid: ${valid.join(', ')})` : `valid values: ${valid.join(', ')}`;
}
