// `socialpub help reference` and the man page come from the live command tree: every command, its
// flags and its examples, with help written for people who installed the package.
import { Readable } from 'node:stream';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { createContext, systemClock } from '../../src/cli/create-context.js';
import { referenceOf } from '../../src/cli/commands/help/reference.js';
import { manPage, roffEscape } from '../../src/cli/commands/help/man-page.js';
import { captureStream, runCli } from '../helpers/run-cli.js';

async function program(): Promise<CommandUnknownOpts> {
  const ctx = createContext({
    io: { stdout: captureStream(), stderr: captureStream(), stdin: Readable.from([]) },
    env: {},
    clock: systemClock,
    signal: new AbortController().signal,
    version: '9.9.9',
  });
  return buildProgram(ctx);
}

/** Every command commander would show, walked independently of the code under test. */
function visibleCommands(root: CommandUnknownOpts): { path: string[]; cmd: CommandUnknownOpts }[] {
  const out = [{ path: [] as string[], cmd: root }];
  const walk = (cmd: CommandUnknownOpts, path: string[]) => {
    for (const sub of cmd.commands) {
      if ((sub as CommandUnknownOpts & { _hidden?: boolean })._hidden) continue;
      out.push({ path: [...path, sub.name()], cmd: sub });
      walk(sub, [...path, sub.name()]);
    }
  };
  walk(root, []);
  return out;
}

const examplesOf = (help: string) => (help.split(/\nExamples:\n/)[1] ?? '').split('\n').filter((l) => l.trim());

describe('help reference', () => {
  it('has one section per visible command, in tree order', async () => {
    const root = await program();
    expect(referenceOf(root).map((e) => e.path.join(' '))).toEqual(visibleCommands(root).map((c) => c.path.join(' ')));
  });

  it('prints every command with its usage, every visible flag, and the examples of its --help', async () => {
    const r = await runCli(['help', 'reference']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const root = await program();
    let examples = 0;
    expect(visibleCommands(root).length).toBeGreaterThan(10);
    for (const { path, cmd } of visibleCommands(root)) {
      const name = ['socialpub', ...path].join(' ');
      expect(r.stdout, name).toContain(`\n${name} — `);
      const help = cmd.createHelp();
      expect(r.stdout, name).toContain(`Usage: ${help.commandUsage(cmd)}\n`);
      for (const option of help.visibleOptions(cmd)) expect(r.stdout, `${name} ${option.flags}`).toContain(help.optionTerm(option));
      const own = await runCli([...path, '--help']);
      for (const line of examplesOf(own.stdout)) expect(r.stdout, `${name} example`).toContain(line);
      examples += examplesOf(own.stdout).length;
    }
    expect(examples).toBeGreaterThan(10);
  });

  it('--man prints the same tree as roff, and is refused for anything but the reference', async () => {
    const r = await runCli(['help', 'reference', '--man']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\.\\" Generated .*\n\.TH SOCIALPUB 1 /);
    const commands = visibleCommands(await program()).slice(1);
    expect(commands.length).toBeGreaterThan(10);
    for (const { path } of commands) expect(r.stdout).toContain(`.SS "${roffEscape(['socialpub', ...path].join(' '))}"`);
    expect(r.stdout).toContain(roffEscape('--idempotency-key'));
    expect(r.stdout).toContain('.SH EXIT STATUS');
    expect(r.stdout).toContain('SOCIALPUB_API_KEY');

    const bad = await runCli(['help', 'posts', '--man']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('--man: only `socialpub help reference`');
  });

  it('the man page carries the version it was built from', async () => {
    expect(manPage(await program(), '9.9.9')).toContain('.TH SOCIALPUB 1 "" "socialpub 9.9.9" "User Commands"');
  });
});

describe('roff escaping', () => {
  it('escapes backslashes, minus signs, non-ASCII and control characters at line starts', () => {
    expect(roffEscape('a\\b')).toBe('a\\eb');
    expect(roffEscape('--json')).toBe('\\-\\-json');
    expect(roffEscape('… → —')).toBe('\\[u2026] \\[u2192] \\[u2014]');
    expect(roffEscape('😀')).toBe('\\[u1F600]');
    expect(roffEscape('.TH x\n\'quoted')).toBe("\\&.TH x\n\\&'quoted");
    expect(roffEscape('a.b it\'s')).toBe("a.b it's");
  });
});

describe('help for people who installed the package', () => {
  it('--help says to start with `socialpub demo`, not an npm script', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\nStart here:\n {2}socialpub demo /);
    expect(r.stdout).not.toContain('npm run');
    expect(r.stdout).toContain('socialpub help reference');
  });

  it('demo --help lists the installed command first and the clone one after', async () => {
    const r = await runCli(['demo', '--help']);
    const examples = examplesOf(r.stdout);
    expect(examples[0]).toMatch(/^ {2}socialpub demo\s/);
    const clone = examples.findIndex((l) => l.includes('npm run demo'));
    expect(clone).toBeGreaterThan(0);
    expect(examples[clone]).toContain('clone');
  });
});
