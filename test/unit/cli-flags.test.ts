// Every flag value is read one way (src/cli/flags): the same message shape and "did you mean"
// from every command, comma lists wherever a flag repeats, and durations no timer can hold
// refused up front.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { duration, MAX_TIMER_MS, platforms, splitList, wholeNumber } from '../../src/cli/flags/index.js';
import { UsageError } from '../../src/cli/cli-error.js';
import { planListen } from '../../src/cli/commands/listen/flags.js';
import { checkArgs } from '../../src/mcp/json-schema.js';
import { waitForResults } from '../../src/mcp/tools/wait-for-results.js';

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

describe('a duration of 0 where 0 means nothing', () => {
  // Each flag that takes a duration without a meaning for 0: exit 2, naming the flag and the fix, not "is not a duration".
  it.each([
    ['the global --timeout (per request)', ['--timeout', '0s', 'results', 'list'], '--timeout'],
    ['results wait --timeout (the whole wait)', ['results', 'wait', '--post', 'post_x', '--timeout', '0s'], '--timeout'],
    ['listen --forward-timeout', ['listen', '--port', '0', '--forward-to', 'http://127.0.0.1:9/hook', '--forward-timeout', '0ms'], '--forward-timeout'],
    ['listen --timeout', ['listen', '--port', '0', '--timeout', '0'], '--timeout'],
  ])('%s', async (_name, argv, flag) => {
    const r = await runCli(argv, { env });
    expect(r.code, r.stderr).toBe(2);
    const value = argv[argv.indexOf(flag) + 1]!;
    expect(r.stderr).toContain(`error: ${flag}: must be more than 0s, not "${value}"`);
    expect(r.stderr).toContain('give a positive duration such as 30s or 5m');
    expect(r.stderr).not.toContain('is not a duration');
    expect(r.stdout).toBe('');
  });

  it('listen --timeout read on its own (the program reads --timeout wherever it stands, so the run above stops earlier)', () => {
    const flags = { port: '0', host: '127.0.0.1', path: '/webhooks', forwardTimeout: '10s', forwardRetries: '2', platform: [], status: [], timeout: '0s' };
    expect(() => planListen(flags, {})).toThrow(/^--timeout: must be more than 0s, not "0s"$/);
  });

  it('the MCP equivalent, wait_for_results timeout_seconds: 0, is told the minimum, naming the field', () => {
    const issues = checkArgs(waitForResults.inputSchema, { post_id: 'post_1', timeout_seconds: 0 });
    expect(issues.map((i) => i.message)).toEqual(['timeout_seconds: 0 is below the minimum of 1']);
  });

  it('0 is accepted where it means something: --max-wait (never sleep through a Retry-After), sandbox --latency and --chaos-slow', () => {
    expect(duration('--max-wait', '0s', { allowZero: true })).toBe(0);
    expect(duration('--latency', '0ms', { allowZero: true })).toBe(0);
  });

  it('a negative duration is told what the flag takes; what is no duration at all still says so', () => {
    expect(() => duration('--timeout', '-5s')).toThrow(/^--timeout: must be more than 0s, not "-5s"$/);
    expect(() => duration('--max-wait', '-1m', { allowZero: true })).toThrow(/^--max-wait: must be 0s or more, not "-1m"$/);
    expect(() => duration('--max-wait', '-1m', { allowZero: true })).toThrow(expect.objectContaining({ hints: ['give 0s or a duration such as 30s or 5m'] }));
    expect(() => duration('--timeout', 'soon')).toThrow(/^--timeout: "soon" is not a duration$/);
    expect(() => duration('--timeout', '0.0001s')).toThrow(/must be more than 0s/);
  });
});

describe('--fields and --jq where nothing is shaped', () => {
  it('are refused (exit 2, before anything happens) by commands with no data output, not silently ignored', async () => {
    const home = { ...env, XDG_CONFIG_HOME: '/nonexistent/socialpub-flags-test' };
    const runs = await Promise.all([
      runCli(['auth', 'logout', '--fields', 'id'], { env: home }),
      runCli(['profile', 'use', 'nobody', '--jq', '.'], { env: home }),
      runCli(['completion', 'bash', '--fields', 'id'], { env: home }),
    ]);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2]);
    expect(runs[0].stderr).toContain('error: --fields: `socialpub auth logout` has no output that --fields shapes; leave --fields out');
    expect(runs[1].stderr).toContain('--jq: `socialpub profile use` has no output that --jq shapes');
    // Refused before the command ran: no script on stdout, no profile looked up.
    expect(runs[2].stdout).toBe('');
    expect(runs[1].stderr).not.toMatch(/no profile named/);
  });

  it('commands with output keep them', async () => {
    const r = await runCli(['profile', 'list', '--fields', 'nope'], { env: { ...env, XDG_CONFIG_HOME: '/nonexistent/socialpub-flags-test' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown field "nope"/);
  });
});
