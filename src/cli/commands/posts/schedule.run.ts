// `posts schedule`, run: one post (a draft by id, or created and scheduled at once), or a whole
// file of posts (--from-file). Moving a post that is already scheduled says from when to when and
// which way (a relative --at counts from now, not from the post's time), and on a terminal a
// move earlier than planned is confirmed.
import type { Context } from '../../context.js';
import { EXIT, UsageError } from '../../cli-error.js';
import { compose, withAccounts } from './compose.js';
import { reportInvalidDryRun } from './dry-run.js';
import { send } from './send.js';
import { chooseAccounts } from './accounts.js';
import { runBulk } from './bulk/run.js';
import type { ScheduleFlags } from './schedule.js';
import { postWriteChecks, refuseUnsupported } from '../../dialect-refusals.js';
import { checkPostId, findPost } from '../../../posts/find.js';
import { moveLine, moveOf, parseShift, shiftedTime } from '../../../posts/move.js';
import { requireFuture } from '../../../posts/when.js';
import { formatLocal } from '../../../output/time.js';
import type { Post } from '../../../wire/schemas.js';

export async function runSchedule(ctx: Context, draftId: string | undefined, opts: ScheduleFlags): Promise<number> {
  await refuseUnsupported(ctx, postWriteChecks(opts));
  if (opts.fromFile !== undefined) {
    if (draftId !== undefined) throw new UsageError('--from-file cannot be combined with a draft id', ['each row of the file says what to schedule']);
    if (opts.shift !== undefined) throw new UsageError('--shift cannot be combined with --from-file', ['each row of the file says when: move one post with socialpub posts schedule <id> --shift +2h']);
    return runBulk(ctx, opts);
  }
  if (opts.resume !== undefined || opts.skipInvalid || opts.allowMediaOutside) {
    const flag = opts.skipInvalid ? '--skip-invalid' : opts.allowMediaOutside ? '--allow-media-outside' : opts.resume ? '--resume' : '--no-resume';
    throw new UsageError(`${flag} only applies with --from-file`);
  }
  let before: Post | undefined;
  if (opts.shift !== undefined) {
    if (opts.at !== undefined) throw new UsageError('--shift cannot be combined with --at', ['--at sets the time (+2h counts from now), --shift moves the post from its own time: give one of them']);
    if (draftId === undefined) throw new UsageError('--shift needs the id of a scheduled post', ['socialpub posts schedule <post-id> --shift +2h']);
    const shift = parseShift(opts.shift);
    before = await findPost(await ctx.client(), checkPostId(draftId, '<draft-id>'));
    const to = shiftedTime(before, shift);
    requireFuture({ epochMs: to, iso: new Date(to).toISOString(), kind: 'rfc3339' }, ctx.clock.now(), '--shift', opts.shift);
    opts = { ...opts, at: new Date(to).toISOString(), shift: undefined };
  }
  const chosen = await chooseAccounts(ctx, opts, draftId);
  if (chosen) opts = chosen.opts;
  const flags = opts;
  const composed = await reportInvalidDryRun(ctx, flags.dryRun, async () => {
    return withAccounts(await compose(ctx, flags, 'schedule', draftId), chosen?.accounts);
  });
  // A move is shown before it is made; a dry run reads the post only when --shift needed it.
  if (composed.postId !== undefined && composed.draft === undefined && composed.at && (before || !opts.dryRun)) {
    before ??= await findPost(await ctx.client(), composed.postId);
    const move = moveOf(before, composed.at.epochMs);
    if (move) {
      ctx.output().notice(moveLine(before.id, move, (t) => formatLocal(t, composed.zone)));
      if (move.direction === 'earlier' && ctx.globals.interactive && !opts.yes && !opts.dryRun) {
        const ok = await ctx.prompter().confirm({ message: `Move ${before.id} earlier than planned?`, default: false });
        if (!ok) {
          ctx.output().notice('cancelled: the post keeps its time');
          return EXIT.ok;
        }
      }
    }
  }
  return send(ctx, composed, 'schedule', opts);
}
