// `posts schedule`, run: one post (a draft by id, or created and scheduled at once), or a whole
// file of posts (--from-file).
import type { Context } from '../../context.js';
import { UsageError } from '../../cli-error.js';
import { compose } from './compose.js';
import { reportInvalidDryRun } from './dry-run.js';
import { send } from './send.js';
import { attachChosen, chooseAccounts } from './accounts.js';
import { runBulk } from './bulk/run.js';
import type { ScheduleFlags } from './schedule.js';

export async function runSchedule(ctx: Context, draftId: string | undefined, opts: ScheduleFlags): Promise<number> {
  if (opts.fromFile !== undefined) {
    if (draftId !== undefined) throw new UsageError('--from-file cannot be combined with a draft id', ['each row of the file says what to schedule']);
    return runBulk(ctx, opts);
  }
  if (opts.resume !== undefined || opts.skipInvalid || opts.allowMediaOutside) {
    const flag = opts.skipInvalid ? '--skip-invalid' : opts.allowMediaOutside ? '--allow-media-outside' : opts.resume ? '--resume' : '--no-resume';
    throw new UsageError(`${flag} only applies with --from-file`);
  }
  const chosen = await chooseAccounts(ctx, opts, draftId);
  const composed = await reportInvalidDryRun(ctx, opts.dryRun, async () => {
    const c = await compose(ctx, chosen?.opts ?? opts, 'schedule', draftId);
    if (chosen) attachChosen(c, chosen.accounts);
    return c;
  });
  return send(ctx, composed, 'schedule', chosen?.opts ?? opts);
}
