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
