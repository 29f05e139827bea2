// The built binary refusing a command line in commander's parsing (an unknown option or command,
// a missing or extra argument, a value outside the choices): the same `error:` line and hints as
// our own usage errors, exit 2, and with --json (or -o json / -o ndjson) the JSON error object on
// stderr too; piped under CI and on a real terminal. Nothing on stdout.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt } from './ensure-built.js';

let tmp: string;
beforeAll(async () => {
  await ensureBuilt();
  tmp = mkdtempSync(join(tmpdir(), 'socialpub-refusals-'));
}, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const env = () => ({ PATH: process.env.PATH, HOME: tmp, SOCIALPUB_CONFIG_DIR: join(tmp, 'config'), CI: 'true' });

function run(argv: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...argv], { env: env(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface ErrorObject {
  error: { code: string; message: string; status: null; requestId: null; exitCode: number; hints: string[] };
}

/** [what is refused, argv, the message, the hints in order] */
const REFUSALS: ReadonlyArray<[string, string[], string, string[]]> = [
  ['an unknown option', ['posts', 'list', '--bogus'], "unknown option '--bogus'", ['see `socialpub posts list --help`']],
  ['a misspelt option', ['posts', 'list', '--stauts', 'draft'], "unknown option '--stauts'", ['did you mean --status?', 'see `socialpub posts list --help`']],
  ['an unknown command', ['posts', 'lst'], "unknown command 'lst' for 'posts'", ['did you mean `socialpub posts list`?', 'see `socialpub posts --help`']],
  ['an unknown noun', ['reslts', 'list'], "unknown command 'reslts'", ['did you mean `socialpub results`?', 'see `socialpub --help`']],
  ["an option's missing value", ['posts', 'list', '--limit'], "option '--limit <n>' argument missing", ['see `socialpub posts list --help`']],
  ['too many arguments', ['posts', 'view', 'a', 'b'], "too many arguments for 'view'. Expected 1 argument but got 2.", ['see `socialpub posts view --help`']],
  ['a missing argument', ['posts', 'view'], "missing required argument 'id'", ['see `socialpub posts view --help`']],
  ['a missing required option', ['results', 'wait'], "required option '--post <id>' not specified", ['see `socialpub results wait --help`']],
  ['a value outside the choices', ['completion', 'tcsh'], "command-argument value 'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.", ['see `socialpub completion --help`']],
];

describe("commander's refusals, piped under CI", () => {
  it.each(REFUSALS)('%s: one error line and its hints, exit 2', (_what, argv, message, hints) => {
    const r = run(argv);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe([`error: ${message}`, ...hints.map((h) => `  hint: ${h}`)].join('\n') + '\n');
  });

  it.each(REFUSALS)('%s with --json: the same lines, then the JSON error object', (_what, argv, message, hints) => {
    const r = run([...argv, '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.slice(0, -1)).toEqual([`error: ${message}`, ...hints.map((h) => `  hint: ${h}`)]);
    expect(JSON.parse(lines.at(-1)!)).toEqual({ error: { code: 'USAGE', message, status: null, requestId: null, exitCode: 2, hints } } satisfies ErrorObject);
  });

  it.each([
    [['-o', 'json', 'posts', 'lst']],
    [['posts', 'lst', '-o', 'ndjson']],
    [['--jq', '.', 'posts', 'list', '--bogus']],
    // A value outside -o's own choices, with --json before it.
    [['--json', '-o', 'xml', 'posts', 'list']],
  ])('%j: the JSON object under every format that prints JSON', (argv) => {
    const r = run(argv);
    expect(r.code).toBe(2);
    const parsed = JSON.parse(r.stderr.trimEnd().split('\n').at(-1)!) as ErrorObject;
    expect(parsed.error.code).toBe('USAGE');
    expect(parsed.error.exitCode).toBe(2);
  });

  it('-o tsv: no JSON object', () => {
    const r = run(['-o', 'tsv', 'posts', 'lst']);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('{');
  });

  it('a key typed as an unknown flag\'s value is not repeated, in the line or the JSON', () => {
    const key = 'sk_live_0123456789abcdef';
    const r = run(['auth', 'login', `--with-key=${key}`, '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("error: unknown option '--with-key=…'");
    expect(JSON.parse(r.stderr.trimEnd().split('\n').at(-1)!).error.message).toBe("unknown option '--with-key=…'");
    expect(r.stderr).not.toContain('0123456789');
  });

  it('help and the version still exit 0 with their text on stdout', () => {
    const version = run(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
    // Not pre-rendered (a global flag before the command): the program itself prints it.
    const help = run(['--no-color', 'posts', 'list', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: socialpub posts list/);
    expect(help.stderr).toBe('');
  });
});

const hasScript = existsSync('/usr/bin/script') && spawnSync('script', ['-qec', 'true', '/dev/null']).status === 0;
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

describe.skipIf(!hasScript)("commander's refusals on a real terminal", () => {
  it('one error line and its hints, nothing else', () => {
    const command = `stty cols 100 rows 30; ${[process.execPath, BIN, 'posts', 'lst'].map(shellQuote).join(' ')}; echo "exit $?"`;
    const r = spawnSync('script', ['-qec', command, '/dev/null'], { env: { ...env(), CI: undefined, TERM: 'xterm-256color', NO_COLOR: '1' }, encoding: 'utf8', timeout: 30_000 });
    expect(r.stdout.split('\r\n').filter(Boolean)).toEqual([
      "error: unknown command 'lst' for 'posts'",
      '  hint: did you mean `socialpub posts list`?',
      '  hint: see `socialpub posts --help`',
      'exit 2',
    ]);
  });
});
