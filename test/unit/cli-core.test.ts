import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { parseDuration } from '../../src/cli/flags/number.js';
import { resolveGlobals } from '../../src/cli/globals.js';
import { captureStream } from '../helpers/run-cli.js';
import { Readable } from 'node:stream';

describe('cli core', () => {
  it('answers --version with the package version', async () => {
    const r = await runCli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('exits 2 on an unknown command and suggests nothing dangerous', async () => {
    const r = await runCli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/error/);
  });

  it('refuses --api-key with an explanation (exit 2) and never echoes the key', async () => {
    // A command that runs an action (help short-circuits before the refusal), in both spellings
    // and on either side of the command; a key in the environment must not make it pass.
    const env = { SOCIALPUB_API_KEY: 'sk_test_env', SOCIALPUB_BASE_URL: 'http://127.0.0.1:9' };
    for (const argv of [
      ['--api-key', 'sk_live_secret123', 'results', 'list'],
      ['results', 'list', '--api-key=sk_live_secret123'],
    ]) {
      const r = await runCli(argv, { env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/--api-key is not accepted/);
      expect(r.stderr).toContain('SOCIALPUB_API_KEY');
      expect(r.stderr).toContain('auth login --with-key');
      expect(r.stdout).toBe('');
      expect(r.stdout + r.stderr).not.toContain('secret123');
    }
  });

  it('parses durations', () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('5')).toBe(5_000);
    expect(parseDuration('soon')).toBeUndefined();
  });

  it('picks tsv when piped and table on a terminal, json with --json', () => {
    const io = (tty: boolean) => ({ stdout: captureStream(tty), stderr: captureStream(tty), stdin: Object.assign(Readable.from([]), { isTTY: tty }) });
    expect(resolveGlobals({}, io(false), {}).format).toBe('tsv');
    expect(resolveGlobals({}, io(true), {}).format).toBe('table');
    expect(resolveGlobals({ json: true }, io(true), {}).format).toBe('json');
    expect(resolveGlobals({}, io(true), { CI: 'true' }).interactive).toBe(false);
    expect(resolveGlobals({}, io(true), {}).interactive).toBe(true);
    expect(resolveGlobals({ input: false }, io(true), {}).interactive).toBe(false);
    expect(resolveGlobals({}, io(true), { NO_COLOR: '1' }).color).toBe(false);
    expect(resolveGlobals({}, io(false), { FORCE_COLOR: '1' }).color).toBe(true);
    expect(() => resolveGlobals({ timeout: 'soon' }, io(false), {})).toThrow(/--timeout/);
    expect(() => resolveGlobals({ apiKey: 'sk_x' }, io(false), {})).toThrow(/--api-key is not accepted/);
  });
});

describe('version constant', () => {
  it('matches package.json', async () => {
    const { readFileSync } = await import('node:fs');
    const { VERSION } = await import('../../src/version.js');
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
});

describe('process streams', () => {
  it('hands out the real stdin (readline and prompts keep state on it) and tells a terminal without creating it', async () => {
    const { processIo } = await import('../../src/cli/entry.js');
    const { isatty } = await import('node:tty');
    const io = processIo();
    expect(io.stdinIsTTY).toBe(isatty(0));
    expect(io.stdin).toBe(process.stdin);
    expect(io.stdout).toBe(process.stdout);
    expect(io.stderr).toBe(process.stderr);
  });
});
