// Help is part of the product: every command has a summary, a paragraph and 2–4 examples whose
// commands and flags exist. Summaries and examples are kept stable by snapshots (update
// deliberately with `vitest -u`); commander's wrapping is not frozen.
import { describe, expect, it } from 'vitest';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { runCli } from '../helpers/run-cli.js';
import { buildProgram } from '../../src/cli/program.js';
import { createContext, systemClock } from '../../src/cli/create-context.js';
import { captureStream } from '../helpers/run-cli.js';
import { Readable } from 'node:stream';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

async function allCommands(): Promise<{ path: string[]; cmd: CommandUnknownOpts }[]> {
  const ctx = createContext({
    io: { stdout: captureStream(), stderr: captureStream(), stdin: Readable.from([]) },
    env: {},
    clock: systemClock,
    signal: new AbortController().signal,
    version: '0.0.0',
  });
  const out: { path: string[]; cmd: CommandUnknownOpts }[] = [];
  const walk = (cmd: CommandUnknownOpts, path: string[]) => {
    for (const sub of cmd.commands) {
      out.push({ path: [...path, sub.name()], cmd: sub });
      walk(sub, [...path, sub.name()]);
    }
  };
  walk(await buildProgram(ctx), []);
  return out;
}

const commands = await allCommands();
const root = commands[0]!.cmd.parent!;

/** Flags of a `socialpub …` example line that the command it names does not take. */
function unknownFlags(line: string): string[] {
  // Up to the first pipe, redirection or comment: what follows is another program's.
  const words = line.replace(/"[^"]*"|'[^']*'|\$\([^)]*\)/g, 'X').split(/\s[|>#&]/)[0]!.split(/\s+/);
  const start = words.indexOf('socialpub');
  if (start < 0) return [];
  let cmd: CommandUnknownOpts = root;
  for (const w of words.slice(start + 1)) {
    const sub = cmd.commands.find((c) => c.name() === w);
    if (!sub) break;
    cmd = sub;
  }
  const known = new Set<string>();
  for (let c: CommandUnknownOpts | null = cmd; c; c = c.parent) for (const o of c.options) for (const f of [o.long, o.short]) if (f) known.add(f);
  known.add('--help');
  return words
    .slice(start + 1)
    .filter((w) => /^--?[a-z]/i.test(w))
    .map((w) => w.split('=')[0]!)
    .filter((f) => !known.has(f) && !known.has(f.replace(/^--no-/, '--')));
}
const leaves = commands.filter((c) => c.cmd.commands.length === 0);

describe('help', () => {
  it('covers every command of the contract', () => {
    const names = commands.map((c) => c.path.join(' '));
    for (const expected of [
      'auth login', 'auth status', 'auth logout', 'profile list', 'profile use', 'profile show', 'profile remove',
      'posts create', 'posts schedule', 'posts list', 'results list', 'results get', 'results wait',
      'listen', 'api', 'completion', 'sandbox', 'demo',
    ]) {
      expect(names).toContain(expected);
    }
  });

  for (const { path, cmd } of commands) {
    it(`socialpub ${path.join(' ')} has a one-line summary and a paragraph`, () => {
      const summary = cmd.summary() || cmd.description();
      expect(summary.length).toBeGreaterThan(10);
      expect(summary).not.toContain('\n');
      expect(cmd.description().length).toBeGreaterThan(20);
    });
  }

  for (const { path, cmd } of leaves) {
    it(`socialpub ${path.join(' ')} --help shows 2–4 examples that parse, and they stay stable`, async () => {
      const r = await runCli([...path, '--help']);
      expect(r.code).toBe(0);
      // A command continued on the next line (after a backslash or &&) is one example.
      const examples = (r.stdout.split(/\nExamples:\n/)[1] ?? '').replace(/ \\\n\s+/g, ' ').replace(/ &&\n\s+/g, ' && ');
      const lines = examples.split('\n').filter((l) => /^\s+(\$ )?(socialpub|npm|printf|echo|ID=|[A-Z_]+=)/.test(l));
      expect(lines.length, r.stdout).toBeGreaterThanOrEqual(2);
      expect(lines.length, r.stdout).toBeLessThanOrEqual(4);
      for (const line of lines) expect(unknownFlags(line), line).toEqual([]);
      expect({ summary: cmd.summary() || cmd.description(), examples: lines.map((l) => l.trim()) }).toMatchSnapshot();
    });
  }

  it('has topics for the environment and exit codes', async () => {
    const env = await runCli(['help', 'environment']);
    expect(env.code).toBe(0);
    expect(env.stdout).toContain('SOCIALPUB_API_KEY');
    const codes = await runCli(['help', 'exit-codes']);
    expect(codes.stdout).toMatch(/130\s+interrupted/);
  });

  it('help environment names every SOCIALPUB_ and XDG_ variable the code reads', async () => {
    const env = await runCli(['help', 'environment']);
    const read = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (path.endsWith('.ts')) for (const m of readFileSync(path, 'utf8').matchAll(/\benv\.((?:SOCIALPUB|XDG)_[A-Z_]+)/g)) read.add(m[1]!);
      }
    };
    walk(fileURLToPath(new URL('../../src', import.meta.url)));
    expect(read.size).toBeGreaterThan(5);
    for (const name of read) expect(env.stdout, name).toMatch(new RegExp(`^  ${name} `, 'm'));
  });

  it.each([
    [['enviroment'], 'socialpub help environment', 'topics: environment'],
    [['exit-code'], 'socialpub help exit-codes', 'topics: environment'],
    [['posts', 'creat'], 'socialpub help posts create', 'commands of posts: create, schedule'],
    [['atuh', 'login'], 'socialpub help auth login', 'commands: posts'],
  ])('help %j: exit 2 with the nearest command or topic', async (words, near, list) => {
    const r = await runCli(['help', ...words]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`did you mean \`${near}\`?`);
    expect(r.stderr).toContain(list);
  });

  it('suggests the nearest command and flag', async () => {
    const cmd = await runCli(['post', 'list']);
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toContain('hint: did you mean `socialpub posts`?');
    const flag = await runCli(['posts', 'list', '--stauts', 'draft']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('hint: did you mean --status?');
  });

  it.each([
    [['completions', '--help'], 'socialpub completion'],
    [['posts', 'creat', '--help'], 'socialpub posts create'],
    [['--profile', 'acme', 'post', '-h'], 'socialpub posts'],
    [['auth', '--help', 'logn'], 'socialpub auth login'],
  ])('%j: a misspelt command is an error with the nearest one, not the help of its parent', async (argv, near) => {
    const r = await runCli(argv);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`unknown command '${argv.find((w) => !w.startsWith('-') && w !== 'acme' && !['posts', 'auth'].includes(w))}'`);
    expect(r.stderr).toContain(`did you mean \`${near}\`?`);
  });

  it.each([[['posts', 'create', '--help']], [['help', 'posts', 'create']], [['posts', 'help', 'create']], [['--profile', 'posts', 'auth', '--help']], [['api', 'v1/posts', '--help']]])(
    '%j: help of a command that exists is still printed',
    async (argv) => {
      const r = await runCli(argv);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Usage: socialpub /);
    },
  );
});

describe('error codes in help and the README', () => {
  it('every --code an example names is one the service sends (the sandbox failure table, THREAD_PART_FAILED and account codes)', async () => {
    const { FAILURE_CODES } = await import('../../src/sandbox/failures.js');
    // CODE: the placeholder of a usage line (--code CODE).
    const known = new Set([...FAILURE_CODES, 'THREAD_PART_FAILED', 'ACCOUNT_DISCONNECTED', 'CODE']);
    const reference = await runCli(['help', 'reference']);
    const readme = readFileSync(join(fileURLToPath(new URL('../..', import.meta.url)), 'README.md'), 'utf8');
    const named = [...`${reference.stdout}\n${readme}`.matchAll(/--code[ =]([A-Z_,]+)/g)].flatMap((m) => m[1]!.split(',').filter(Boolean));
    expect(named.length).toBeGreaterThan(1);
    expect(named.filter((code) => !known.has(code))).toEqual([]);
  });
});
