// Standard Webhooks verification as the listener uses it (src/wire/webhook-signing.ts).
// The vectors below are the official ones from the standard-webhooks reference libraries'
// test suites (libraries/{javascript,python,go} tests): same secret, message id, payload,
// timestamp and expected signature, and the same invalid signatures they reject.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PreparedHmac, sign, verify } from '../../src/wire/webhook-signing.js';

const SECRET = 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const MSG_ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const PAYLOAD = '{"test": 2432232314}';
const SIGN_TIMESTAMP = 1614265330;
const SIGN_EXPECTED = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
/** Well-formed but wrong, used by the reference tests in several places. */
const WRONG_SIG = 'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=';

const NOW = 1_800_000_000;

function headersAt(ts: number, secret = SECRET) {
  return { id: MSG_ID, timestamp: String(ts), signature: sign(secret, MSG_ID, ts, PAYLOAD) };
}

describe('official Standard Webhooks vectors', () => {
  it('sign: the reference signature for the reference message', () => {
    expect(sign('whsec_' + SECRET, MSG_ID, SIGN_TIMESTAMP, PAYLOAD)).toBe(SIGN_EXPECTED);
    expect(sign('whsec_' + SECRET, MSG_ID, SIGN_TIMESTAMP, Buffer.from(PAYLOAD))).toBe(SIGN_EXPECTED);
  });

  it('verify: the reference signature verifies at its own timestamp, with and without whsec_', () => {
    const h = { id: MSG_ID, timestamp: String(SIGN_TIMESTAMP), signature: SIGN_EXPECTED };
    expect(verify('whsec_' + SECRET, h, PAYLOAD, SIGN_TIMESTAMP)).toEqual({ ok: true });
    expect(verify(SECRET, h, PAYLOAD, SIGN_TIMESTAMP)).toEqual({ ok: true });
    expect(verify(SECRET, h, Buffer.from(PAYLOAD), SIGN_TIMESTAMP + 299)).toEqual({ ok: true });
  });

  it('missing id, timestamp or signature → missing-headers', () => {
    const h = headersAt(NOW);
    expect(verify(SECRET, { ...h, id: undefined }, PAYLOAD, NOW)).toEqual({ ok: false, reason: 'missing-headers' });
    expect(verify(SECRET, { ...h, timestamp: undefined }, PAYLOAD, NOW)).toEqual({ ok: false, reason: 'missing-headers' });
    expect(verify(SECRET, { ...h, signature: undefined }, PAYLOAD, NOW)).toEqual({ ok: false, reason: 'missing-headers' });
    expect(verify(SECRET, { ...h, signature: '' }, PAYLOAD, NOW)).toEqual({ ok: false, reason: 'missing-headers' });
  });

  it('invalid timestamp "hello" → bad-timestamp', () => {
    expect(verify(SECRET, { ...headersAt(NOW), timestamp: 'hello' }, PAYLOAD, NOW)).toEqual({ ok: false, reason: 'bad-timestamp' });
  });

  it('invalid, partial and empty signatures are refused', () => {
    const h = headersAt(NOW);
    for (const signature of [
      'v1,dawfeoifkpqwoekfpqoekf',
      WRONG_SIG,
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OA=',
      h.signature.slice(0, 8),
      'v1,',
    ]) {
      expect(verify(SECRET, { ...h, signature }, PAYLOAD, NOW), signature).toEqual({ ok: false, reason: 'no-matching-signature' });
    }
  });

  it('the reference "E→A" tampered signature fails at its own timestamp', () => {
    const h = { id: MSG_ID, timestamp: String(SIGN_TIMESTAMP), signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OA=' };
    expect(verify(SECRET, h, PAYLOAD, SIGN_TIMESTAMP)).toEqual({ ok: false, reason: 'no-matching-signature' });
  });

  it('multi-signature header: a valid v1 among wrong v1 and a v2 accepts', () => {
    const h = headersAt(NOW);
    const signature = [WRONG_SIG, WRONG_SIG.replace('v1,', 'v2,'), h.signature, WRONG_SIG].join(' ');
    expect(verify(SECRET, { ...h, signature }, PAYLOAD, NOW)).toEqual({ ok: true });
  });

  it('other versions are ignored even when their value is the right MAC', () => {
    const h = headersAt(NOW);
    const v2 = h.signature.replace(/^v1,/, 'v2,');
    expect(verify(SECRET, { ...h, signature: v2 }, PAYLOAD, NOW)).toEqual({ ok: false, reason: 'no-matching-signature' });
    expect(verify(SECRET, { ...h, signature: `${v2} ${h.signature}` }, PAYLOAD, NOW)).toEqual({ ok: true });
  });

  it('old and new timestamps beyond 5 minutes fail (reference: tolerance + 1 s)', () => {
    expect(verify(SECRET, headersAt(NOW - 301), PAYLOAD, NOW)).toEqual({ ok: false, reason: 'timestamp-too-old' });
    expect(verify(SECRET, headersAt(NOW + 301), PAYLOAD, NOW)).toEqual({ ok: false, reason: 'timestamp-too-new' });
  });
});

describe('our own edges', () => {
  it('±299 s accepted, ±301 s refused, ±300 s still accepted (strictly more than 5 min fails)', () => {
    for (const d of [-299, 299, -300, 300]) expect(verify(SECRET, headersAt(NOW + d), PAYLOAD, NOW), String(d)).toEqual({ ok: true });
    expect(verify(SECRET, headersAt(NOW - 301), PAYLOAD, NOW).ok).toBe(false);
    expect(verify(SECRET, headersAt(NOW + 301), PAYLOAD, NOW).ok).toBe(false);
  });

  it('a tampered body fails', () => {
    expect(verify(SECRET, headersAt(NOW), '{"test": 2432232315}', NOW)).toEqual({ ok: false, reason: 'no-matching-signature' });
    expect(verify(SECRET, headersAt(NOW), PAYLOAD + ' ', NOW)).toEqual({ ok: false, reason: 'no-matching-signature' });
  });

  it('a tampered timestamp (within tolerance) fails: the timestamp is signed', () => {
    const h = headersAt(NOW);
    expect(verify(SECRET, { ...h, timestamp: String(NOW - 1) }, PAYLOAD, NOW)).toEqual({ ok: false, reason: 'no-matching-signature' });
  });

  it('a timestamp with leading zeros is signed as its number, as the reference libraries sign it', () => {
    const signature = sign(SECRET, MSG_ID, NOW, PAYLOAD);
    expect(verify(SECRET, { id: MSG_ID, timestamp: `00${NOW}`, signature }, PAYLOAD, NOW)).toEqual({ ok: true });
    expect(verify(SECRET, { id: MSG_ID, timestamp: '0', signature: sign(SECRET, MSG_ID, 0, PAYLOAD) }, PAYLOAD, 0)).toEqual({ ok: true });
  });

  it('a tampered id fails: the id is signed', () => {
    expect(verify(SECRET, { ...headersAt(NOW), id: 'msg_other' }, PAYLOAD, NOW)).toEqual({ ok: false, reason: 'no-matching-signature' });
  });

  it('a different secret fails', () => {
    expect(verify('whsec_' + Buffer.from('another secret').toString('base64'), headersAt(NOW), PAYLOAD, NOW).ok).toBe(false);
  });

  it('base64 variants that decode to the same bytes are still refused (text is compared, as the reference does)', () => {
    const h = headersAt(NOW);
    const mac = h.signature.slice(3);
    for (const variant of [`${mac}!!`, mac.replace(/=$/, ''), mac.replace(/\+/g, '-').replace(/\//g, '_'), ` ${mac}`]) {
      if (variant === mac) continue;
      expect(verify(SECRET, { ...h, signature: `v1,${variant}` }, PAYLOAD, NOW), variant).toEqual({ ok: false, reason: 'no-matching-signature' });
    }
  });

  it('a signature entry without a comma is skipped, not fatal', () => {
    const h = headersAt(NOW);
    expect(verify(SECRET, { ...h, signature: `garbage ${h.signature}` }, PAYLOAD, NOW)).toEqual({ ok: true });
  });
});

describe('PreparedHmac (the key\'s pads computed once) gives what createHmac gives', () => {
  const reference = (key: Uint8Array, id: string, ts: string, body: Buffer) => createHmac('sha256', key).update(`${id}.${ts}.`).update(body).digest('base64');

  it('for keys of every length around the block size, and bodies of any bytes, one MAC after another', () => {
    fc.assert(
      fc.property(
        // Keys longer than SHA-256's 64-byte block are hashed first (RFC 2104): lengths on both sides.
        fc.uint8Array({ minLength: 0, maxLength: 150 }),
        // Several messages with one key: a long body then a short one, so the reused buffer is checked.
        fc.array(fc.tuple(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 12 }), fc.oneof(fc.string({ unit: 'binary', maxLength: 3000 }).map((t) => Buffer.from(t)), fc.uint8Array({ maxLength: 3000 }).map((a) => Buffer.from(a)))), { minLength: 1, maxLength: 4 }),
        (key, messages) => {
          const mac = new PreparedHmac(key);
          for (const [id, ts, body] of messages) expect(mac.base64(id, ts, body)).toBe(reference(key, id, ts, body));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('for the edges: empty key and message, a key of exactly one block, a lone surrogate in the text', () => {
    const cases: Array<[Uint8Array, string, string, Buffer]> = [
      [new Uint8Array(0), '', '', Buffer.alloc(0)],
      [new Uint8Array(64).fill(7), 'msg_1', '1614265330', Buffer.from('{"a":1}')],
      [new Uint8Array(65).fill(9), 'msg_\ud800', '1', Buffer.from('x\udfffy')],
      // An id of characters of 3 bytes each, longer than the first buffer holds.
      [Buffer.from('k'), '\u20ac'.repeat(600), '2', Buffer.from('{}')],
      [Buffer.from('key'), 'msg_é', '1', Buffer.alloc(70_000, 0x41)],
    ];
    for (const [key, id, ts, body] of cases) expect(new PreparedHmac(key).base64(id, ts, body)).toBe(reference(key, id, ts, body));
  });

  it('messages of the same length one after another each get their own MAC (the buffer is rewritten in place)', () => {
    const key = Buffer.from('same length key');
    const mac = new PreparedHmac(key);
    const bodies = ['{"a":1}', '{"b":2}', '{"a":1}'].map((b) => Buffer.from(b));
    const macs = bodies.map((body) => mac.base64('msg_1', '1614265330', body));
    expect(macs).toEqual(bodies.map((body) => reference(key, 'msg_1', '1614265330', body)));
    expect(macs[0]).not.toBe(macs[1]);
    expect(macs[2]).toBe(macs[0]);
    // After the buffer has grown for a long message, a short one of a length seen before still hashes its own bytes.
    mac.base64('msg_1', '1614265330', Buffer.alloc(5000, 0x42));
    expect(mac.base64('msg_1', '1614265330', Buffer.from('{"c":3}'))).toBe(reference(key, 'msg_1', '1614265330', Buffer.from('{"c":3}')));
  });
});
