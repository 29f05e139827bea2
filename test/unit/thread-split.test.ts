// The thread splitter held to the platforms' own counting (src/wire/text-limits.ts): for any text
// of words, every part fits its platform as that platform counts it, no part is empty, and the
// parts joined give back the text's words in order. Plus the boundaries it prefers and `---`.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinMarked, markedParts, splitThread, splitThreadWithCuts, type ThreadCut } from '../../src/posts/thread-split.js';
import { urlSpans } from '../../src/wire/text-length.js';
import { judgeText } from '../../src/wire/text-limits.js';
import type { Platform } from '../../src/wire/platforms.js';

const THREADED: Platform[] = ['twitter-x', 'bluesky', 'threads'];
const fitsOn = (p: Platform, t: string) => judgeText(p, t).over === 0 && judgeText(p, t).bytesOver === undefined;
// Words, and Chinese or Japanese sentences, which end without a space after them (。！？｡).
const words = (t: string) => t.split(/\s+|(?<=[。！？｡][」』）]*)(?![」』）])/u).filter(Boolean);

// Words as people write them: Latin, CJK (weight 2 on X), emoji with modifiers (graphemes, UTF-8
// bytes on Threads), URLs (23 on X), each short enough to fit a part on its own.
const word = fc.oneof(
  fc.stringMatching(/^[a-zA-Zéü]{1,12}[.,!?]?$/),
  fc.constantFrom('日本語', '한국어', '👍🏽', '👨‍👩‍👧', '🇫🇷', 'https://example.com/a/very/long/path/that/x/counts/as/23', 'naïve', '—'),
);
const sentence = fc.array(word, { minLength: 1, maxLength: 30 }).map((w) => `${w.join(' ')}.`);
const paragraph = fc.array(sentence, { minLength: 1, maxLength: 6 }).map((s) => s.join(' '));
const text = fc.array(paragraph, { minLength: 1, maxLength: 6 }).map((p) => p.join('\n\n'));

// URLs of every length, with a scheme or bare (as X's counter finds them), some longer than a
// whole part on Bluesky (300) and Threads (500); and runs without spaces (CJK writing, or a word
// glued to a URL) that the splitter has to cut somewhere.
const url = fc
  .tuple(
    fc.constantFrom('https://', 'http://', ''),
    fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/),
    fc.constantFrom('com', 'org', 'io', 'co.uk'),
    // size 'max': fast-check's default keeps strings and arrays near ten items, URLs short.
    fc.array(fc.stringMatching(/^[A-Za-z0-9_~-]{1,70}$/, { size: 'max' }), { maxLength: 9, size: 'max' }),
    fc.option(fc.stringMatching(/^[a-z]{1,10}=[A-Za-z0-9%]{1,90}$/, { size: 'max' })),
  )
  .map(([scheme, host, tld, path, query]) => `${scheme}${host}.${tld}${path.length ? `/${path.join('/')}` : ''}${query ? `?${query}` : ''}`);
const cjkRun = fc.array(fc.constantFrom('日本語の', '文章です。', '한국어', '詳細は'), { minLength: 1, maxLength: 50, size: 'max' }).map((w) => w.join(''));
const longWord = fc.tuple(fc.constantFrom('z', 'é', '👍'), fc.integer({ min: 1, max: 700 })).map(([c, n]) => c.repeat(n));
const wordWithUrls = fc.oneof(
  { weight: 6, arbitrary: word },
  { weight: 2, arbitrary: url },
  { weight: 2, arbitrary: fc.tuple(cjkRun, url, cjkRun).map((w) => w.join('')) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('see:', '(', '→'), url).map((w) => w.join('')) },
  { weight: 1, arbitrary: cjkRun },
  { weight: 1, arbitrary: longWord },
);
const textWithUrls = fc
  .array(fc.array(wordWithUrls, { minLength: 1, maxLength: 8 }).map((w) => `${w.join(' ')}.`), { minLength: 1, maxLength: 3 })
  .map((s) => s.join(' '))
  .chain((p) => fc.array(fc.constant(p), { minLength: 1, maxLength: 2 }).map((ps) => ps.join('\n\n')));

// Chinese and Japanese sentences: no space between words or after a sentence's end (。！？ or the
// halfwidth ｡, maybe inside 「」), each short enough to fit a part on every platform.
const cjkSentence = fc
  .tuple(
    fc.array(fc.constantFrom('日本語の', '文章です', '今天', '天气很好', '我们去公园', 'カタカナ', 'テスト', '한국어'), { minLength: 1, maxLength: 12 }),
    fc.constantFrom('。', '！', '？', '｡'),
    fc.boolean(),
  )
  .map(([w, end, quoted]) => (quoted ? `「${w.join('')}${end}」` : `${w.join('')}${end}`));
const cjkText = fc.array(fc.array(cjkSentence, { minLength: 1, maxLength: 12 }).map((s) => s.join('')), { minLength: 1, maxLength: 3 }).map((p) => p.join('\n\n'));
/** A part that ends where a CJK sentence does: its end mark, maybe closed by a bracket. */
const CJK_SENTENCE_END = /[。！？｡]」?$/;

/** The parts joined back: without a space where a word was cut, with one elsewhere. */
const rejoin = (parts: readonly string[], cuts: readonly ThreadCut[]) =>
  parts.reduce((all, p, i) => (i === 0 ? p : `${all}${cuts.some((c) => c.part === i) ? '' : ' '}${p}`), '');

describe('splitThread', () => {
  for (const platform of THREADED) {
    it(`${platform}: no URL that fits a part is cut; every cut is said, and only words or URLs longer than a part are cut`, () => {
      fc.assert(
        fc.property(textWithUrls, (t) => {
          const { parts, cuts } = splitThreadWithCuts(platform, t);
          expect(parts.length).toBeGreaterThan(0);
          for (const p of parts) {
            expect(p.trim()).not.toBe('');
            expect(fitsOn(platform, p)).toBe(true);
          }
          // Joined without a space exactly where a cut is said, the words come back: no cut goes unsaid.
          expect(words(rejoin(parts, cuts))).toEqual(words(t));
          for (const { start, end } of urlSpans(t)) {
            const u = t.slice(start, end);
            if (fitsOn(platform, u)) expect(parts.some((p) => p.includes(u)), u).toBe(true);
          }
          for (const c of cuts) expect(fitsOn(platform, c.word), c.word).toBe(false);
          for (const c of cuts) if (c.kind === 'url') expect(urlSpans(c.word)).toEqual([{ start: 0, end: c.word.length }]);
        }),
        // Shrinking texts this long takes minutes: the first failing text is reported as found.
        { numRuns: 60, endOnFailure: true },
      );
    });
  }

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

  for (const platform of THREADED) {
    it(`${platform}: Chinese and Japanese text is cut at its sentence ends (。！？｡), which need no space after them`, () => {
      fc.assert(
        fc.property(cjkText, (t) => {
          const { parts, cuts } = splitThreadWithCuts(platform, t);
          for (const p of parts) {
            expect(fitsOn(platform, p)).toBe(true);
            expect(p, p).toMatch(CJK_SENTENCE_END);
          }
          // Nothing added between two sentences, nothing lost: the text comes back (its paragraph
          // breaks, the only white space it has, aside).
          expect(parts.join('').replace(/\n\n/g, '')).toBe(t.replace(/\n\n/g, ''));
          // Parts that meet between two sentences cut no word.
          expect(cuts).toEqual([]);
        }),
        { numRuns: 100 },
      );
    });
  }

  it('cuts Japanese for X after 。 and Chinese after ！ and ？, with no space put between sentences', () => {
    const ja = splitThread('twitter-x', '日本語の文章です。'.repeat(16));
    expect(ja).toEqual(['日本語の文章です。'.repeat(15), '日本語の文章です。']);
    const zh = `${'今天天气很好！'.repeat(20)}${'我们去公园吧？'.repeat(20)}`;
    const parts = splitThread('twitter-x', zh);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(p).toMatch(/[！？]$/);
    expect(parts.join('')).toBe(zh);
    // A CJK sentence followed by a Latin one with a space: the space is the glue, as before.
    expect(splitThread('twitter-x', `${'文章です。'.repeat(27)} ${'Word '.repeat(10).trim()}.`)).toEqual(['文章です。'.repeat(27), `${'Word '.repeat(10).trim()}.`]);
  });

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

  it('a URL that fits a part is never cut, even in a text without spaces around it (Bluesky, CJK)', () => {
    const url = `https://example.com/${'a'.repeat(120)}?utm_source=newsletter`;
    const t = `${'日本語の文章です'.repeat(30)}${url}${'これは'.repeat(20)}`;
    const { parts, cuts } = splitThreadWithCuts('bluesky', t);
    expect(parts.some((p) => p.includes(url))).toBe(true);
    expect(cuts.every((c) => c.kind !== 'url')).toBe(true);
    // Japanese puts no spaces between words: a cut between its characters is no word cut.
    expect(cuts.map((c) => c.kind)).toEqual(['unspaced']);
  });

  it('a URL longer than a whole part is cut, and the cut is said', () => {
    const url = `https://example.com/${'b'.repeat(400)}`;
    const { parts, cuts } = splitThreadWithCuts('bluesky', `Read this first. ${url} and then this.`);
    for (const p of parts) expect(fitsOn('bluesky', p)).toBe(true);
    expect(cuts).toEqual([{ part: 2, kind: 'url', word: url }]);
    // On X the same URL counts 23: it is never cut.
    expect(splitThreadWithCuts('twitter-x', `Read this first. ${url} and then this.`)).toEqual({ parts: [`Read this first. ${url} and then this.`], cuts: [] });
  });

  it('a word longer than a whole part is cut, and the cut is said', () => {
    const long = 'z'.repeat(700);
    const { parts, cuts } = splitThreadWithCuts('threads', `Before. ${long} after.`);
    expect(parts).toEqual(['Before.', 'z'.repeat(500), `${'z'.repeat(200)} after.`]);
    expect(cuts).toEqual([{ part: 2, kind: 'word', word: long }]);
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
