import { describe, expect, it } from 'vitest';
import { markDiff, wordDiff } from '../../src/output/word-diff.js';
import { loadColors, plainColors } from '../../src/output/colors.js';

describe('wordDiff', () => {
  it('finds one changed word at the end of a long text', () => {
    const head = 'word '.repeat(90);
    const parts = wordDiff(`${head}then repeat`, `${head}then iterate`);
    expect(parts.map((p) => p.kind)).toEqual(['same', 'removed', 'added']);
    expect(parts[1]!.words).toEqual(['repeat']);
    expect(parts[2]!.words).toEqual(['iterate']);
  });

  it('keeps words common to both in the middle of a change (longest common subsequence)', () => {
    const parts = wordDiff('a b c d e', 'a x c y e');
    expect(parts).toEqual([
      { kind: 'same', words: ['a'] },
      { kind: 'removed', words: ['b'] },
      { kind: 'added', words: ['x'] },
      { kind: 'same', words: ['c'] },
      { kind: 'removed', words: ['d'] },
      { kind: 'added', words: ['y'] },
      { kind: 'same', words: ['e'] },
    ]);
  });

  it('an added word alone, and spacing only (no change in words)', () => {
    expect(wordDiff('hello', 'hello world')).toEqual([{ kind: 'same', words: ['hello'] }, { kind: 'added', words: ['world'] }]);
    expect(wordDiff('a  b\nc', 'a b c').every((p) => p.kind === 'same')).toBe(true);
  });
});

describe('markDiff', () => {
  it('marks changes as [-old-]{+new+} without colour, long kept runs cut to five words with …', () => {
    const head = Array.from({ length: 80 }, (_, i) => `w${i}`).join(' ');
    const marked = markDiff(wordDiff(`${head} then repeat`, `${head} then iterate`), plainColors);
    expect(marked).toBe('… w76 w77 w78 w79 then [-repeat-]{+iterate+}');
    expect(markDiff(wordDiff('one two three', 'one 2 3 three'), plainColors)).toBe('one [-two-]{+2 3+} three');
  });

  it('colours removed words red and added green, each word on its own (no brackets)', async () => {
    const colors = await loadColors(true);
    const marked = markDiff(wordDiff('keep old', 'keep new words'), colors);
    expect(marked).toBe(`keep ${colors.red('old')} ${colors.green('new')} ${colors.green('words')}`);
    expect(marked).not.toContain('[-');
  });
});
