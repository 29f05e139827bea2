import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutToWidth, displayWidth, flattenCell, padToWidth, stripEscapes } from '../../src/output/width.js';

const graphemes = (s: string) => [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(s)].map((g) => g.segment);

describe('displayWidth: as a terminal shows it', () => {
  it.each([
    ['👩‍💻', 2],
    ['👍🏽', 2],
    ['🇫🇷', 2],
    ['日本語', 6],
    ['한국어', 6],
    ['مرحبا', 5],
    ['e\u0301', 1],
    ['\u001b[31mred\u001b[39m', 3],
    ['\u001b]8;;https://example.com\u0007link\u001b]8;;\u0007', 4],
    ['', 0],
  ])('%j is %i wide', (text, width) => {
    expect(displayWidth(text)).toBe(width);
    expect(displayWidth(text)).toBe(width);
  });
});

describe('cutToWidth', () => {
  it('leaves text that fits alone', () => {
    expect(cutToWidth('hello', 5)).toBe('hello');
  });

  it('cuts with … and never inside a grapheme cluster', () => {
    expect(cutToWidth('ab👩‍💻cd', 4)).toBe('ab…');
    expect(cutToWidth('ab👩‍💻cd', 5)).toBe('ab👩‍💻…');
    expect(cutToWidth('日本語テキスト', 7)).toBe('日本語…');
    expect(cutToWidth('👍🏽👍🏽👍🏽', 4)).toBe('👍🏽…');
    expect(cutToWidth('cafe\u0301 au lait', 5)).toBe('cafe\u0301…');
  });

  it('keeps escape sequences after the cut, so colours reset and links close', () => {
    const link = '\u001b]8;;https://example.com/a/very/long/path\u0007https://example.com/a/very/long/path\u001b]8;;\u0007';
    const cut = cutToWidth(link, 12);
    expect(displayWidth(cut)).toBe(12);
    expect(cut.endsWith('…\u001b]8;;\u0007')).toBe(true);
    expect(cut.startsWith('\u001b]8;;https://example.com/a/very/long/path\u0007')).toBe(true);
    expect(cutToWidth('\u001b[31mredder\u001b[39m', 4)).toBe('\u001b[31mred…\u001b[39m');
  });

  it('property: the result fits and is a grapheme prefix of the text plus …', () => {
    const alphabet = fc.constantFrom('a', 'Z', ' ', '日', '한', 'م', '👩‍💻', '👍🏽', '🇫🇷', 'e\u0301', '…');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), fc.integer({ min: 1, max: 30 }), (parts, max) => {
        const text = parts.join('');
        const out = cutToWidth(text, max);
        expect(displayWidth(out)).toBeLessThanOrEqual(max);
        if (out === text) return;
        expect(out.endsWith('…')).toBe(true);
        const kept = graphemes(out.slice(0, -1));
        expect(kept).toEqual(graphemes(text).slice(0, kept.length));
      }),
    );
  });
});

describe('cells', () => {
  it('flattens newlines and tabs and drops control characters, keeping our escapes', () => {
    expect(flattenCell('a\nb\r\nc\td')).toBe('a b c d');
    expect(flattenCell('bell\u0007 and \u001b[1mbold\u001b[22m')).toBe('bell and \u001b[1mbold\u001b[22m');
    expect(stripEscapes('\u001b[1mbold\u001b[22m')).toBe('bold');
    const link = '\u001b]8;;https://x.example/\u0007x\u001b]8;;\u0007';
    expect(flattenCell(link)).toBe(link);
  });

  it('data cannot act on the terminal: no clipboard writes, titles or cursor moves survive', () => {
    for (const evil of ['\u001b]52;c;ZXZpbA==\u0007', '\u001b]0;title\u001b\\', '\u001b[2J', '\u001b[1;1H', '\u009b31m']) {
      const cell = flattenCell(`a${evil}b`);
      expect(cell).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      expect(cell.startsWith('a')).toBe(true);
    }
  });

  it('pads to a width measured like the terminal', () => {
    expect(padToWidth('日本', 6)).toBe('日本  ');
    expect(padToWidth('toolong', 3)).toBe('toolong');
  });
});

describe('long texts (measured piece by piece)', () => {
  it('a text of 40,000 accented letters and emoji is as wide as its pieces, and cuts to the width asked', () => {
    const text = 'e\u0301🎉日'.repeat(10_000);
    expect(displayWidth(text)).toBe(50_000);
    const cut = cutToWidth(text, 41);
    expect(displayWidth(cut)).toBe(41);
    expect(cut.endsWith('…')).toBe(true);
  });
});
