// Counter-based randomness: every random value is a hash of (entropy, stream, inputs), so a
// seeded sandbox is reproducible without keeping generator state, also across restarts, and
// a million fixture rows can be generated lazily, row by row, in any order.
import { randomBytes } from 'node:crypto';

/** Four 32-bit words: from --seed (reproducible) or from the system's random source. */
export type Entropy = readonly [number, number, number, number];

/** Independent streams of random values, so that adding one never shifts another. */
export const STREAM = {
  ids: 1,
  outcome: 2,
  failureCode: 3,
  account: 4,
  platformId: 5,
  chaos: 6,
  fixtureShape: 7,
  fixtureText: 8,
  apiKey: 9,
  webhookSecret: 10,
  chaosKind: 11,
  firstComment: 12,
} as const;

/** One round of the murmur3 finaliser over h ^ x: cheap, and every input bit reaches every output bit. */
export function mix(h: number, x: number): number {
  h = Math.imul((h ^ x) >>> 0, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of the entropy, a stream and up to three numbers (fixed arity: used in hot loops). */
export function hash(e: Entropy, stream: number, a = 0, b = 0, c = 0): number {
  let h = mix(e[0], stream);
  h = mix(h ^ e[1], a >>> 0);
  h = mix(h ^ e[2], b >>> 0);
  h = mix(h ^ e[3], c >>> 0);
  return h;
}

/** A number in [0, 1) from the same inputs. */
export function unit(e: Entropy, stream: number, a = 0, b = 0, c = 0): number {
  return hash(e, stream, a, b, c) / 4294967296;
}

export function entropyFromSeed(seed: number): Entropy {
  const n = Math.trunc(seed);
  const lo = n >>> 0;
  const hi = Math.floor(n / 4294967296) >>> 0;
  let h = mix(mix(0x243f6a88, lo), hi);
  const words: number[] = [];
  for (let i = 0; i < 4; i++) {
    h = mix(h, 0x9e3779b9 + i);
    words.push(h);
  }
  return words as unknown as Entropy;
}

export function randomEntropy(): Entropy {
  const b = randomBytes(16);
  return [b.readUInt32LE(0), b.readUInt32LE(4), b.readUInt32LE(8), b.readUInt32LE(12)];
}

export function isEntropy(value: unknown): value is Entropy {
  return Array.isArray(value) && value.length === 4 && value.every((w) => Number.isInteger(w) && w >= 0 && w < 4294967296);
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const BASE62_CODES = Array.from(BASE62, (c) => c.charCodeAt(0));

/** A 32-bit number as exactly `width` base-62 characters (6 holds any 32-bit value). */
export function base62(n: number, width = 6): string {
  let v = n >>> 0;
  const codes = new Array<number>(width);
  for (let i = width - 1; i >= 0; i--) {
    codes[i] = BASE62_CODES[v % 62]!;
    v = Math.floor(v / 62);
  }
  return String.fromCharCode(...codes);
}

/** Inverse of base62(); undefined when a character is not base-62 or the value exceeds 32 bits. */
export function parseBase62(s: string): number | undefined {
  let v = 0;
  for (const ch of s) {
    const d = BASE62.indexOf(ch);
    if (d < 0) return undefined;
    v = v * 62 + d;
  }
  return v < 4294967296 ? v : undefined;
}

/** `count` random base-62 characters from the entropy and a position (seeded) or from the OS. */
export function randomToken(count: number, e?: Entropy, stream = 0, a = 0): string {
  let s = '';
  if (e) {
    for (let i = 0; s.length < count; i++) s += base62(hash(e, stream, a, i));
    return s.slice(0, count);
  }
  const bytes = randomBytes(count);
  for (let i = 0; i < count; i++) s += BASE62[bytes[i]! % 62];
  return s;
}

/** `count` decimal digits, not starting with 0 (platform ids look like that). */
export function digits(count: number, e: Entropy, stream: number, a: number, b: number): string {
  let s = String(1 + (hash(e, stream, a, b, 0) % 9));
  for (let i = 1; s.length < count; i++) s += String(hash(e, stream, a, b, i)).padStart(10, '0').slice(1);
  return s.slice(0, count);
}
