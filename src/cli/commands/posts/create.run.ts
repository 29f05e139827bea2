// `posts create`, run: compose the draft (flags, file or prompts), then send it.
import type { Context } from '../../context.js';
import { compose } from './compose.js';
import type { CreateFlags } from './create.js';
import { reportInvalidDryRun } from './dry-run.js';
import { send } from './send.js';

export async function runCreate(ctx: Context, opts: CreateFlags): Promise<number> {
  const composed = await reportInvalidDryRun(ctx, opts.dryRun, () => compose(ctx, opts, 'create'));
  return send(ctx, composed, 'create', opts);
}
