// Standard Webhooks signing: HMAC-SHA256 over "id.timestamp.body" with the base64-decoded
// secret (the part after "whsec_"), sent as "v1,<base64>" in webhook-signature, several
// space-separated signatures allowed. Used by the sandbox to sign and the listener to verify.
import { createHash, createHmac, hash, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** Accepted distance between a delivery's timestamp and now, both directions. */
/**
 * The one rule for a webhook secret: `whsec_` (optional when verifying) followed by standard
 * base64 of at least `minBytes` bytes. The sandbox signs with one of at least 12 bytes; the
 * listener accepts any non-empty one it is given.
 */
export function isWebhookSecret(secret: string, { requirePrefix = true, minBytes = 1 } = {}): boolean {
  if (requirePrefix && !secret.startsWith(SECRET_PREFIX)) return false;
  const raw = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return /^[A-Za-z0-9+/]+={0,2}$/.test(raw) && Buffer.from(raw, 'base64').length >= minBytes;
}

export const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

export function secretBytes(secret: string): Buffer {
  const raw = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Buffer.from(raw, 'base64');
}

export function generateWebhookSecret(bytes: Buffer = randomBytes(24)): string {
  return SECRET_PREFIX + bytes.toString('base64');
}

export function sign(secret: string, id: string, timestampSeconds: number, body: string | Buffer): string {
  const mac = createHmac('sha256', secretBytes(secret));
  mac.update(`${id}.${timestampSeconds}.`);
  mac.update(body);
  return `v1,${mac.digest('base64')}`;
}

export type VerifyFailure =
  | 'missing-headers'
  | 'bad-timestamp'
  | 'timestamp-too-old'
  | 'timestamp-too-new'
  | 'no-matching-signature';

export type VerifyResult = { ok: true } | { ok: false; reason: VerifyFailure };

export interface SignedHeaders {
  id: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
}

// verify() runs once per delivery in the listener, always with the same secret: the key's HMAC
// pads are prepared once (see PreparedHmac).
let cachedSecret: string | undefined;
let cachedMac: PreparedHmac | undefined;
function macFor(secret: string): PreparedHmac {
  if (secret !== cachedSecret || cachedMac === undefined) {
    cachedMac = new PreparedHmac(secretBytes(secret));
    cachedSecret = secret;
  }
  return cachedMac;
}

const BLOCK = 64;
const DIGEST = 32;
// Shared, frozen answers: verify() runs once per delivery, and its callers only read the result.
const OK: VerifyResult = Object.freeze({ ok: true });
const FAILED = Object.fromEntries(
  (['missing-headers', 'bad-timestamp', 'timestamp-too-old', 'timestamp-too-new', 'no-matching-signature'] as const).map((reason) => [reason, Object.freeze({ ok: false, reason })]),
) as Record<VerifyFailure, VerifyResult>;

/**
 * HMAC-SHA256 as RFC 2104 defines it, H((K ^ opad) || H((K ^ ipad) || message)), with both padded
 * keys computed once and the two hashes done by crypto.hash(), one call each. Per delivery this
 * creates no native object: createHmac() makes one every time (about 2 µs on Node 22 and 24 with
 * a KeyObject, 20-35 µs on Node 24 with a Buffer key). Nor does it copy the message: the text
 * "id.timestamp.body" is written straight into one buffer and hashed through a view of it, and
 * the inner digest comes back as a 32-character latin1 string (a Buffer from native code has a
 * backing store of its own for the collector to track). Checked against createHmac in the tests.
 */
export class PreparedHmac {
  /** K ^ opad, then room for the inner digest. */
  private readonly outer = Buffer.alloc(BLOCK + DIGEST, 0x5c);
  /** K ^ ipad, then the message; grown when a message does not fit. */
  private inner: Buffer;

  constructor(key: Uint8Array) {
    const k = key.length > BLOCK ? createHash('sha256').update(key).digest() : key;
    this.inner = Buffer.alloc(BLOCK + 1024, 0x36);
    for (let i = 0; i < k.length; i++) {
      this.inner[i]! ^= k[i]!;
      this.outer[i]! ^= k[i]!;
    }
  }

  /** The base64 MAC of `${id}.${timestamp}.` (UTF-8) followed by `body`. */
  base64(id: string, timestamp: string, body: Uint8Array): string {
    // A UTF-8 character takes at most 3 bytes per UTF-16 unit.
    const most = BLOCK + (id.length + timestamp.length) * 3 + 2 + body.length;
    if (most > this.inner.length) {
      const bigger = Buffer.allocUnsafe(Math.max(most, this.inner.length * 2));
      this.inner.copy(bigger, 0, 0, BLOCK);
      this.inner = bigger;
    }
    const buf = this.inner;
    let n = BLOCK + buf.write(id, BLOCK, 'utf8');
    buf[n++] = 0x2e; // .
    n += buf.write(timestamp, n, 'utf8');
    buf[n++] = 0x2e;
    buf.set(body, n);
    n += body.length;
    // 'binary' is latin1: one character per byte.
    this.outer.write(hash('sha256', buf.subarray(0, n), 'binary'), BLOCK, 'latin1');
    return hash('sha256', this.outer, 'base64');
  }
}

export function verify(
  secret: string,
  headers: SignedHeaders,
  body: string | Buffer,
  nowSeconds: number,
  toleranceSeconds = TIMESTAMP_TOLERANCE_SECONDS,
): VerifyResult {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature) return FAILED['missing-headers'];
  if (!/^\d+$/.test(timestamp)) return FAILED['bad-timestamp'];
  const ts = Number(timestamp);
  if (nowSeconds - ts > toleranceSeconds) return FAILED['timestamp-too-old'];
  if (ts - nowSeconds > toleranceSeconds) return FAILED['timestamp-too-new'];
  // The number is signed, as the reference libraries sign it: the header's own digits unless
  // they start with a zero.
  const signedTs = timestamp.length > 1 && timestamp.charCodeAt(0) === 0x30 ? String(ts) : timestamp;
  // Compare the base64 text, not decoded bytes: Node's base64 decoder skips invalid characters
  // and ignores padding bits, so decoding would accept variants the reference libraries refuse.
  const expected = macFor(secret).base64(id, signedTs, typeof body === 'string' ? Buffer.from(body) : body);
  // Space-separated "v1,<base64>" entries, walked in place (this runs once per delivery).
  for (let start = 0; start < signature.length; ) {
    let end = signature.indexOf(' ', start);
    if (end < 0) end = signature.length;
    if (signature.startsWith('v1,', start) && sameText(signature, start + 3, end, expected)) return OK;
    start = end + 1;
  }
  return FAILED['no-matching-signature'];
}

/**
 * Whether text[from, to) equals `expected`, in time that depends only on the lengths (no early
 * exit at the first difference, so timing tells an attacker nothing about how much matched).
 */
function sameText(text: string, from: number, to: number, expected: string): boolean {
  if (to - from !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= text.charCodeAt(from + i) ^ expected.charCodeAt(i);
  return diff === 0;
}
