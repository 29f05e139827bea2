// Parses the command line, runs the action, and turns every outcome into an exit code.
import { CommanderError, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { buildProgram, joinArgPairs, otherNameError } from './program.js';
import { createContext, type ContextDeps } from './create-context.js';
import { exitCodeSlot } from './action.js';
import { EXIT } from './cli-error.js';
import { CommandLineRefusal } from './commander-refusal.js';
import { commandPath, unknownCommandBeforeHelp } from './help-unknown-command.js';

// Flag resolution and error reporting load only when an action runs or something failed:
// `--help` needs neither, and every module off its path is start-up time saved.

export async function runProgram(argv: string[], deps: ContextDeps): Promise<number> {
  const ctx = createContext(deps);
  const program = await buildProgram(ctx, argv);
  /** The global flags as `cmd` and its parents read them. */
  const globalsOf = async (cmd: CommandUnknownOpts) => (await import('./globals.js')).resolveGlobals(cmd.optsWithGlobals(), deps.io, deps.env);
  program.hook('preAction', async (_this, actionCommand) => {
    const { refuseShapingOfNothing } = await import('./globals.js');
    ctx.globals = await globalsOf(actionCommand);
    refuseShapingOfNothing(commandPath(actionCommand), ctx.globals);
    await ctx.prepare();
    await ctx.startHeartbeat(commandPath(actionCommand));
  });
  try {
    const renamed = otherNameError(argv);
    if (renamed) throw renamed;
    const words = joinArgPairs(argv);
    const unknown = unknownCommandBeforeHelp(program, words);
    if (unknown) throw unknown;
    await program.parseAsync(words, { from: 'user' });
    return exitCodeSlot.get(ctx) ?? EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.ok;
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const { reportError, hintsNeedBaseUrl } = await import('./errors.js');
    // Commander refused before any action: the flags it read by then say how to print that (--json).
    // When one of them is bad too, the refusal is still the error reported, in the default format.
    if (err instanceof CommandLineRefusal) ctx.globals = await globalsOf(err.command).catch(() => ctx.globals);
    await ctx.prepare({ forError: true });
    const baseUrl = hintsNeedBaseUrl(err) ? await ctx.profile().then((p) => p.baseUrl, () => undefined) : undefined;
    return reportError(err, {
      ...(baseUrl !== undefined ? { baseUrl } : {}),
      ...(deps.io.stderr.isTTY && deps.io.stderr.columns ? { width: deps.io.stderr.columns } : {}),
      stderr: deps.io.stderr,
      json: ctx.output().structured,
      now: deps.clock.now(),
      profile: ctx.globals.profile,
      red: ctx.output().colors.red,
      githubActions: deps.env.GITHUB_ACTIONS === 'true',
    });
  } finally {
    await ctx.runExitHooks();
  }
}
