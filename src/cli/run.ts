// Parses the command line, runs the action, and turns every outcome into an exit code.
import { CommanderError } from 'commander';
import { buildProgram } from './program.js';
import { createContext, type ContextDeps } from './create-context.js';
import { resolveGlobals, type RawGlobalOptions } from './globals.js';
import { exitCodeSlot } from './action.js';
import { reportError } from './errors.js';
import { EXIT } from './exit-codes.js';

export async function runProgram(argv: string[], deps: ContextDeps): Promise<number> {
  const ctx = createContext(deps);
  const program = buildProgram(ctx);
  program.hook('preAction', async (_this, actionCommand) => {
    ctx.globals = resolveGlobals(actionCommand.optsWithGlobals() as RawGlobalOptions, deps.io, deps.env);
    await ctx.prepare();
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCodeSlot.get(ctx) ?? EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.ok;
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    return reportError(err, {
      stderr: deps.io.stderr,
      json: ctx.globals.format === 'json' || ctx.globals.format === 'ndjson',
      now: deps.clock.now(),
      profile: ctx.globals.profile,
      red: ctx.output().colors.red,
    });
  } finally {
    await ctx.runExitHooks();
  }
}
