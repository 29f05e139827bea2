// Help is part of the product: every command has a summary, a paragraph and 2–4 examples, and
// the text is kept stable by snapshots (update deliberately with `vitest -u`).
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { runCli } from '../helpers/run-cli.js';
import { buildProgram } from '../../src/cli/program.js';
import { createContext, systemClock } from '../../src/cli/create-context.js';
import { captureStream } from '../helpers/run-cli.js';
import { Readable } from 'node:stream';

function allCommands(): { path: string[]; cmd: Command }[] {
  const ctx = createContext({
    io: { stdout: captureStream(), stderr: captureStream(), stdin: Readable.from([]) },
    env: {},
    clock: systemClock,
    signal: new AbortController().signal,
    version: '0.0.0',
  });
  const out: { path: string[]; cmd: Command }[] = [];
  const walk = (cmd: Command, path: string[]) => {
    for (const sub of cmd.commands) {
      out.push({ path: [...path, sub.name()], cmd: sub });
      walk(sub, [...path, sub.name()]);
    }
  };
  walk(buildProgram(ctx), []);
  return out;
}

const commands = allCommands();
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

  for (const { path } of leaves) {
    it(`socialpub ${path.join(' ')} --help shows 2–4 examples and stays stable`, async () => {
      const r = await runCli([...path, '--help']);
      expect(r.code).toBe(0);
      const examples = r.stdout.split(/\nExamples:\n/)[1] ?? '';
      const lines = examples.split('\n').filter((l) => /^\s+(\$ )?(socialpub|npm|printf|echo|ID=|[A-Z_]+=)/.test(l));
      expect(lines.length, r.stdout).toBeGreaterThanOrEqual(2);
      expect(lines.length, r.stdout).toBeLessThanOrEqual(4);
      expect(r.stdout).toMatchSnapshot();
    });
  }

  it('has topics for the environment and exit codes', async () => {
    const env = await runCli(['help', 'environment']);
    expect(env.code).toBe(0);
    expect(env.stdout).toContain('SOCIALPUB_API_KEY');
    const codes = await runCli(['help', 'exit-codes']);
    expect(codes.stdout).toMatch(/130\s+interrupted/);
  });

  it('suggests the nearest command and flag', async () => {
    const cmd = await runCli(['post', 'list']);
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toContain('Did you mean posts?');
    const flag = await runCli(['posts', 'list', '--stauts', 'draft']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--status');
  });
});
