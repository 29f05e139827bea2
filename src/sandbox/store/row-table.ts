// Fixture results as columns of typed arrays: 14 bytes a row. Everything else about a row (ids,
// URLs, usernames, error details) is derived from its position and the entropy when the row is
// served, so a million rows stay small. (Results published live are rows in the database.)

export const FLAG_SUCCESS = 1;
export const FLAG_NO_ACCOUNT = 2;
/** The post broke the platform's rules (no media where needed, a video too long…): the failure is that rule's. */
export const FLAG_MEDIA_MISSING = 4;

export class RowTable {
  post: Int32Array;
  platform: Uint8Array;
  flags: Uint8Array;
  /** Event time (epoch ms); never decreases along the table, so position order is time order. */
  time: Float64Array;
  length = 0;

  constructor(capacity = 64) {
    this.post = new Int32Array(capacity);
    this.platform = new Uint8Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.time = new Float64Array(capacity);
  }

  reserve(capacity: number): void {
    if (capacity <= this.post.length) return;
    const grow = <T extends Int32Array | Uint8Array | Float64Array>(old: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(old);
      return next;
    };
    this.post = grow(this.post, (n) => new Int32Array(n));
    this.platform = grow(this.platform, (n) => new Uint8Array(n));
    this.flags = grow(this.flags, (n) => new Uint8Array(n));
    this.time = grow(this.time, (n) => new Float64Array(n));
  }

  push(post: number, platform: number, flags: number, time: number): number {
    if (this.length === this.post.length) this.reserve(this.post.length * 2);
    const i = this.length++;
    this.post[i] = post;
    this.platform[i] = platform;
    this.flags[i] = flags;
    this.time[i] = time;
    return i;
  }

  lastTime(): number {
    return this.length ? this.time[this.length - 1]! : -Infinity;
  }
}
