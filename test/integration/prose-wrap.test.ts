// Prose on a narrow terminal wraps between words: error messages with their hints, notices, and
// the demo's narration.
import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { captureStream, runCli, tempConfigDir } from '../helpers/run-cli.js';
import { main } from '../../src/main.js';
import { displayWidth } from '../../src/output/width.js';

const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m|\u001b\]8;[^\u0007]*\u0007/g, '');
/** The words of the text, whatever the line breaks and indentation. */
const words = (s: string) => plain(s).split(/\s+/).filter(Boolean);

describe('prose at 50 columns', () => {
  it('an error and its hints wrap between words', async () => {
    const wide = await runCli(['posts', 'schedule', '--platform', 'bluesky', '--text', 'hi', '--at', 'next friday'], { tty: true, columns: 400, env: { SOCIALPUB_API_KEY: 'sk_test_x1234567890', SOCIALPUB_BASE_URL: 'http://127.0.0.1:9' } });
    const narrow = await runCli(['posts', 'schedule', '--platform', 'bluesky', '--text', 'hi', '--at', 'next friday'], { tty: true, columns: 50, env: { SOCIALPUB_API_KEY: 'sk_test_x1234567890', SOCIALPUB_BASE_URL: 'http://127.0.0.1:9' } });
    expect(narrow.code).toBe(2);
    const lines = plain(narrow.stderr).trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(plain(wide.stderr).trimEnd().split('\n').length);
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(50);
    expect(words(narrow.stderr)).toEqual(words(wide.stderr));
  });

  it("the demo's narration wraps at 60 columns", async () => {
    // stdout a terminal, stderr not (no spinners to draw on a stream that cannot move a cursor).
    const stdout = captureStream(true, 60);
    const stderr = captureStream(false, 60);
    const { dir, cleanup } = tempConfigDir();
    const code = await main(['demo'], { io: { stdout, stderr, stdin: Object.assign(Readable.from([]), { isTTY: false }) }, env: { SOCIALPUB_CONFIG_DIR: dir, HOME: dir, NO_COLOR: '1' }, signal: new AbortController().signal, keyring: null });
    cleanup();
    expect(code, stderr.text()).toBe(0);
    const narration = plain(stdout.text())
      .split('\n')
      .filter((l, i, all) => l.startsWith('▸') || (l.startsWith('  ') && !/^\s+socialpub /.test(l) && all[i - 1]?.startsWith('▸')));
    expect(narration.length).toBeGreaterThan(5);
    for (const line of narration) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
  });
});
