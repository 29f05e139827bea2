// --platform values checked before any request, with a suggestion for near misses (exit 2).
import { PLATFORMS, isPlatform, type Platform } from '../../wire/platforms.js';
import { UsageError } from '../cli-error.js';

// Names people type for a platform whose id is spelled otherwise.
const ALIASES: Record<string, Platform> = {
  twitter: 'twitter-x',
  x: 'twitter-x',
  tweet: 'twitter-x',
  facebook: 'facebook-page',
  fb: 'facebook-page',
  ig: 'instagram',
  insta: 'instagram',
  yt: 'youtube',
  bsky: 'bluesky',
  li: 'linkedin',
  pin: 'pinterest',
  tt: 'tiktok',
};

/** Edit distance (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** The platform id the user most likely meant, or undefined when nothing is close. */
export function nearestPlatform(input: string): Platform | undefined {
  const text = input.trim().toLowerCase();
  if (!text) return undefined;
  const alias = ALIASES[text] ?? ALIASES[text.replace(/[^a-z]/g, '')];
  if (alias) return alias;
  let best: Platform | undefined;
  let bestDistance = Infinity;
  // Near misses of an id or of a name people use for it ("twiter" → twitter-x).
  const candidates: Array<[string, Platform]> = [...PLATFORMS.map((p): [string, Platform] => [p, p]), ...Object.entries(ALIASES)];
  for (const [name, p] of candidates) {
    if (text.length >= 3 && (p.startsWith(text) || text.startsWith(p))) return p;
    const d = editDistance(text, name);
    if (d < bestDistance) {
      best = p;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(1, Math.floor(text.length / 3)) ? best : undefined;
}

/**
 * Splits repeated and comma-separated values, accepts any letter case, drops repeats, and
 * refuses unknown ids naming the flag and the nearest id.
 */
export function parsePlatformFlags(values: readonly string[], flag = '--platform'): Platform[] {
  const out: Platform[] = [];
  for (const raw of splitList(values)) {
    const value = raw.toLowerCase();
    if (!isPlatform(value)) {
      const near = nearestPlatform(raw);
      const hints = near ? [`did you mean "${near}"?`] : [];
      hints.push(`platforms: ${PLATFORMS.join(', ')}`);
      throw new UsageError(`${flag}: "${raw}" is not a platform id`, hints, 'UNKNOWN_PLATFORM');
    }
    if (!out.includes(value)) out.push(value);
  }
  return out;
}

/** Repeated flags, each of which may also hold a comma-separated list. */
export function splitList(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    for (const part of v.split(',')) {
      const t = part.trim();
      if (t && !out.includes(t)) out.push(t);
    }
  }
  return out;
}
