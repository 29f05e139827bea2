// `posts create`, run: compose the draft (flags, file or prompts), then send it.
import type { Context } from '../../context.js';
import { compose, type PayloadOptions } from './compose.js';
import { reportInvalidDryRun } from './dry-run.js';
import { send } from './send.js';

export async function runCreate(ctx: Context, opts: PayloadOptions): Promise<number> {
  const composed = await reportInvalidDryRun(ctx, opts.dryRun, () => compose(ctx, opts, 'create'));
  return send(ctx, composed, 'create', opts);
}
