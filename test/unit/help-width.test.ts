// --help at the width of the terminal: at 60 columns option descriptions wrap (between words),
// and repeatable options do not print "(default: [])".
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { captureStream, runCli } from '../helpers/run-cli.js';
import { displayWidth } from '../../src/output/width.js';
import { buildProgram } from '../../src/cli/program.js';
import { createContext, systemClock } from '../../src/cli/create-context.js';
import { referenceOf } from '../../src/cli/commands/help/reference.js';

describe('help on a narrow terminal', () => {
  it.each([['posts', 'schedule'], ['results', 'list'], ['results', 'stats'], ['posts', 'list']])('%s %s --help fits 60 columns, no "(default: [])"', async (...path) => {
    const r = await runCli([...path, '--help'], { tty: true, columns: 60 });
    expect(r.code).toBe(0);
    const options = r.stdout.slice(r.stdout.indexOf('Options:'), r.stdout.search(/\n\n(Examples|Bulk)/) >= 0 ? r.stdout.search(/\n\n(Examples|Bulk)/) : undefined);
    const lines = options.split('\n');
    expect(lines.length).toBeGreaterThan(4);
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
    expect(r.stdout).not.toContain('(default: [])');
  });
});

describe('options on a 40-column terminal', () => {
  it.each(['posts edit', 'posts schedule', 'posts'])('%s --help: a description goes under its flag, indented, never back at the margin', async (command) => {
    const r = await runCli([...command.split(' '), '--help'], { tty: true, columns: 40 });
    expect(r.code).toBe(0);
    const start = r.stdout.indexOf('Options:\n');
    const lines = r.stdout.slice(start + 'Options:\n'.length, r.stdout.indexOf('\n\n', start)).split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) {
      expect(displayWidth(line), line).toBeLessThanOrEqual(40);
      // A flag at two columns in, or its description six columns in.
      expect(line, line).toMatch(/^ {2}-|^ {6}\S/);
    }
    expect(r.stdout).toContain('  -h, --help\n      display help for command\n');
  });
});

describe('a usage line on a narrow terminal', () => {
  /** The usage line and the lines continuing it, as one synopsis. */
  const usageOf = (out: string) => out.slice(0, out.indexOf('\n\n')).split('\n');

  it.each([
    [['auth', 'login'], 60],
    [['api'], 60],
    [['api'], 70],
    [['api'], 50],
    [['auth', 'login'], 40],
    [['api'], 40],
  ])('%s at %i columns breaks only between groups, each whole on one line', async (path, columns) => {
    const r = await runCli([...path, '--help'], { tty: true, columns });
    const lines = usageOf(r.stdout);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) {
      expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
      // Every bracket opened on a line closes on it.
      const depth = [...line].reduce((d, ch) => d + (ch === '[' || ch === '<' ? 1 : ch === ']' || ch === '>' ? -1 : 0), 0);
      expect({ line, depth }).toEqual({ line, depth: 0 });
    }
    const groups = lines.join(' ').replace(/^Usage: socialpub (?:\S+ )?\s*/, '');
    expect(groups).toContain(path[0] === 'api' ? '[--input FILE]' : '[--profile NAME]');
  });
});

describe('the sections after the options on a narrow terminal', () => {
  /** An example to copy (a command, a JSON body): kept whole, whatever the width. */
  const COMMAND = /^\s+(?:\$ |socialpub |printf |[A-Z_]+=\S* socialpub |\S+$)/;

  it.each([[], ['posts', 'schedule'], ['sandbox'], ['mcp']])('%s --help at 60 columns: every line fits but the commands to copy', async (...path) => {
    const r = await runCli([...path, '--help'], { tty: true, columns: 60 });
    expect(r.code).toBe(0);
    const after = r.stdout.slice(r.stdout.search(/\n\n(Examples|Help topics):/));
    const lines = after.split('\n');
    expect(lines.length).toBeGreaterThan(4);
    lines.forEach((line, i) => {
      // A line continuing a command after a backslash is part of the command: whole too.
      if (!COMMAND.test(line) && !lines[i - 1]?.endsWith(' \\')) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
    });
  });

  it('a command continued after a backslash stays whole, continuation included', async () => {
    const r = await runCli(['posts', 'schedule', '--help'], { tty: true, columns: 60 });
    expect(r.stdout).toContain('socialpub posts schedule --platform twitter-x \\\n    --text "v$TAG is out" --at "$RELEASE_AT" \\\n    --idempotency-key "release-$TAG" --json');
  });

  it('root help: "Start here" keeps its two columns apart, and wraps its prose under the second', async () => {
    const r = await runCli(['--help'], { tty: true, columns: 60 });
    expect(r.stdout).toContain('  socialpub sandbox --write-profile  run the sandbox and\n');
    const piped = await runCli(['--help']);
    expect(piped.stdout).toContain('  socialpub sandbox --write-profile  run the sandbox and point a profile at it\n');
  });

  it.each([['environment', 60], ['exit-codes', 60], ['environment', 80], ['exit-codes', 80], ['environment', 100], ['exit-codes', 100], ['mcp', 60], ['mcp', 80]])('help %s on a %i-column terminal fits it', async (topic, columns) => {
    const r = await runCli(['help', topic], { tty: true, columns, env: { SOCIALPUB_PAGER: 'cat' } });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
  });

  it.each([['environment'], ['exit-codes']])('help %s on a terminal goes on under the value column; piped, one line per row for grep', async (topic) => {
    const r = await runCli(['help', topic], { tty: true, columns: 80, env: { SOCIALPUB_PAGER: 'cat' } });
    const continued = r.stdout.split('\n').filter((l) => /^ {6,}\S/.test(l));
    expect(continued.length).toBeGreaterThan(0);
    expect(new Set(continued.map((l) => /^ */.exec(l)![0].length)).size).toBe(1);
    const piped = await runCli(['help', topic]);
    expect(piped.stdout.split('\n').filter((l) => /^ {6,}\S/.test(l))).toEqual([]);
    expect(piped.stdout).toMatch(/^.{81,}$/m);
    // Its prose is broken at 80 as written, so a terminal does not leave a ragged line after a wrap.
    expect(piped.stdout.split('\n').filter((l) => !/^ {2}\S/.test(l) && displayWidth(l) > 80)).toEqual([]);
  });

  it.each([[60], [80], [120]])('help reference on a %i-column terminal: every line fits but the commands to copy; piped, the text as generated', async (columns) => {
    const r = await runCli(['help', 'reference'], { tty: true, columns, env: { SOCIALPUB_PAGER: 'cat' } });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.length).toBeGreaterThan(500);
    lines.forEach((line, i) => {
      if (!COMMAND.test(line) && !lines[i - 1]?.endsWith(' \\')) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
    });
    // The root's title wraps, its underline as wide as the terminal at most.
    expect(r.stdout).toContain(`\n${'='.repeat(columns)}\n`);
    const piped = await runCli(['help', 'reference']);
    expect(piped.stdout).toMatch(/^socialpub — .{100,}$/m);
  });

  it('an NDJSON body in the bulk help stays one line to copy', async () => {
    const r = await runCli(['posts', 'schedule', '--help'], { tty: true, columns: 60 });
    expect(r.stdout).toContain('\n    {"payloads":{"bluesky":{"text":"Hi"}},"scheduledAt":"2026-12-01T09:00Z"}\n');
  });
});

describe('the examples of every command', () => {
  // At 80 columns and wider the sections after the options are printed as written (the binary
  // prints them pre-rendered), and a command to copy is never wrapped: each line must fit 80.
  it('fit 80 columns, line by line, in every section after the options', async () => {
    const ctx = createContext({ io: { stdout: captureStream(), stderr: captureStream(), stdin: Readable.from([]) }, env: {}, clock: systemClock, signal: new AbortController().signal, version: '9.9.9' });
    const entries = referenceOf(await buildProgram(ctx));
    expect(entries.length).toBeGreaterThan(30);
    const examples = entries.flatMap((e) => (e.after.split(/^Examples:\n/m)[1] ?? '').split('\n\n')[0]!.split('\n').filter((l) => l.trim()));
    expect(examples.length).toBeGreaterThan(80);
    const wide = entries.flatMap((e) => e.after.split('\n').filter((l) => displayWidth(l) > 80).map((l) => `socialpub ${e.path.join(' ')}: ${l}`));
    expect(wide).toEqual([]);
  });

  it("every command's whole help, usage line included, fits 80 columns piped; a long usage goes on under its first argument", async () => {
    const ctx = createContext({ io: { stdout: captureStream(), stderr: captureStream(), stdin: Readable.from([]) }, env: {}, clock: systemClock, signal: new AbortController().signal, version: '9.9.9' });
    const entries = referenceOf(await buildProgram(ctx));
    const wide: string[] = [];
    for (const e of entries) {
      const r = await runCli([...e.path, '--help']);
      for (const l of r.stdout.split('\n')) if (displayWidth(l) > 80) wide.push(`socialpub ${e.path.join(' ')}: ${l}`);
    }
    expect(wide).toEqual([]);
    const api = await runCli(['api', '--help']);
    expect(api.stdout).toMatch(/^Usage: socialpub api \[-X METHOD\] .*\n {21}\[--paginate\]/);
  });
});

describe('help printed on stderr (a noun without its verb) on a narrow terminal', () => {
  it.each([[[]], [['auth']], [['profile']], [['posts']]])('socialpub %j at 60 columns: every line fits but the commands to copy', async (argv) => {
    const r = await runCli(argv, { tty: true, columns: 60 });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n');
    expect(lines.length).toBeGreaterThan(8);
    for (const line of lines) if (!/^\s+(socialpub|printf) /.test(line)) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
  });
});
