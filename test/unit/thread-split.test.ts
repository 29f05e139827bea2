// The thread splitter held to the platforms' own counting (src/wire/text-limits.ts): for any text
// of words, every part fits its platform as that platform counts it, no part is empty, and the
// parts joined give back the text's words in order. Plus the boundaries it prefers and `---`.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinMarked, markedParts, splitThread } from '../../src/posts/thread-split.js';
import { judgeText } from '../../src/wire/text-limits.js';
import type { Platform } from '../../src/wire/platforms.js';

const THREADED: Platform[] = ['twitter-x', 'bluesky', 'threads'];
const fitsOn = (p: Platform, t: string) => judgeText(p, t).over === 0 && judgeText(p, t).bytesOver === undefined;
const words = (t: string) => t.split(/\s+/).filter(Boolean);

// Words as people write them: Latin, CJK (weight 2 on X), emoji with modifiers (graphemes, UTF-8
// bytes on Threads), URLs (23 on X), each short enough to fit a part on its own.
const word = fc.oneof(
  fc.stringMatching(/^[a-zA-Zéü]{1,12}[.,!?]?$/),
  fc.constantFrom('日本語', '한국어', '👍🏽', '👨‍👩‍👧', '🇫🇷', 'https://example.com/a/very/long/path/that/x/counts/as/23', 'naïve', '—'),
);
const sentence = fc.array(word, { minLength: 1, maxLength: 30 }).map((w) => `${w.join(' ')}.`);
const paragraph = fc.array(sentence, { minLength: 1, maxLength: 6 }).map((s) => s.join(' '));
const text = fc.array(paragraph, { minLength: 1, maxLength: 6 }).map((p) => p.join('\n\n'));

describe('splitThread', () => {
  for (const platform of THREADED) {
    it(`${platform}: every part fits as ${platform} counts it, none is empty, and the words come back in order`, () => {
      fc.assert(
        fc.property(text, (t) => {
          const parts = splitThread(platform, t);
          expect(parts.length).toBeGreaterThan(0);
          for (const p of parts) {
            expect(p.trim()).not.toBe('');
            expect(fitsOn(platform, p)).toBe(true);
          }
          expect(words(parts.join(' '))).toEqual(words(t));
        }),
        { numRuns: 100 },
      );
    });
  }

  it('keeps a text that fits whole, and cuts at paragraphs before sentences', () => {
    expect(splitThread('bluesky', 'Short and sweet.')).toEqual(['Short and sweet.']);
    const para = (n: number) => `${'word '.repeat(n).trim()}.`;
    const t = `${para(40)}\n\n${para(40)}`;
    expect(splitThread('bluesky', t)).toEqual([para(40), para(40)]);
  });

  it('cuts a 462-character announcement for X at a sentence, not mid-sentence', () => {
    const s1 = `We are launching version 2 today. ${'It has many improvements '.repeat(5).trim()}.`;
    const s2 = `${'Read the notes and tell us what you think '.repeat(6).trim()}.`;
    const parts = splitThread('twitter-x', `${s1} ${s2}`);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts[0]).toMatch(/\.$/);
    for (const p of parts) expect(fitsOn('twitter-x', p)).toBe(true);
  });

  it('counts as the platform does: 144 CJK characters fit Bluesky whole but not X', () => {
    const t = '日本語の文章です。'.repeat(16);
    expect(splitThread('bluesky', t)).toHaveLength(1);
    expect(splitThread('twitter-x', t).length).toBeGreaterThan(1);
  });

  it('honours --- lines as parts written by hand, and joins them for platforms without threads', () => {
    const t = 'First part.\n---\nSecond part.\n  ---  \nThird.';
    expect(markedParts(t)).toEqual(['First part.', 'Second part.', 'Third.']);
    expect(splitThread('threads', t)).toEqual(['First part.', 'Second part.', 'Third.']);
    expect(joinMarked(t)).toBe('First part.\n\nSecond part.\n\nThird.');
  });

  it('two --- lines in a row (or one at either end) mark an empty part, dropped: no part holds a ---', () => {
    for (const t of ['One.\n---\n---\nTwo.', '---\nOne.\n---\n\n---\nTwo.\n---\n---\n', 'One.\r\n---\r\n---\r\nTwo.', 'One.\n---\n---']) {
      expect(markedParts(t).map((p) => p.replace(/\r/g, '')), JSON.stringify(t)).toEqual(t.endsWith('---') ? ['One.'] : ['One.', 'Two.']);
      expect(joinMarked(t)).not.toContain('---');
    }
    // A --- inside a line is text.
    expect(markedParts('a --- b\n---\nc')).toEqual(['a --- b', 'c']);
  });
});
