// API keys: `sk_sandbox_<32 base-62 characters>`, random per start unless seeded. A presented
// key is compared with every workspace's key in constant time: both sides are hashed first
// (equal lengths, so the length of a key leaks nothing) and no comparison stops early.
import { createHash, timingSafeEqual } from 'node:crypto';
import { randomToken, STREAM, type Entropy } from './random.js';

export const KEY_PREFIX = 'sk_sandbox_';

export function makeApiKey(seeded: Entropy | undefined, tag: number): string {
  return KEY_PREFIX + randomToken(32, seeded, STREAM.apiKey, tag);
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export class KeyRing<T> {
  private readonly entries: { digest: Buffer; owner: T }[];

  constructor(entries: { key: string; owner: T }[]) {
    this.entries = entries.map((e) => ({ digest: digest(e.key), owner: e.owner }));
  }

  find(presented: string): T | undefined {
    const d = digest(presented);
    let found: T | undefined;
    for (const e of this.entries) if (timingSafeEqual(d, e.digest)) found = e.owner;
    return found;
  }
}
