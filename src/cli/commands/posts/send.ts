// Sends what compose() validated: uploads local media, then POST /v1/posts or /v1/schedule with
// the idempotency key; or, with --dry-run, prints those requests and sends nothing.
import type { Context } from '../../context.js';
import { ledgerFor } from '../../upload-ledger.js';
import { randomUUID } from 'node:crypto';
import { UsageError, EXIT, addHints } from '../../cli-error.js';
import { ApiError, RateLimitError } from '../../../client/errors.js';
import type { ApiClient } from '../../../client/types.js';
import type { Post } from '../../../wire/schemas.js';
import { planPublish, publish } from '../../../posts/publish.js';
import type { ComposeFlags, Composed } from './compose.js';
import { printDryRun } from './dry-run.js';
import { confirmSummary, LABEL } from './confirm-summary.js';
import { accountLines } from './accounts.js';
import { wrapText } from '../../../output/wrap.js';
import type { SocialAccount } from '../../../wire/account-schemas.js';
import { describeTime, printPost } from './render.js';
import { confirmSend } from './prompts.js';
import { revise } from './compose.js';
import { findPost } from '../../../posts/find.js';
import { InvalidInputError } from '../../../wire/invalid-input.js';
import { rememberPostIds } from '../../post-id-cache.js';
import { refuseUnsupported, TITLE_FIX } from '../../dialect-refusals.js';
import { withAccountChoice } from '../../account-choice.js';

/** Idempotency keys travel in a header: printable ASCII, not too long. */
export function checkIdempotencyKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new UsageError(`--idempotency-key: "${key}" is not a usable key`, ['use 1–255 printable ASCII characters without spaces, e.g. release-v1.4.2-announce']);
  }
  return key;
}

/** The terminal's width, where the confirmation is shown. */
const width = (ctx: Context) => ctx.io.stderr.columns || ctx.io.stdout.columns || 80;

/**
 * Failures after which the post may or may not exist: a re-run with the same key settles it. An
 * answer that could not be read (not JSON, the wrong shape, too large) may well be a 201. A 429
 * is the service turning the request away, unless an attempt before it went unanswered.
 */
const UNCERTAIN = new Set(['network', 'timeout', 'server', 'aborted', 'response-shape']);
const uncertain = (err: ApiError) => UNCERTAIN.has(err.kind) || (err instanceof RateLimitError && err.earlierUnsettled);

export async function send(ctx: Context, c: Composed, mode: 'create' | 'schedule', opts: ComposeFlags): Promise<number> {
  // A title from a --file body (the flag was refused before anything was read).
  const title = c.draft?.title;
  await refuseUnsupported(ctx, [{ given: title !== undefined && title !== null, lack: 'title', field: c.draft?.titleLabel ?? '--title', fix: TITLE_FIX }]);
  const key = checkIdempotencyKey(opts.idempotencyKey);
  if (key && c.at?.kind === 'relative') {
    // The body carries the computed instant, so a re-run would send another body under the same key.
    ctx.output().warn(`--at ${c.at.iso} was computed from a relative time: a re-run with --idempotency-key ${key} will compute another time and be refused (nothing is ever posted twice); give an absolute --at to make re-runs replay this one`);
  }
  if (opts.dryRun) {
    const planned = planPublish(c, mode, key);
    const notes = c.at ? [`scheduled for ${describeTime(c.at.iso, c.zone, ctx.clock.now())}`] : [];
    await printDryRun(ctx, { valid: true, issues: [], requests: planned, notes });
    return EXIT.ok;
  }
  if (c.prompted) {
    // The draft being scheduled is shown as it is, so the confirmation says what will go out.
    const existing = c.postId !== undefined && !c.draft ? await findPost(await ctx.client(), c.postId, { statusHint: 'draft' }) : undefined;
    const known: { accounts?: SocialAccount[] } = {};
    for (;;) {
      // Wrapped under the label like the summary's other values: the terminal's own wrap would start lines at column 0.
      const accounts = (await accountLines(ctx, c, known)).flatMap((l, i) => wrapText(l, width(ctx) - LABEL, { indent: '  ' }).map((w, j) => `  ${(i === 0 && j === 0 ? 'accounts' : '').padEnd(LABEL - 2)}${w}`));
      const decision = await confirmSend(ctx.prompter(), ctx.io.stderr, [confirmSummary(c, ctx.clock.now(), width(ctx), existing), ...accounts].join('\n'));
      // A choice, not a failure nor an interruption: exit 0, and nothing on stdout for a script to take as an id.
      if (decision === 'cancel') {
        ctx.output().notice('cancelled: nothing was sent');
        return EXIT.ok;
      }
      if (decision === 'send') break;
      try {
        c = await revise(ctx, c, opts, mode, known.accounts);
      } catch (err) {
        // A change the post cannot take (a text over a newly added platform's limit) is told,
        // and the post stays as it was: what was typed before is not lost to an exit.
        if (!(err instanceof InvalidInputError)) throw err;
        ctx.output().warn(`${[err.message, ...err.hints].join('; ')}: the change was not kept`);
      }
    }
  }
  // Our own key when none was given, so a failure can name the key a re-run must use.
  const sentKey = key ?? randomUUID();
  const client = await ctx.client();
  let res;
  // Whether the create (or schedule) request itself went out: a lookup or an upload that failed before it created nothing.
  let sent = false;
  try {
    const ledger = await ledgerFor(ctx);
    res = await withAccountChoice(ctx, c.draft, () =>
      publish(client, c, mode, { idempotencyKey: sentKey, ledger, onReused: (path) => ctx.output().info(`${path}: already on the service (same bytes), not uploaded again`), onSend: () => (sent = true) }),
    );
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.kind === 'idempotency-key-reused' && c.at?.kind === 'relative') {
      addHints(err, [`a relative --at (${opts.at?.trim() || '+10m'}) computes a new time on every run: give an absolute --at when re-runs must replay the first one`]);
    }
    // A re-run past the service's 24 h idempotency window: the key no longer replays the first
    // run's answer, and the time it asks for has passed. The first run almost surely posted; a new
    // --at would post twice.
    if (key && err.kind === 'validation' && /\bin the past\b/i.test([err.message, ...err.issues.map((i) => `${i.path} ${i.message}`)].join(' '))) {
      const title = c.draft?.title ? ` or by its title: socialpub posts list --status published,scheduled,failed --json --jq '.[] | select(.title == ${JSON.stringify(c.draft.title)}) | .id'` : '';
      addHints(err, [
        `this request carries --idempotency-key ${key}: the post was probably created by the first run with it (the service remembers a key for 24 h, then takes a re-run for a new request); do not give a new --at, that would post it twice`,
        `find it: socialpub posts list --status published,scheduled,failed${title}`,
      ]);
    }
    // With the user's own key too: a CI log that ends in a failure must say whether to fear a duplicate.
    if (sent && err.kind === 'rate-limited' && !uncertain(err)) {
      // Scheduling a draft by id creates nothing: it leaves the draft as it was.
      const what = c.draft ? 'the post was not created' : `${c.postId ?? 'the draft'} was not scheduled`;
      addHints(err, [`${what}: the service turned the request away (429) each time it was sent; the same command is safe to run again once the limit allows`]);
    }
    if (uncertain(err) && sent) {
      const at = c.at ? ` --at ${c.at.iso}` : '';
      // SyncPostly's API takes no key (and --idempotency-key is refused there): look, then re-run.
      const sp = (await ctx.profile()).api === 'syncpostly';
      addHints(err, [
        sp
          ? 'the post may have been created before the failure, and this API takes no idempotency key: look for it first (socialpub posts list --limit 5) and re-run only if it is not there'
          : `the post may have been created before the failure: re-run with --idempotency-key ${sentKey}${at} so that the service shows it rather than posting twice`,
      ]);
    }
    throw err;
  }
  // A replay after a retry within this call, or of a key this run made up, is this run's own post:
  // the first attempt reached the service and its answer was lost.
  const ownReplay = res.replayed && (!key || (res.attempts ?? 1) > 1);
  const post = res.replayed ? await currentPost(client, res.data) : res.data;
  await rememberPostIds(ctx, [post.id]);
  await printPost(ctx, post, { zone: c.zone, replayed: res.replayed, ownReplay, idempotencyKey: res.idempotencyKey });
  return EXIT.ok;
}

/** The post as it is now: a replay answers with the stored response, the post as it was then. */
async function currentPost(client: ApiClient, post: Post): Promise<Post> {
  try {
    return await findPost(client, post.id);
  } catch {
    // The stored answer still says rightly what was made; only its status may be dated.
    return post;
  }
}
