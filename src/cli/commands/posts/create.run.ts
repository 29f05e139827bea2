// `posts create`, run: compose the draft (flags, file or prompts), then send it.
import type { Context } from '../../context.js';
import { compose, withAccounts } from './compose.js';
import type { CreateFlags } from './create.js';
import { reportInvalidDryRun } from './dry-run.js';
import { send } from './send.js';
import { chooseAccounts } from './accounts.js';
import { postWriteChecks, refuseUnsupported } from '../../dialect-refusals.js';

export async function runCreate(ctx: Context, opts: CreateFlags): Promise<number> {
  await refuseUnsupported(ctx, postWriteChecks(opts));
  const chosen = await chooseAccounts(ctx, opts);
  const composed = await reportInvalidDryRun(ctx, opts.dryRun, async () => {
    return withAccounts(await compose(ctx, chosen?.opts ?? opts, 'create'), chosen?.accounts);
  });
  return send(ctx, composed, 'create', chosen?.opts ?? opts);
}
