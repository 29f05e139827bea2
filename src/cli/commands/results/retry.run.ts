// `results retry`, run: find the post and its results, plan the retry (domain), then create or
// schedule the new post under the derived key, and say which targets it carries and why.
import type { Context } from '../../context.js';
import { addHints, EXIT } from '../../cli-error.js';
import { IdempotencyKeyReusedError } from '../../../client/errors.js';
import { platforms as parsePlatforms } from '../../flags/choice.js';
import { PATHS } from '../../../wire/protocol.js';
import type { CreatePostBody, ScheduleBody } from '../../../wire/schemas.js';
import { parseAt, type ResolvedAt } from '../../../posts/when.js';
import { userZone } from '../../../posts/zone.js';
import { findPost } from '../../../posts/find.js';
import { NothingToRetryError, planRetry, reasonLine } from '../../../results/retry-plan.js';
import { unhealthyAccounts } from '../../../accounts/health.js';
import { reconnectHint } from '../../../accounts/label.js';
import type { SocialAccount } from '../../../wire/account-schemas.js';
import { checkPostId, resultsOf } from '../../../posts/find.js';
import { printDryRun } from '../posts/dry-run.js';
import { checkPostFields, printPost } from '../posts/render.js';
import { checkIdempotencyKey } from '../posts/send.js';
import type { RetryFlags } from './retry.js';
import { idempotencyCheck, refuseUnsupported } from '../../dialect-refusals.js';
import { visibleLine } from '../../../output/terminal-safe.js';
import { shellWord } from '../../shell-word.js';

export async function runRetry(ctx: Context, rawPostId: string, flags: RetryFlags): Promise<number> {
  const postId = checkPostId(rawPostId, '<post-id>', 'socialpub posts list --status failed');
  const platforms = parsePlatforms('--platform', flags.platform);
  const ownKey = checkIdempotencyKey(flags.idempotencyKey);
  await refuseUnsupported(ctx, [idempotencyCheck(flags.idempotencyKey)]);
  checkPostFields(ctx.globals.fields, flags.dryRun);
  const zone = userZone(ctx.env, flags.tz);
  // The key is always set (derived or given), so an absolute --at that has passed since a first
  // run is still sent: the service replays that run's post, or refuses (exit 2).
  const at: ResolvedAt | undefined = flags.at === undefined ? undefined : parseAt(flags.at, { now: ctx.clock.now(), zone, field: '--at' });

  const client = await ctx.client();
  const out = ctx.output();
  const post = await findPost(client, postId, { statusHint: 'failed' });
  const results = await resultsOf(client, postId);
  // Targets on an expired or disconnected account fail the same way until it is reconnected: left out, unless asked.
  const unhealthy = flags.includeUnhealthy ? new Map<string, SocialAccount>() : await unhealthyAccounts(client, results);
  let plan;
  try {
    plan = planRetry(post, results, { platforms, unhealthy: new Set(unhealthy.keys()) });
  } catch (err) {
    if (err instanceof NothingToRetryError && unhealthy.size) addHints(err, unhealthyHints(unhealthy, postId));
    throw err;
  }
  const key = ownKey ?? plan.idempotencyKey;
  const body: CreatePostBody | ScheduleBody = at ? { ...plan.body, scheduledAt: at.iso } : plan.body;

  out.notice(`retrying ${plan.targets.length} failed ${plan.targets.length === 1 ? 'target' : 'targets'} of ${postId}:`);
  // The service's words, one line each: none of their lines may start a line of ours.
  for (const reason of plan.reasons) out.notice(`  ${visibleLine(reason)}`);
  if (plan.skipped.length) {
    out.warn(`left out ${plan.skipped.length} ${plan.skipped.length === 1 ? 'target' : 'targets'} whose account is expired or disconnected (--include-unhealthy sends ${plan.skipped.length === 1 ? 'it' : 'them'} anyway):`);
    for (const t of plan.skipped) out.warn(`  ${visibleLine(reasonLine(t))}`);
    for (const hint of unhealthyHints(new Map(plan.skipped.map((t) => [t.accountId!, unhealthy.get(t.accountId!)!])), postId)) out.info(visibleLine(hint));
  }
  if (flags.dryRun) {
    const path = at ? PATHS.schedule : PATHS.posts;
    await printDryRun(ctx, { valid: true, issues: [], requests: [{ method: 'POST', path, headers: { 'Idempotency-Key': key }, body }] });
    return EXIT.ok;
  }
  // The derived key is what makes a second retry of the same targets replay the first: SyncPostly
  // takes no key, so there a second run makes a second post. Said before it is sent.
  if (client.dialect === 'syncpostly') out.notice(`SyncPostly's API takes no idempotency key: running this retry again sends these targets again as another post (socialpub posts list shows the one made now)`);
  const send = at ? client.posts.schedule(body as ScheduleBody, { idempotencyKey: key }) : client.posts.create(body, { idempotencyKey: key });
  const res = await send.catch((err: unknown) => {
    // The derived key was used with another body: an earlier retry of these targets, at another time.
    if (!ownKey && err instanceof IdempotencyKeyReusedError) {
      addHints(err, [
        `these targets of ${postId} were already retried with another --at (or without one): that post stands; \`socialpub posts schedule <its id> --at TIME\` moves it, or --idempotency-key sends the targets once more as another post`,
      ]);
    }
    throw err;
  });
  await printPost(ctx, res.data, { zone, replayed: res.replayed, idempotencyKey: res.idempotencyKey });
  const refused = [...new Set(plan.targets.filter((t) => t.fix).map((t) => t.platform))];
  const id = res.data.id;
  // Without --at the retry is a draft: "retrying" above must not read as sent.
  // The command on a line of its own, so that a narrow terminal does not break it.
  if (!at && !refused.length && res.data.status === 'draft') {
    out.info(`${id} is a draft: nothing is sent until it is scheduled (or retry with --at):`);
    out.info(`  socialpub posts schedule ${shellWord(id)} --at TIME`);
  }
  if (refused.length) {
    out.warn(
      `${refused.join(', ')} failed for ${refused.length === 1 ? 'its' : 'their'} content and will most likely fail again unchanged: ` +
        (at ? `correct the new post with \`socialpub posts edit ${shellWord(id)}\` before ${at.iso}` : `correct the new draft with \`socialpub posts edit ${shellWord(id)}\`, then \`socialpub posts schedule ${shellWord(id)} --at TIME\``),
    );
  }
  return EXIT.ok;
}

/** What to do about each expired or disconnected account, then the retry to run once it is reconnected. */
function unhealthyHints(accounts: ReadonlyMap<string, SocialAccount>, postId: string): string[] {
  return [...[...accounts.values()].map((a) => reconnectHint(a)), `then: socialpub results retry ${shellWord(postId)}`];
}
