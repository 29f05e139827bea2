// The second-wave domain modules stay pure (the MCP server reuses them): no commander,
// no Context, no process, no terminal styling; time, zone and width come in as arguments.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const MODULES = ['results/since.ts', 'results/window-pages.ts', 'results/stats.ts', 'results/retry-plan.ts', 'results/wait.ts', 'results/wait-state.ts', 'posts/find.ts', 'posts/bulk/pacer.ts', 'posts/ics.ts', 'posts/calendar.ts', 'posts/local-day.ts'];

describe('second-wave domain modules', () => {
  it.each(MODULES)('%s is pure', (file) => {
    const text = readFileSync(new URL(`../../src/${file}`, import.meta.url), 'utf8');
    const code = text.replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
    expect(code).not.toMatch(/from ['"](commander|chalk|ora|@inquirer\/prompts|conf)['"]/);
    expect(code).not.toMatch(/cli\/(context|create-context|globals|action)\.js/);
    expect(code).not.toMatch(/\bprocess\./);
    expect(code).not.toMatch(/\bDate\.now\(|new Date\(\)/);
    expect(code).not.toMatch(/\bconsole\./);
  });
});
