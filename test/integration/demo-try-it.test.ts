// The demo's closing "try it yourself" commands must be able to succeed when typed by hand: a
// post scheduled at +1m is due after a minute, so the wait shown must last longer than that.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { parseDuration } from '../../src/cli/flags/number.js';

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
