// Text counted as each platform counts it. Every expected number comes from the platform's own
// documentation or conformance data, never from running our code:
// - X: twitter-text's conformance suite (conformance/validate.yml, the v3 section
//   "WeightedTweetsWithDiscountedEmojiCounterTest"), whose weightedLength we copy.
// - Bluesky: the lexicon counts grapheme clusters (UAX #29); each cluster below is one
//   user-perceived character by Unicode's definition (an emoji-test.txt entry, a flag, a letter
//   with its combining mark).
// - Threads: "Emojis are counted as the number of UTF-8 bytes" (👍 is F0 9F 91 8D).
// - TikTok: "UTF-16 runes"; YouTube description: "5000 bytes" (UTF-8).
import { describe, expect, it } from 'vitest';
import { PLATFORM_LIMITS, PLATFORMS } from '../../src/wire/platforms.js';
import { countText } from '../../src/wire/text-length.js';

/** Each of `urls` counts 23 (a t.co link) and nothing else in the text does: the URLs X finds are exactly these. */
function expectUrls(text: string, urls: readonly string[]): void {
  const shortened = urls.reduce((t, url) => t.replace(url, 'x'.repeat(23)), text);
  expect(countText(text, 'x-weighted').length).toBe(countText(shortened, 'x-weighted').length);
}
import { judgeText } from '../../src/wire/text-limits.js';

const POEM =
  '故人西辞黄鹤楼，烟花三月下扬州。孤帆远影碧空尽，唯见长江天际流。朱雀桥边野草花，乌衣巷口夕阳斜。旧时王谢堂前燕，飞入寻常百姓家。朝辞白帝彩云间，千里江陵一日还。两岸猿声啼不住，轻舟已过万重山。泪湿罗巾梦不成，夜深前殿按歌声。红颜未老恩先断，斜倚薰笼坐到明。独在异乡为异客，每逢佳节倍思亲。遥知兄弟登高处，遍插茱萸少一人。';
const X10 = 'xxxxxxxxxx-';
const KANA = 'あいうえおかきくけこ';

// [description from the conformance file, text, weightedLength]
const X_CONFORMANCE: Array<[string, string, number]> = [
  ['Regular Tweet with url', 'Hi http://test.co', 26],
  ['Just url', 'http://test.co', 23],
  ['Long tweet, overflow at char index 280', `285 chars-${X10.repeat(25)}`, 285],
  ['Long tweet with url in the middle', `285 chars- http://www.twitter.com/jack ${X10.repeat(24)}`, 299],
  ['Long tweet with url at the end', `${X10.repeat(24)} http://www.twitter.com/jack `, 289],
  ['10 url string, no overflow', 'https://www.twitter.com/aloha '.repeat(10), 240],
  ['160 CJK char', POEM, 320],
  ['160 emoji char', '😷'.repeat(160), 320],
  ['3 latin char + 160 CJK char', `the${POEM}`, 323],
  ["'Á' is normalized into 1 char", 'A\u0301B', 2],
  ['שּׁ is normalized into 3 chars', 'A\ufb2c', 4],
  ['282 chars with a normalized character within valid range but outside 280', `282 chars-${X10.repeat(24)}xxxxxA\u0301x`, 281],
  ['a mix of single byte single word, and double word unicode characters', 'H🐱☺👨\u200d👩\u200d👧\u200d👦', 7],
  ['unicode emoji chars inside the basic multilingual plane', '😷👾😡🔥💩', 10],
  ['emoji outside the BMP with skin tone modifiers', '🙋🏽👨\u200d🎤', 4],
  [
    'General Punctuation Characters with visible spaces(u2000-200A), no ZWJ/ZWNJ',
    'This is a tweet with general punctuation characters: \u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u200b ‐ ‑ ‒ – — ― ‖  ‗ ‘ ’ ‚ ‛ “ ” „ ‟ ′ ″ ‴ ‵ ‶ ‷',
    110,
  ],
  ['a 64 character domain without protocol', 'randomurlrandomurlrandomurlrandomurlrandomurlrandomurlrandomurls.com', 68],
  ['long url with invalid domain labels and short url', `Long url with invalid domain labels and a short url: ${`https://${'somesuperlongurl'.repeat(249)}.com/foo `.repeat(3)}https://validurl.com`, 12079],
  ['> 140 CJK characters: a host over 63 punycode characters is not a URL', `${KANA.repeat(12)} http://${KANA.repeat(5)}あいう.com`, 358],
  ['> 140 CJK characters: a host under 63 punycode characters is a URL', `${KANA.repeat(12)} http://${KANA.repeat(5)}あい.com`, 264],
  ['140 family emoji', '👨\u200d👩\u200d👧\u200d👦'.repeat(140), 280],
  ['Unicode 10.0 emoji', 'Unicode 10.0 emoji: 🤪; 🧕; 🧕🏾; 🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}', 34],
  ['Unicode 9.0 emoji', 'Unicode 9.0 emoji: 🤠; 💃; 💃🏾', 29],
  // UnicodeDirectionalMarkerCounterTest
  ['invalid characters', 'ABC\u202A\uFFFFABC\uFFFE', 12],
  ['directional characters around a URL', '\u2066\u202Ahttp://foobar.پاکستان/\u202C\u2069', 31],
];

describe('X weighted counting (twitter-text v3 conformance)', () => {
  it.each(X_CONFORMANCE)('%s', (_, text, expected) => {
    expect(countText(text, 'x-weighted').length).toBe(expected);
  });

  it('finds URLs as twitter-text extracts them (conformance extract.yml: trailing punctuation, emails, no scheme)', () => {
    expectUrls('see https://example.com/a, then 👍', ['https://example.com/a']);
    expectUrls('見て https://example.com/path。次', ['https://example.com/path']);
    expect(countText('mail me at user@example.com', 'x-weighted').length).toBe('mail me at user@example.com'.length);
    expectUrls('www.example.com and foo.co.jp/path', ['www.example.com', 'foo.co.jp/path']);
    expectUrls('http://☃.net/ ok', ['http://☃.net/']);
    expectUrls('HTTPS://www.ExaMPLE.COM/index.html', ['HTTPS://www.ExaMPLE.COM/index.html']);
  });

  it('calls text with characters X refuses invalid, and paired directional marks valid (UnicodeDirectionalMarkerCounterTest)', () => {
    expect(judgeText('twitter-x', 'ABC\u202A\uFFFFABC\uFFFE').invalid).toMatch(/U\+FFFF/);
    expect(judgeText('twitter-x', 'ABC\u202Aright to left').invalid).toMatch(/never closed/);
    expect(judgeText('twitter-x', '\u2066\u202Ahttp://foobar.پاکستان/\u202C\u2069').invalid).toBeUndefined();
    expect(judgeText('bluesky', 'ABC\uFFFF').invalid).toBeUndefined();
  });

  it('counts a mention as its characters (X shortens only URLs)', () => {
    // X's "Counting characters" page: only URLs are transformed; @names count as written.
    expect(countText('@jack hi', 'x-weighted').length).toBe(8);
  });

  it('explains the count the way the issue asks', () => {
    const text = `${'a'.repeat(235)} https://example.com/a https://example.com/b`;
    const verdict = judgeText('twitter-x', text);
    expect(verdict.count.length).toBe(235 + 1 + 23 + 1 + 23);
    expect(verdict.summary).toBe('283 of 280 (X counts this text as 283: 2 URLs count 23 each)');
    expect(verdict.over).toBe(3);
  });

  it('says why CJK and emoji weigh more', () => {
    expect(judgeText('twitter-x', '日本語 👍🏽').explanation).toBe('X counts this text as 9: 1 emoji counts 2, 3 CJK characters count 2 each');
    // Said as a person would, not as code points.
    expect(judgeText('twitter-x', 'Price: 5 € → 4 €').explanation).toBe('X counts this text as 19: 3 symbols such as € or → count 2 each');
  });
});

describe('Bluesky counts grapheme clusters (300)', () => {
  it.each([
    ['a thumbs-up with a skin tone', '👍🏽', 1],
    ['a family ZWJ sequence', '👨\u200d👩\u200d👧\u200d👦', 1],
    ['a flag', '🇫🇷', 1],
    ['e with a combining acute accent', 'e\u0301', 1],
    ['three CJK characters', '日本語', 3],
    ['a mention', '@alice.bsky.social', 18],
    ['CR LF (one cluster, UAX #29 GB3)', 'a\r\nb', 3],
    ['a Hangul syllable from conjoining jamo', '\u1100\u1161\u11a8', 1],
    ['Thai ko kai with sara am (a spacing mark)', '\u0e01\u0e33', 1],
    ['plain ASCII', 'Hello, world', 12],
  ])('%s', (_, text, expected) => {
    expect(countText(text, 'graphemes').length).toBe(expected);
  });

  it('takes 250 thumbs-up with skin tones (the issue: refused as 500 before)', () => {
    const verdict = judgeText('bluesky', '👍🏽'.repeat(250));
    expect(verdict.over).toBe(0);
    expect(verdict.count.length).toBe(250);
  });

  it('explains a count that differs from the code points', () => {
    expect(judgeText('bluesky', '👍🏽'.repeat(301)).summary).toBe(
      '301 of 300 (Bluesky counts this text as 301 grapheme clusters: 301 skin tones, joiners or marks count with the character before them)',
    );
  });

  it('counts a long text (segmented in pieces) exactly as the whole text segments', () => {
    // Words, emoji with skin tones and joiners, flags, combining accents, CR LF: clusters that
    // would be split if a piece ended in the wrong place. About 40,000 code units.
    const parts = ['Salut ', '👍🏽', ' le ', 'cafe\u0301', ', ', '👨\u200d👩\u200d👧', ' ', '🇫🇷', '\r\n', 'e\u0301te\u0301 ', '日本語', ' ok.'];
    const text = Array.from({ length: 6000 }, (_, i) => parts[(i * 7) % parts.length]).join('');
    expect(text.length).toBeGreaterThan(8 * 2048);
    const whole = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].length;
    expect(countText(text, 'graphemes').length).toBe(whole);
  });

  it('also holds the lexicon ceiling of 3000 UTF-8 bytes', () => {
    // 300 family emoji: 300 graphemes, each 25 bytes.
    const verdict = judgeText('bluesky', '👨\u200d👩\u200d👧\u200d👦'.repeat(300));
    expect(verdict.over).toBe(0);
    expect(verdict.bytesOver).toEqual({ length: 7500, max: 3000, over: 4500 });
  });
});

describe('the other platforms', () => {
  it.each([
    ['threads', 'threads', 'Hi 👍', 7],
    ['threads', 'threads', 'é日', 2],
    // A keycap starts with an ASCII character and is an emoji (UTF-8: 1 + 3 + 3); # alone is not.
    ['threads', 'threads', '#\ufe0f\u20e3', 7],
    ['threads', 'threads', '# 1', 3],
    ['threads', 'threads', '🇫🇷', 8],
    ['tiktok', 'utf16', '👍', 2],
    ['tiktok', 'utf16', 'é日', 2],
    ['youtube', 'utf8-bytes', 'é', 2],
    ['youtube', 'utf8-bytes', '日', 3],
    ['youtube', 'utf8-bytes', '👍', 4],
  ] as const)('%s (%s): %j counts %i', (platform, unit, text, expected) => {
    expect(PLATFORM_LIMITS[platform].textUnit).toBe(unit);
    expect(countText(text, unit).length).toBe(expected);
  });

  it('names a source for every platform', () => {
    for (const p of PLATFORMS) expect(PLATFORM_LIMITS[p].textSource.length).toBeGreaterThan(20);
  });
});
