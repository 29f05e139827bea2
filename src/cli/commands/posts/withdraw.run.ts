// `posts unschedule <id>...` (PATCH scheduledAt: null, back to a draft) and `posts delete <id>...`
// (DELETE): each post is read first, so that a post that already went out is refused with what to
// do instead, and the confirmation of a delete names what goes. A post that goes out between the
// read and the write is refused by the service (409) and reported as such: nothing changed.
import type { Context } from '../../context.js';
import { EXIT, UsageError } from '../../cli-error.js';
import { ApiError } from '../../../client/errors.js';
import { PostNotFoundError, checkPostId, findPost } from '../../../posts/find.js';
import { InvalidInputError } from '../../../wire/invalid-input.js';
import type { ApiClient } from '../../../client/types.js';
import { headline } from '../../../posts/outcome.js';
import { notEditable } from '../../../posts/edit.js';
import { keyHeader } from '../../../posts/planned-request.js';
import { postStatusText } from '../../../posts/outcome.js';
import { userZone } from '../../../posts/zone.js';
import { PATHS } from '../../../wire/protocol.js';
import type { Post } from '../../../wire/schemas.js';
import { formatLocal } from '../../../output/time.js';
import { DRY_RUN_FIELDS, printDryRun } from './dry-run.js';
import { checkTopFields, checkViewFields } from '../../../output/fields.js';
import { checkIdempotencyKey } from './send.js';
import { oneLine } from '../../../output/wrap.js';
import { displayWidth } from '../../../output/width.js';
import { visible } from '../../../output/terminal-safe.js';
import { postView } from './list-columns.js';
import type { TableView } from '../../../output/output.js';

import type { WithdrawFlags } from './manage.js';
import { idempotencyCheck, refuseUnsupported } from '../../dialect-refusals.js';
import { shellWord } from '../../shell-word.js';

/** What to do instead, for posts that went out. */
export const INSTEAD = (id: string) => ({ retry: `\`socialpub results retry ${id}\``, create: 'create a new post (`socialpub posts create`)' });

/** 409 POST_NOT_EDITABLE: the post went out between our read and our write. */
export function wentOutMeanwhile(err: unknown, id: string, doing: string): Error | undefined {
  if (!(err instanceof ApiError) || err.kind !== 'not-editable') return undefined;
  return new UsageError(`post ${id} was published while you ${doing} it; nothing was changed`, [`see what happened: socialpub posts view ${id}`]);
}

interface Deleted {
  id: string;
  deleted: true;
  was: string;
}

const deletedView: TableView<Deleted> = {
  kind: 'table',
  id: (r) => r.id,
  fields: ['id', 'deleted', 'was'],
  columns: [
    { header: 'id', value: (r) => r.id, priority: 0, shrink: 'never' },
    { header: 'result', value: () => 'deleted', priority: 1 },
    { header: 'was', value: (r) => r.was, priority: 2 },
  ],
};

export async function runWithdraw(ctx: Context, verb: 'unschedule' | 'delete', rawIds: string[], opts: WithdrawFlags): Promise<number> {
  const ids = [...new Set(rawIds.map((id) => checkPostId(id, '<id>')))];
  const key = checkIdempotencyKey(opts.idempotencyKey);
  await refuseUnsupported(ctx, [idempotencyCheck(opts.idempotencyKey)]);
  if (key && ids.length > 1) throw new UsageError('--idempotency-key takes one post; it was given several', ['run the command once per post, each with its own key']);
  // Before the first read: a misspelt name found only when the rows are printed would be exit 2
  // for posts that were deleted or unscheduled all the same.
  if (opts.dryRun) checkTopFields(ctx.globals.fields, DRY_RUN_FIELDS);
  else checkViewFields(ctx.globals.fields, verb === 'delete' ? deletedView : postView(0, 'UTC'));
  if (verb === 'delete' && !opts.yes && !opts.dryRun && !ctx.globals.interactive) {
    throw new UsageError('posts delete: --yes is required without a terminal (deleting cannot be undone)', [`socialpub posts delete ${ids.join(' ')} --yes`]);
  }
  const client = await ctx.client();
  // The command for the others keeps the flags that let it run as this one did (--yes without a terminal).
  const posts = await readAll(client, ids, verb, [...(opts.yes ? ['--yes'] : []), ...(opts.dryRun ? ['--dry-run'] : [])]);
  const out = ctx.output();
  const zone = userZone(ctx.env, undefined);
  const todo = verb === 'unschedule' ? posts.filter((p) => p.status === 'scheduled') : posts;
  for (const p of posts) if (!todo.includes(p)) out.notice(`${p.id} is already a draft: nothing to do`);
  if (opts.dryRun) {
    await printDryRun(ctx, {
      valid: true,
      issues: [],
      requests: todo.map((p) => ({
        method: verb === 'delete' ? 'DELETE' : 'PATCH',
        path: `${PATHS.posts}/${p.id}`,
        headers: keyHeader(key),
        ...(verb === 'unschedule' ? { body: { scheduledAt: null } } : {}),
      })),
    });
    return EXIT.ok;
  }
  if (verb === 'delete' && !opts.yes && todo.length) {
    const width = Math.max(40, (ctx.io.stderr.columns || 80) - 4);
    for (const p of todo) {
      const when = p.scheduledAt && p.status === 'scheduled' ? `scheduled ${formatLocal(p.scheduledAt, zone)}` : postStatusText(p);
      // Written straight to the terminal: the service's text with its control characters shown.
      // Short of room, the text goes on a line of its own: what is deleted must be recognisable.
      const line = oneLine(visible(`${p.id} · ${when} · ${headline(p)}`), Infinity);
      if (displayWidth(line) <= width) ctx.io.stderr.write(`  ${line}\n`);
      else ctx.io.stderr.write(`  ${oneLine(`${p.id} · ${when}`, width)}\n    ${oneLine(visible(headline(p)), width - 2)}\n`);
    }
    const ok = await ctx.prompter().confirm({ message: `Delete ${todo.length === 1 ? 'this post' : `these ${todo.length} posts`}? This cannot be undone`, default: false });
    if (!ok) {
      out.notice('cancelled: nothing was deleted');
      return EXIT.ok;
    }
  }
  const write = key !== undefined ? { idempotencyKey: key } : {};
  if (verb === 'delete') {
    const rows: Deleted[] = [];
    for (const p of todo) {
      await guarded(p.id, 'deleted', () => client.posts.delete(p.id, write));
      rows.push({ id: p.id, deleted: true, was: p.status });
    }
    await out.list(rows, deletedView);
    return EXIT.ok;
  }
  const changed: Post[] = [];
  for (const p of todo) {
    changed.push((await guarded(p.id, 'unscheduled', () => client.posts.update(p.id, { scheduledAt: null }, write))).data);
    // The draft has no time: the one it had is said, so that it can be scheduled back.
    if (p.scheduledAt) {
      // The time to put it back, short enough to stay whole on a narrow terminal ("…T08:00Z").
      const at = p.scheduledAt.replace(/:00\.000Z$/, 'Z');
      out.notice(`${p.id} was scheduled for ${formatLocal(p.scheduledAt, zone)} (${p.scheduledAt})`);
      out.notice(`to put it back: socialpub posts schedule ${shellWord(p.id)} --at ${at}`);
    }
  }
  await out.list(changed, postView(ctx.clock.now(), zone));
  return EXIT.ok;
}

/**
 * Every post, read before anything is written. Posts that went out or do not exist are named all
 * at once, with the command for the others (one at a time, a manager fixing a list of ten would
 * run it ten times); nothing is changed. A single post keeps its own error (an unknown id: exit 4).
 */
async function readAll(client: ApiClient, ids: readonly string[], verb: string, flags: readonly string[]): Promise<Post[]> {
  const posts: Post[] = [];
  const refusals: Array<InvalidInputError | PostNotFoundError> = [];
  for (const id of ids) {
    try {
      const post = await findPost(client, id);
      const refused = notEditable(post, '<id>', INSTEAD(id));
      if (refused) refusals.push(refused);
      else posts.push(post);
    } catch (err) {
      if (!(err instanceof PostNotFoundError)) throw err;
      refusals.push(err);
    }
  }
  if (refusals.length === 0) return posts;
  if (ids.length === 1) throw refusals[0]!;
  const issues = refusals.flatMap((r) => (r instanceof InvalidInputError ? r.issues : [{ field: '<id>', message: r.message }]));
  const others = posts.length ? [`${verb} the others: socialpub posts ${verb} ${[...posts.map((p) => p.id), ...flags].join(' ')}`] : [];
  throw new InvalidInputError(issues, { headline: `${issues.length} of the ${ids.length} posts cannot be ${verb}d`, hints: others });
}

async function guarded<T>(id: string, doing: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    throw wentOutMeanwhile(err, id, doing) ?? err;
  }
}
