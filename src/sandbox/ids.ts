// Ids that are random-looking yet carry their own position: a keyed Feistel permutation of
// (kind, workspace, index) written in base 62. Decoding an id is O(1) with no lookup table
// (a million fixture rows need no id map), and an id minted for another workspace or kind
// decodes to a different (kind, workspace) pair, so it is rejected exactly like a missing one.
import { base62, hash, parseBase62, STREAM, type Entropy } from './random.js';

export const ID_KIND = { post: 1, result: 2, media: 3, message: 4, request: 5, account: 6, platform: 7 } as const;
export type IdKind = keyof typeof ID_KIND;

const PREFIX: Record<IdKind, string> = {
  post: 'post_',
  result: 'res_',
  media: 'med_',
  message: 'msg_',
  request: 'req_',
  account: 'acc_',
  platform: 'plt_',
};

const ROUNDS = 4;

export class IdCodec {
  private readonly keys: number[];

  constructor(entropy: Entropy) {
    this.keys = Array.from({ length: ROUNDS }, (_, r) => hash(entropy, STREAM.ids, r));
  }

  private round(x: number, r: number): number {
    let h = Math.imul((x ^ this.keys[r]!) >>> 0, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    return h >>> 0;
  }

  /** `scope` is a workspace tag (0..65535), `index` a position (0..2^32-1). */
  encode(kind: IdKind, scope: number, index: number): string {
    let left = ((ID_KIND[kind] << 16) | (scope & 0xffff)) >>> 0;
    let right = index >>> 0;
    for (let r = 0; r < ROUNDS; r++) [left, right] = [right, (left ^ this.round(right, r)) >>> 0];
    return PREFIX[kind] + base62(left) + base62(right);
  }

  /** The index an id stands for, or undefined when it is not an id of this kind and scope. */
  decode(kind: IdKind, scope: number, id: string): number | undefined {
    const prefix = PREFIX[kind];
    if (typeof id !== 'string' || id.length !== prefix.length + 12 || !id.startsWith(prefix)) return undefined;
    const a = parseBase62(id.slice(prefix.length, prefix.length + 6));
    const b = parseBase62(id.slice(prefix.length + 6));
    if (a === undefined || b === undefined) return undefined;
    let left = a;
    let right = b;
    for (let r = ROUNDS - 1; r >= 0; r--) [left, right] = [(right ^ this.round(left, r)) >>> 0, left];
    if (left !== ((ID_KIND[kind] << 16) | (scope & 0xffff)) >>> 0) return undefined;
    return right;
  }
}
