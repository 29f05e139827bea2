import { describe, expect, it } from 'vitest';
import { editDistance, nearest, suggestPlatform } from '../../src/wire/suggest.js';
import { parseJsonWithLocation } from '../../src/wire/json-location.js';
import { detectDelimiter, parseCsv, CsvSyntaxError } from '../../src/posts/bulk/csv.js';
import { deriveKey, stableStringify } from '../../src/posts/keys.js';

describe('suggestions', () => {
  it('measures edit distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('Bluesky', 'bluesky')).toBe(0);
  });
  it('suggests the platform people meant', () => {
    expect(suggestPlatform('twiter-x')).toBe('twitter-x');
    expect(suggestPlatform('twitter')).toBe('twitter-x');
    expect(suggestPlatform('x')).toBe('twitter-x');
    expect(suggestPlatform('facebook')).toBe('facebook-page');
    expect(suggestPlatform('linkdin')).toBe('linkedin');
    expect(suggestPlatform('blusky')).toBe('bluesky');
    expect(suggestPlatform('insta')).toBe('instagram');
    expect(suggestPlatform('mastodon')).toBeUndefined();
  });
  it('nearest returns nothing when nothing is close', () => {
    expect(nearest('zzzzzz', ['draft', 'failed'])).toBeUndefined();
    expect(nearest('publised', ['draft', 'scheduled', 'published', 'failed'])).toBe('published');
  });
});

describe('JSON locations', () => {
  const at = (text: string) => {
    const r = parseJsonWithLocation(text);
    if (r.ok) throw new Error('expected an error');
    return r.problem;
  };
  it('parses valid JSON', () => {
    expect(parseJsonWithLocation('{"a": [1, 2]}')).toEqual({ ok: true, value: { a: [1, 2] } });
  });
  it('finds the line and column of the first error', () => {
    expect(at('{\n  "a": 1,\n  "b" 2\n}')).toMatchObject({ line: 3, column: 7 });
    expect(at('{\n  "a": 1,\n}')).toMatchObject({ line: 3, column: 1, message: expect.stringMatching(/trailing comma/) });
    expect(at('{"a": tru}')).toMatchObject({ line: 1, column: 10 });
    expect(at('{"a": "x\ny"}')).toMatchObject({ line: 1, column: 9, message: expect.stringMatching(/inside a string/) });
    expect(at('')).toMatchObject({ line: 1, column: 1, message: expect.stringMatching(/end of input/) });
    expect(at("{'a': 1}")).toMatchObject({ line: 1, column: 2 });
    expect(at('{"a": 1} x')).toMatchObject({ line: 1, column: 10, message: expect.stringMatching(/after the end/) });
    expect(at('[1, 2,]')).toMatchObject({ column: 7 });
    // A line added without its ",": the comma's place, at the end of the line before.
    expect(at('{\n  "a": "x"\n  "b": 2\n}')).toEqual({ line: 2, column: 11, message: 'a "," is missing at the end of the line (before the next property)' });
    expect(at('[\n  1\n  2\n]')).toEqual({ line: 2, column: 4, message: 'a "," is missing at the end of the line (before the next item)' });
    expect(at('{"a": "x" "b": 2}')).toEqual({ line: 1, column: 11, message: 'expected "," or "}", found a double quote' });
    expect(at('{"a": [1, {"b": []}], "c": {}} x')).toEqual({ line: 1, column: 32, message: 'unexpected "x" after the end of the JSON value' });
    expect(at('{"a": "\\q"}')).toMatchObject({ message: expect.stringMatching(/bad escape/) });
  });
});

describe('CSV', () => {
  it('reads quoted fields with commas, quotes and line breaks, CRLF or LF', () => {
    const text = 'at,platforms,text\r\n2026-12-01T09:00:00Z,bluesky,"Hello, world"\r\n2026-12-02T09:00:00Z,twitter-x|bluesky,"line one\nline two ""quoted"""\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, fields: ['at', 'platforms', 'text'] },
      { line: 2, fields: ['2026-12-01T09:00:00Z', 'bluesky', 'Hello, world'] },
      { line: 3, fields: ['2026-12-02T09:00:00Z', 'twitter-x|bluesky', 'line one\nline two "quoted"'] },
    ]);
  });
  it('skips blank lines, keeps empty fields, numbers lines across quoted breaks', () => {
    const recs = parseCsv('a,b\n\n"x\ny",\n,z');
    expect(recs).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 3, fields: ['x\ny', ''] },
      { line: 5, fields: ['', 'z'] },
    ]);
  });
  it('keeps a quote inside an unquoted field and a lone carriage return as text', () => {
    expect(parseCsv('say "hi",a\rb\r\nnext')).toEqual([
      { line: 1, fields: ['say "hi"', 'a\rb'] },
      { line: 2, fields: ['next'] },
    ]);
    expect(() => parseCsv('long unquoted,"x"y')).toThrow(expect.objectContaining({ line: 1, column: 18 }));
  });

  it('reads the delimiter from the header: ";" as spreadsheets write it in much of Europe, or a tab', () => {
    const semi = 'at;platforms;text\n2026-12-01 09:00;bluesky|linkedin;"Bonjour; à demain, 9,5 °C"\n';
    expect(parseCsv(semi)).toEqual([
      { line: 1, fields: ['at', 'platforms', 'text'] },
      { line: 2, fields: ['2026-12-01 09:00', 'bluesky|linkedin', 'Bonjour; à demain, 9,5 °C'] },
    ]);
    expect(detectDelimiter('at\tplatforms\ttext\n')).toBe('\t');
    expect(parseCsv('at\tplatforms\ttext\n2026-12-01 09:00\tbluesky\tHello, world; again\n')).toEqual([
      { line: 1, fields: ['at', 'platforms', 'text'] },
      { line: 2, fields: ['2026-12-01 09:00', 'bluesky', 'Hello, world; again'] },
    ]);
    expect(detectDelimiter('"a;b",c\n')).toBe(',');
    expect(detectDelimiter('at\n')).toBe(',');
  });
  it('reports an unclosed quote with its line', () => {
    expect(() => parseCsv('a,b\n1,"open\n2,3\n')).toThrow(CsvSyntaxError);
    expect(() => parseCsv('a,b\n1,"open\n2,3\n')).toThrow(/line 2: a quoted field is never closed/);
    expect(() => parseCsv('a\n"x"y\n')).toThrow(/after a closing quote/);
  });
});

describe('keys', () => {
  it('stable JSON ignores key order', () => {
    expect(stableStringify({ b: 1, a: { d: [1, { y: 1, x: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":2,"y":1}]},"b":1}');
    expect(stableStringify({ a: undefined, b: 2 })).toBe('{"b":2}');
  });
  it('derives short, stable keys', () => {
    const k = deriveKey('a', 'b');
    expect(k).toMatch(/^sp-[0-9a-f]{40}$/);
    expect(deriveKey('a', 'b')).toBe(k);
    expect(deriveKey('ab', '')).not.toBe(k);
  });
});
