// Wraps a verb's run function as a commander action: the number it returns is the exit code.
import type { Context } from './context.js';

export type ActionResult = number | void;

export const exitCodeSlot = new WeakMap<Context, number>();

export function action<A extends unknown[]>(ctx: Context, run: (...args: A) => Promise<ActionResult>) {
  return async (...args: A) => {
    const code = await run(...args);
    exitCodeSlot.set(ctx, typeof code === 'number' ? code : 0);
  };
}

/**
 * The flags of the command a definition's builder returns, as commander parses them (inferred
 * from its .option() calls by @commander-js/extra-typings), so a run module's flags type cannot
 * drift from the options defined.
 */
export type FlagsOf<Build extends (...args: never[]) => { opts(): unknown }> = ReturnType<ReturnType<Build>['opts']>;
