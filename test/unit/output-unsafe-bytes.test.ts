// The byte-level look for what terminalJson escapes (DEL, C1, bidirectional controls) agrees with
// terminalJson on every text, the characters either side of each escaped range included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasJsonUnsafeBytes, terminalJson } from '../../src/output/terminal-safe.js';

const near = [0x7e, 0x7f, 0x80, 0x9f, 0xa0, 0xc2, 0x61b, 0x61c, 0x61d, 0x200d, 0x200e, 0x200f, 0x2010, 0x2029, 0x202a, 0x202e, 0x202f, 0x2065, 0x2066, 0x2069, 0x206a, 0x2264, 0x2713, 0x1f600];
const char = fc.oneof(fc.constantFrom(...near.map((c) => String.fromCodePoint(c))), fc.string({ maxLength: 2 }), fc.string({ unit: 'grapheme', maxLength: 2 }));

describe('hasJsonUnsafeBytes', () => {
  it('finds exactly what terminalJson escapes', () => {
    fc.assert(
      fc.property(fc.array(char, { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        expect(hasJsonUnsafeBytes(Buffer.from(text))).toBe(terminalJson(text) !== text);
      }),
      { numRuns: 5000 },
    );
  });

  it('each escaped character alone, at the start, the middle and the end', () => {
    const escaped = [0x7f, 0x80, 0x9f, 0x61c, 0x200e, 0x200f, 0x202a, 0x202c, 0x202e, 0x2066, 0x2069];
    for (const c of escaped) for (const text of [String.fromCodePoint(c), `a ≤ ${String.fromCodePoint(c)} b`, `≤${String.fromCodePoint(c)}`]) expect(hasJsonUnsafeBytes(Buffer.from(text)), text).toBe(true);
    for (const text of ['', 'plain', '≤ 300 ✓ é 😀', '\u202f\u2065\u206a\u061d\u00a0']) expect(hasJsonUnsafeBytes(Buffer.from(text)), text).toBe(false);
  });
});
