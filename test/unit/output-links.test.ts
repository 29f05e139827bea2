import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { browserCommand, openInBrowser } from '../../src/output/browser.js';
import { hyperlink, supportsHyperlinks } from '../../src/output/links.js';
import { cutToWidth, displayWidth } from '../../src/output/width.js';

describe('OSC 8 hyperlinks', () => {
  it.each([
    [{ TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.4.19' }, true, true],
    [{ TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.0.0' }, true, false],
    [{ TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '1.95.0' }, true, true],
    [{ VTE_VERSION: '7600' }, true, true],
    [{ VTE_VERSION: '4600' }, true, false],
    [{ WT_SESSION: 'abc' }, true, true],
    [{ TERM: 'xterm-kitty' }, true, true],
    [{ TERM: 'xterm-256color' }, true, false],
    [{ WT_SESSION: 'abc' }, false, false],
    [{ WT_SESSION: 'abc', TMUX: '/tmp/tmux-0/default,1,0' }, true, false],
    [{ WT_SESSION: 'abc', CI: 'true' }, true, false],
    [{ WT_SESSION: 'abc', TERM: 'dumb' }, true, false],
    [{ FORCE_HYPERLINK: '1' }, false, true],
    [{ FORCE_HYPERLINK: '0', WT_SESSION: 'abc' }, true, false],
  ])('%j tty=%s → %s', (env, isTTY, expected) => {
    expect(supportsHyperlinks({ env, isTTY })).toBe(expected);
  });

  it('a link is as wide as its text, and cutting keeps it a link', () => {
    const url = 'https://bsky.app/profile/socialpub.example/post/3kq2abcdefgh';
    const link = hyperlink(url);
    expect(link).toBe(`\u001b]8;;${url}\u0007${url}\u001b]8;;\u0007`);
    expect(displayWidth(link)).toBe(url.length);
    expect(displayWidth(hyperlink(url, 'open'))).toBe(4);
    const cut = cutToWidth(link, 20);
    expect(displayWidth(cut)).toBe(20);
    expect(cut).toBe(`\u001b]8;;${url}\u0007https://bsky.app/pr…\u001b]8;;\u0007`);
  });

  it('plain text when disabled, and data cannot end the sequence early', () => {
    expect(hyperlink('https://x.example/a', 'text', false)).toBe('text');
    expect(hyperlink('https://x.example/\u0007\u001b]8;;evil', 'a\u001bb')).toBe('\u001b]8;;https://x.example/]8;;evil\u0007ab\u001b]8;;\u0007');
  });
});

describe('openInBrowser', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'socialpub-browser-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  // A "browser" that records its arguments, one per line.
  const script = join(tmp, 'browser.mjs');
  writeFileSync(script, "import { writeFileSync } from 'node:fs';\nwriteFileSync(process.env.ARGS_FILE, process.argv.slice(2).join('\\n'));\n");

  it('SOCIALPUB_BROWSER wins over BROWSER; the URL is one argument and no shell runs', async () => {
    const argsFile = join(tmp, 'args1');
    const url = 'https://x.com/acme/status/1?a=1&b=$(touch pwned);echo hi';
    const ok = await openInBrowser({ env: { PATH: process.env.PATH, ARGS_FILE: argsFile, SOCIALPUB_BROWSER: `${process.execPath} ${script} --new-tab`, BROWSER: 'false' }, url });
    expect(ok).toBe(true);
    expect(readFileSync(argsFile, 'utf8').split('\n')).toEqual(['--new-tab', url]);
  });

  it('puts the URL where %s is', async () => {
    const argsFile = join(tmp, 'args2');
    expect(await openInBrowser({ env: { ARGS_FILE: argsFile, BROWSER: `${process.execPath} ${script} --url=%s --x` }, url: 'https://a.example/' })).toBe(true);
    expect(readFileSync(argsFile, 'utf8').split('\n')).toEqual(['--url=https://a.example/', '--x']);
  });

  it('false when there is no browser, it cannot start, it fails, or the URL is not http(s)', async () => {
    expect(browserCommand({ BROWSER: '  ' })).toBeUndefined();
    expect(await openInBrowser({ env: {}, url: 'https://a.example/' })).toBe(false);
    expect(await openInBrowser({ env: { BROWSER: join(tmp, 'no-such-browser') }, url: 'https://a.example/' })).toBe(false);
    expect(await openInBrowser({ env: { BROWSER: `${process.execPath} -e process.exit(3)` }, url: 'https://a.example/' })).toBe(false);
    expect(await openInBrowser({ env: { BROWSER: `${process.execPath} ${script}` }, url: 'file:///etc/passwd' })).toBe(false);
  });
});
