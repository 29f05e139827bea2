import { describe, expect, it } from 'vitest';
import { wrapLines, wrapProse, wrapRecord, wrapText } from '../../src/output/wrap.js';
import { displayWidth } from '../../src/output/width.js';
import { hyperlink } from '../../src/output/links.js';

describe('wrapText', () => {
  it('breaks at spaces, never inside a word that fits on a line', () => {
    expect(wrapText('the quick brown fox jumps over the lazy dog', 15)).toEqual(['the quick brown', 'fox jumps over', 'the lazy dog']);
  });
  it('keeps line breaks, and a hanging indent counts in the width', () => {
    const lines = wrapText('error: something went wrong here\nhint: run it again', 20, { indent: '  ' });
    expect(lines).toEqual(['error: something', '  went wrong here', '  hint: run it again']);
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(20);
  });
  it('a word wider than any line fills the line it starts on, split between graphemes', () => {
    expect(wrapText('see https://example.com/a/very/long/path', 12)).toEqual(['see https://', 'example.com/', 'a/very/long/', 'path']);
  });
  it('a list too wide for a line breaks after its commas', () => {
    expect(wrapLines('✗ bs,li,th,x,fb 今日は新しい機能を発表します', 9, 3)).toEqual(['✗ bs,li,', 'th,x,fb', '今日は新…']);
  });
  it('wraps CJK between characters by display width, emoji whole', () => {
    const lines = wrapText('今日は新しい機能を発表します 🎉🎉', 10);
    expect(lines.length).toBeGreaterThan(2);
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(10);
    expect(lines.join('')).toBe('今日は新しい機能を発表します🎉🎉');
  });
  it('no limit for a width that is not positive', () => {
    expect(wrapText('a b c', 0)).toEqual(['a b c']);
  });
});

describe('wrapLines', () => {
  it('at most max lines, the last ending in …', () => {
    const lines = wrapLines('bs A short one about the launch of our product', 9, 3);
    expect(lines).toEqual(['bs A', 'short one', 'about th…']);
  });
});

describe('wrapProse', () => {
  it('keeps each line\'s indentation, continues two further in, and never breaks a command to copy', () => {
    const text = 'error: --at: "next friday" is not a time I can read\n  hint: use "tomorrow 9am" or "mon 10:00" in --tz\n  printf %s sk_sandbox_0123456789 | socialpub auth login --with-key --profile sandbox';
    const lines = wrapProse(text, 30).split('\n');
    expect(lines).toEqual([
      'error: --at: "next friday" is',
      '  not a time I can read',
      '  hint: use "tomorrow 9am" or',
      '    "mon 10:00" in --tz',
      '  printf %s sk_sandbox_0123456789 | socialpub auth login --with-key --profile sandbox',
    ]);
  });
  it('a command in bold (a terminal with colour) is still a command: never broken', () => {
    const bold = '  \u001b[1msocialpub auth login --with-key --profile sandbox --base-url http://127.0.0.1:8787 < /tmp/socialpub-sandbox-x/demo.key\u001b[22m';
    expect(wrapProse(`Log in from another terminal:\n${bold}`, 60).split('\n')).toEqual(['Log in from another terminal:', bold]);
  });
  it('a command ending a hint goes whole on its own line, even wider than the terminal (folded there, a copy still runs)', () => {
    const hint = '  hint: delete the others: socialpub posts delete post_1La6pp0kqVhD post_3XCoIH3RPixG';
    expect(wrapProse(hint, 40).split('\n')).toEqual(['  hint: delete the others:', '    socialpub posts delete post_1La6pp0kqVhD post_3XCoIH3RPixG']);
  });
  it('leaves text alone without a width (a pipe)', () => {
    expect(wrapProse('a '.repeat(100), undefined)).toBe('a '.repeat(100));
  });
});

describe('wrapProse with a command at the end', () => {
  it('puts the command whole on its own line instead of breaking it', () => {
    const line = 'all results of this post: socialpub results list --post post_3O1PZs02ur7Z';
    expect(wrapProse(line, 60)).toBe('all results of this post:\n  socialpub results list --post post_3O1PZs02ur7Z');
    expect(wrapProse(line, 200)).toBe(line);
  });
});

describe('wrapRecord', () => {
  it('wraps a long value under its own column', () => {
    const text = "  id                res_1\n  error message     The connected account's access token has expired. Reconnect the account.";
    const lines = wrapRecord(text, 60).split('\n');
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.every((l) => l.length <= 60)).toBe(true);
    expect(lines[1]).toMatch(/^ {2}error message {5}The connected/);
    expect(lines[2]).toMatch(/^ {20}\S/);
    expect(lines.slice(1).map((l) => l.trim()).join(' ')).toBe(
      "error message     The connected account's access token has expired. Reconnect the account.",
    );
  });

  it('wraps the lines of a multi-line value at their own indentation, never back to column 0', () => {
    const deep = `${' '.repeat(40)}"message": "a line deep in a nested value, far longer than what is left"`;
    const text = ['  context           {', `${' '.repeat(22)}"detail": "The access token is invalid or was not found in the request."`, deep, `${' '.repeat(20)}}`, '  next              x'].join('\n');
    const lines = wrapRecord(text, 60).split('\n');
    expect(lines.filter((l) => l.length > 60)).toEqual([]);
    expect(lines[1]).toMatch(/^ {22}"detail": "The access token is/);
    expect(lines[2]).toMatch(/^ {24}\S/);
    // Deep in the value, the rest continues where 20 columns are left (under the line itself).
    const deepAt = lines.findIndex((l) => l.startsWith(`${' '.repeat(40)}"message"`));
    expect(lines[deepAt + 1]).toMatch(/^ {40}\S/);
    expect(lines.slice(-2)).toEqual([`${' '.repeat(20)}}`, '  next              x']);
    expect(lines.join(' ').replace(/\s+/g, ' ')).toBe(text.replace(/\s+/g, ' '));
  });

  it('breaks a path too wide for the value column under that column, after a "/" where it can', () => {
    const text = 'key       …r1KL in /tmp/qm2-cfg/socialpub/config.json\nAPI       ✓ accepts the key';
    expect(wrapRecord(text, 40).split('\n')).toEqual(['key       …r1KL in /tmp/qm2-cfg/', '          socialpub/config.json', 'API       ✓ accepts the key']);
  });

  it('a URL too wide for the value column stays whole on a line of its own, as a link too, to be copied', () => {
    const url = 'https://x.com/socialpub_demo/status/9651833633115532838';
    const alone = `  url               ${url}`;
    expect(wrapRecord(alone, 40)).toBe(alone);
    // After other words of the value (accounts view's result rows): under the value column.
    const row = `  ✓ res_1  8 months ago  ${url}`;
    expect(wrapRecord(row, 60).split('\n')).toEqual(['  ✓ res_1  8 months ago', `           ${url}`]);
    const linked = wrapRecord(`  ✓ res_1  8 months ago  ${hyperlink(url)}`, 60).split('\n');
    expect(linked).toEqual(['  ✓ res_1  8 months ago', `           ${hyperlink(url)}`]);
  });

  it('leaves whole a too-wide word that carries colour or is no path or URL (an id), and any value whose column leaves under 20 columns', () => {
    const coloured = `  file              \u001b[2m/a/very/long/path/to/some/file/deep/down.png\u001b[22m`;
    expect(wrapRecord(coloured, 40)).toBe(coloured);
    const id = `  key               release-2026-11-30-autumn-collection-announce`;
    expect(wrapRecord(id, 40)).toBe(id);
    const narrow = `  a long label here    /a/very/long/path/to/some/file.png`;
    expect(wrapRecord(narrow, 40)).toBe(narrow);
  });
});

describe('a word holding control characters shown as \\uXXXX', () => {
  it('is broken between escapes, never inside one', () => {
    const word = 'text\\u001b[31mRED\\u001b]8;;http://evil.example\\u0007LINK\\u202eLIVE';
    for (let width = 6; width <= 30; width++) {
      const lines = wrapText(`see ${word}`, width);
      expect(lines.join('').replace(/^see /, ''), `${width}`).toBe(word);
      for (const l of lines) expect(l.replace(/\\u[0-9a-f]{4}/g, ''), `${width}: ${l}`).not.toContain('\\u');
    }
  });
});
