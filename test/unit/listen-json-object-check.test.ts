// The listener's byte check of a body (src/listen/json-object-check.ts) must say "a JSON object"
// exactly when JSON.parse of the body's UTF-8 text gives an object: a body it wrongly passes
// would be printed and answered 204 although it is not JSON. Held to JSON.parse itself on fixed
// edge cases, on generated JSON, and on generated JSON with bytes changed, cut or inserted.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonObjectBytes } from '../../src/listen/json-object-check.js';

/** What the listener used to do with every body: decode, JSON.parse, keep only objects. */
function parsesToObject(bytes: Uint8Array): boolean {
  try {
    const value: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}

const check = (text: string | Uint8Array) => isJsonObjectBytes(typeof text === 'string' ? Buffer.from(text) : text);

describe('isJsonObjectBytes', () => {
  it('passes JSON objects, with whitespace around and inside', () => {
    for (const text of [
      '{}',
      ' \t\r\n{ } \n',
      '{"a":1}',
      '{"type":"post.result","postId":"post_1","error":{"code":"X","context":{"retryAfter":60}}}',
      '{"a":[],"b":[1,-0,0.5,1e3,1E+3,-1.25e-7,true,false,null,"s",{},[[]]]}',
      '{"esc":"\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\uD83D\\uDE00 \\uDEAD"}',
      '{"a":1,"a":2}',
      '{"é":"ünïcødé ✓ 😀","\u007f":"del"}',
      '{\n  "pretty": [\n    1,\n    2\n  ]\n}',
    ]) {
      expect(check(text), text).toBe(true);
      expect(parsesToObject(Buffer.from(text)), text).toBe(true);
    }
  });

  it('refuses valid JSON that is not an object, and everything that is not JSON', () => {
    for (const text of [
      '',
      ' ',
      '[]',
      '[{}]',
      'null',
      '1',
      '"{}"',
      'true',
      '{',
      '}',
      '{}}',
      '{}{}',
      '{} x',
      '{"a"}',
      '{"a":}',
      '{"a" 1}',
      '{a:1}',
      "{'a':1}",
      '{"a":1,}',
      '{,"a":1}',
      '{"a":[1,]}',
      '{"a":[,1]}',
      '{"a":[1 2]}',
      '{"a":01}',
      '{"a":-}',
      '{"a":1.}',
      '{"a":.5}',
      '{"a":1e}',
      '{"a":1e+}',
      '{"a":+1}',
      '{"a":0x10}',
      '{"a":NaN}',
      '{"a":Infinity}',
      '{"a":tru}',
      '{"a":nul}',
      '{"a":falsey}',
      '{"a":"\\x41"}',
      '{"a":"\\u12"}',
      '{"a":"\\u12G4"}',
      '{"a":"\\\'"}',
      '{"a":"tab\there"}',
      '{"a":"line\nbreak"}',
      '{"a":"unterminated}',
      '{"a":"ends in a backslash\\',
      '{"a":1]',
      '{"a":[1}',
      '\uFEFF{}',
      '\u00a0{}',
      '{}\u0000',
      '{"a":1}\f',
    ]) {
      expect(check(text), JSON.stringify(text)).toBe(false);
      expect(parsesToObject(Buffer.from(text)), JSON.stringify(text)).toBe(false);
    }
  });

  it('agrees with JSON.parse on bytes that are not UTF-8, inside and outside strings', () => {
    const bodies = [
      [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d], // {"a":"<ff>"}
      [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe2, 0x22, 0x7d], // a cut 3-byte sequence before the closing quote
      [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xf0, 0x9f, 0x22, 0x7d], // a cut 4-byte sequence before the quote
      [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d], // an encoded surrogate
      [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0x5c, 0x22, 0x7d], // a bad lead byte, then an escaped quote: unterminated
      [0x7b, 0x22, 0xe2, 0x5c, 0x6e, 0x22, 0x3a, 0x31, 0x7d], // a cut sequence, then \n
      [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x31, 0xff, 0x7d], // a byte outside any string
      [0xef, 0xbb, 0xbf, 0x7b, 0x7d], // a UTF-8 byte order mark
      [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0x80, 0x22, 0x7d], // a lone continuation byte
    ].map((b) => Uint8Array.from(b));
    for (const b of bodies) expect(check(b), Buffer.from(b).toString('hex')).toBe(parsesToObject(b));
  });

  it('handles nesting deeper than its first stack, and a body of a megabyte', () => {
    const deep = (n: number) => `{"a":${'['.repeat(n)}{"b":${'{"c":'.repeat(n)}1${'}'.repeat(n)}}${']'.repeat(n)}}`;
    expect(check(deep(10_000))).toBe(true);
    expect(check(deep(10_000).slice(0, -2) + '}')).toBe(false);
    const big = JSON.stringify({ items: Array.from({ length: 20_000 }, (_, i) => ({ i, s: `item ${i} ✓` })) });
    expect(big.length).toBeGreaterThan(500_000);
    expect(check(big)).toBe(true);
  });

  it('agrees with JSON.parse on generated JSON, and on every cut of it', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const b = Buffer.from(text);
        expect(check(b)).toBe(parsesToObject(b));
        for (let i = 0; i < b.length; i++) expect(check(b.subarray(0, i))).toBe(parsesToObject(b.subarray(0, i)));
      }),
      { numRuns: 200 },
    );
  });

  it('agrees with JSON.parse on generated objects with bytes changed, inserted or removed', () => {
    // Bytes that matter to the grammar, and some that are not UTF-8.
    const byte = fc.oneof(fc.constantFrom(...Buffer.from('{}[]",:\\/ \t\r\n0123456789-+.eEtrufalsn\u0000\u001f\u007f')), fc.integer({ min: 0, max: 255 }));
    const edit = fc.record({ at: fc.nat(), kind: fc.constantFrom('set', 'insert', 'remove'), byte });
    const object = fc.tuple(fc.dictionary(fc.string(), fc.jsonValue()), fc.boolean()).map(([o, pretty]) => JSON.stringify(o, null, pretty ? 1 : undefined));
    fc.assert(
      fc.property(object, fc.array(edit, { minLength: 1, maxLength: 4 }), (text, edits) => {
        const bytes = [...Buffer.from(text)];
        for (const e of edits) {
          const at = bytes.length === 0 ? 0 : e.at % bytes.length;
          if (e.kind === 'set' && bytes.length > 0) bytes[at] = e.byte;
          else if (e.kind === 'insert') bytes.splice(at, 0, e.byte);
          else bytes.splice(at, 1);
        }
        const b = Uint8Array.from(bytes);
        expect(check(b), Buffer.from(b).toString('hex')).toBe(parsesToObject(b));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with JSON.parse on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (b) => {
        const body = Uint8Array.from([0x7b, ...b]);
        expect(check(body)).toBe(parsesToObject(body));
      }),
      { numRuns: 2000 },
    );
  });
});
