// A run defines in full only the nouns and verbs its command line names; help and a line that
// names none get the whole tree. The stubs keep the tree's names and order, so help, completion
// and "did you mean" never see a different program.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { buildProgram } from '../../src/cli/program.js';
import { createContext, systemClock } from '../../src/cli/create-context.js';
import { captureStream, runCli } from '../helpers/run-cli.js';

function program(argv?: string[]): Promise<CommandUnknownOpts> {
  const ctx = createContext({ io: { stdout: captureStream(), stderr: captureStream(), stdin: Readable.from([]) }, env: {}, clock: systemClock, signal: new AbortController().signal, version: '0.0.0' });
  return buildProgram(ctx, argv);
}

const noun = (p: CommandUnknownOpts, name: string) => p.commands.find((c) => c.name() === name)!;
/** Verb name → how many options it was defined with. */
const verbs = (p: CommandUnknownOpts, name: string) => noun(p, name).commands.map((c) => [c.name(), c.options.length] as const);

describe('the tree a run defines', () => {
  it.each(['posts', 'results'])('%s: a named verb in full, the others by name only, in the same order', async (name) => {
    const whole = verbs(await program(), name);
    expect(whole.length).toBeGreaterThanOrEqual(5);
    for (const [verb, options] of whole) {
      expect(options, `${name} ${verb} takes options`).toBeGreaterThan(0);
      const named = verbs(await program([name, verb, 'x']), name);
      expect(named.map(([v]) => v)).toEqual(whole.map(([v]) => v));
      expect(named.filter(([, n]) => n > 0)).toEqual([[verb, options]]);
    }
  });

  it('everything in full for help, for a line that names no verb, and for completion', async () => {
    const whole = verbs(await program(), 'posts');
    for (const argv of [['posts', 'view', '--help'], ['posts'], ['posts', 'veiw', 'x'], ['help', 'posts', 'view'], ['completion', 'bash', 'posts', 'view']]) {
      expect(verbs(await program(argv), 'posts'), argv.join(' ')).toEqual(whole);
    }
  });

  it('a mistyped verb still gets "did you mean"', async () => {
    const r = await runCli(['posts', 'veiw', 'post_1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('view');
  });
});
