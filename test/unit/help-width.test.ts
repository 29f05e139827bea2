// --help at the width of the terminal: at 60 columns option descriptions wrap (between words),
// and repeatable options do not print "(default: [])".
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { displayWidth } from '../../src/output/width.js';

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

describe('the sections after the options on a narrow terminal', () => {
  /** An example to copy (a command, a JSON body): kept whole, whatever the width. */
  const COMMAND = /^\s+(?:\$ |socialpub |printf |[A-Z_]+=\S* socialpub |\S+$)/;

  it.each([[], ['posts', 'schedule'], ['sandbox'], ['mcp']])('%s --help at 60 columns: every line fits but the commands to copy', async (...path) => {
    const r = await runCli([...path, '--help'], { tty: true, columns: 60 });
    expect(r.code).toBe(0);
    const after = r.stdout.slice(r.stdout.search(/\n\n(Examples|Help topics):/));
    const lines = after.split('\n');
    expect(lines.length).toBeGreaterThan(4);
    for (const line of lines) if (!COMMAND.test(line)) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
  });

  it('root help: "Start here" keeps its two columns apart, and wraps its prose under the second', async () => {
    const r = await runCli(['--help'], { tty: true, columns: 60 });
    expect(r.stdout).toContain('  socialpub sandbox --write-profile  run the sandbox and\n');
    const piped = await runCli(['--help']);
    expect(piped.stdout).toContain('  socialpub demo                     a guided walk through every feature against a local sandbox\n');
  });

  it.each([['environment'], ['exit-codes']])('help %s on a 60-column terminal fits it', async (topic) => {
    const r = await runCli(['help', topic], { tty: true, columns: 60, env: { SOCIALPUB_PAGER: 'cat' } });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
    // Piped, it is the text as written (what the binary pre-renders).
    expect((await runCli(['help', topic])).stdout).toMatch(/^.{61,}$/m);
  });

  it('an NDJSON body in the bulk help stays one line to copy', async () => {
    const r = await runCli(['posts', 'schedule', '--help'], { tty: true, columns: 60 });
    expect(r.stdout).toContain('\n          {"payloads":{"twitter-x":{"text":"Hi"}},"scheduledAt":"2026-12-01T09:00:00Z","title":"…"}\n');
  });
});
