// The demo's closing "try it yourself" commands must be able to succeed when typed by hand: a
// post scheduled at +1m is due after a minute, so the wait shown must last longer than that.
import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { captureStream, runCli, tempConfigDir } from '../helpers/run-cli.js';
import { main } from '../../src/main.js';
import { parseDuration } from '../../src/cli/flags/number.js';
import { displayWidth } from '../../src/output/width.js';

describe('demo: try it yourself', () => {
  it('offers a wait that outlasts the schedule it offers', async () => {
    const r = await runCli(['demo'], { columns: 100 });
    expect(r.code, r.stderr).toBe(0);
    const text = r.stdout + r.stderr;
    const offered = text.slice(text.indexOf('Try it yourself'));
    const at = /posts schedule \S+ --at \+(\d+)m/.exec(offered);
    const wait = /results wait --post \S+ --timeout (\S+)/.exec(offered);
    expect(at, offered).not.toBeNull();
    expect(wait, offered).not.toBeNull();
    expect(parseDuration(wait![1]!)).toBeGreaterThan(Number(at![1]) * 60_000);
  });
});

describe('demo: try it yourself on a narrow terminal', () => {
  it('at 60 columns its guidance wraps and its commands stay whole, one to a line', async () => {
    // A 60-column terminal on stdout; stderr piped, so no spinner needs a real terminal.
    const stdout = captureStream(true, 60);
    const stderr = captureStream(false);
    const tmp = tempConfigDir();
    const code = await main(['demo'], {
      io: { stdout, stderr, stdin: Readable.from([]) },
      env: { PATH: process.env.PATH, SOCIALPUB_CONFIG_DIR: tmp.dir, SOCIALPUB_PAGER: 'cat', NO_COLOR: '1' },
      signal: new AbortController().signal,
      keyring: null,
    });
    tmp.cleanup();
    expect(code, stderr.text()).toBe(0);
    const out = stdout.text();
    const offered = out.slice(out.indexOf('Try it yourself'), out.indexOf('\nMore:'));
    const lines = offered.split('\n').filter(Boolean);
    const commands = lines.filter((l) => l.startsWith('  socialpub '));
    expect(commands).toContain('  socialpub sandbox --write-profile');
    expect(commands).toContain('  socialpub profile use sandbox');
    expect(commands.length).toBeGreaterThan(8);
    // No comment runs on after a command; everything else fits the terminal.
    for (const command of commands) expect(command).not.toContain('#');
    for (const line of lines.filter((l) => !commands.includes(l))) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
  });
});
