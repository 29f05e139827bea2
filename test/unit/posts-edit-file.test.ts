// The file `posts edit --editor` opens: readable in a narrow terminal, and read back as written.
import { describe, expect, it } from 'vitest';
import { editorFile, parseEditorFile } from '../../src/posts/edit-file.js';
import { displayWidth } from '../../src/output/width.js';

describe('the editor file', () => {
  const texts = new Map([
    ['twitter-x', 'Launch day! 🚀 Our new café menu is live'],
    ['bluesky', 'Bluesky gets a longer version: 新しいメニュー 🍰'],
  ]);

  it('its own comment lines fit 72 columns, so a narrow terminal does not wrap them', () => {
    const comments = editorFile('post_2G2Omb3eUMjy', texts).split('\n').filter((l) => l.startsWith('//') && !/^\/\/ [a-z-]+: at most/.test(l));
    expect(comments).toHaveLength(3);
    for (const line of comments) expect(displayWidth(line)).toBeLessThanOrEqual(72);
  });

  it('reads back the texts as they were', () => {
    expect(parseEditorFile(editorFile('post_2G2Omb3eUMjy', texts))).toEqual(texts);
  });
});
