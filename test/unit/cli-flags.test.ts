// Every flag value is read one way (src/cli/flags): the same message shape and "did you mean"
// from every command, comma lists wherever a flag repeats, and durations no timer can hold
// refused up front.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { duration, MAX_TIMER_MS, platforms, splitList, wholeNumber } from '../../src/cli/flags/index.js';
import { UsageError } from '../../src/cli/cli-error.js';

const env = { SOCIALPUB_API_KEY: 'sk_test_unused', SOCIALPUB_BASE_URL: 'http://127.0.0.1:9' };

describe('one way to read a flag', () => {
  it('--platform tweet reads the same from results list, posts create and listen', async () => {
    const runs = await Promise.all([
      runCli(['results', 'list', '--platform', 'tweet'], { env }),
      runCli(['posts', 'create', '--platform', 'tweet', '--text', 'hi'], { env }),
      runCli(['listen', '--platform', 'tweet', '--port', '0'], { env }),
    ]);
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/"tweet" is not a platform id/);
      expect(r.stderr).toContain('did you mean "twitter-x"?');
    }
  });

  it('any letter case and comma lists, wherever a flag repeats', () => {
    expect(platforms('--platform', ['Bluesky', 'twitter-x,linkedin', 'bluesky'])).toEqual(['bluesky', 'twitter-x', 'linkedin']);
    expect(splitList(['a,b', ' c ', 'a'])).toEqual(['a', 'b', 'c']);
  });

  it('numbers: one message shape naming the flag and the fix', () => {
    expect(() => wholeNumber('--limit', 'ten', { min: 1 })).toThrow(/^--limit: "ten" is not a whole number 1 or more$/);
    const port = () => wholeNumber('--port', '70000', { max: 65535 });
    expect(port).toThrow(UsageError);
    expect(port).toThrow(expect.objectContaining({ hints: [expect.stringMatching(/^e\.g\. --port/)] }));
  });

  it('a duration no timer can hold is exit 2 naming the flag, before any request', async () => {
    expect(() => duration('--timeout', '25d')).toThrow(/--timeout: "25d" is longer than any timer can wait/);
    expect(duration('--timeout', '24d')).toBeLessThanOrEqual(MAX_TIMER_MS);
    const r = await runCli(['--timeout', '25d', 'results', 'list'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--timeout: "25d" is longer than any timer can wait');
    expect(r.stderr).not.toContain('TimeoutOverflowWarning');
  });
});
