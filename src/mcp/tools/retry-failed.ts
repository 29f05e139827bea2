// retry_failed: send the failed targets of a post again as a new post (their original payloads,
// the title kept), as `socialpub results retry` does: the same plan and the same derived key, so a
// repeated call (or the CLI after the tool) replays instead of posting twice.
import { NothingToRetryError, planRetry } from '../../results/retry-plan.js';
import { InvalidInputError } from '../../wire/invalid-input.js';
import { SP_NO_REPLAY } from '../../wire/syncpostly/unsupported.js';
import { resultsOf } from '../../posts/find.js';
import { PATHS } from '../../wire/protocol.js';
import type { ToolDefinition } from '../types.js';
import { unhealthyAccounts } from '../../accounts/health.js';
import { reconnectHint } from '../../accounts/label.js';
import type { SocialAccount } from '../../wire/account-schemas.js';
import { platforms, postId, refuseKeyInDialect, str, strs, writeFields } from './fields.js';
import { toolPost } from './manage-posts.js';
import { postNow } from './write-post.js';
import { trimPost } from '../trim.js';

export const retryFailed: ToolDefinition = {
  name: 'retry_failed',
  description:
    'Retry the failed targets of a post as a new draft with their original payloads and each failure\'s reason. One with a fix was refused for its content: apply the fix with update_post first. One that failed on its account (expired token) fails again until the user reconnects it: tell them before scheduling.',
  inputSchema: {
    type: 'object',
    properties: {
      post_id: postId,
      platforms: { ...platforms, description: 'null: every failed one' },
      include_unhealthy: { type: 'boolean', description: 'true: also targets on expired or disconnected accounts' },
      ...writeFields,
    },
    required: ['post_id'],
    additionalProperties: false,
  },
  annotations: { title: 'Retry failed targets', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  write: true,
  async run(args, tc) {
    const client = await tc.deps.client();
    refuseKeyInDialect(client.dialect, args);
    const id = String(args.post_id).trim();
    const post = await toolPost(client, id, tc);
    const results = await resultsOf(client, id);
    // As `results retry`: targets on an expired or disconnected account would fail the same way.
    const unhealthy = args.include_unhealthy === true ? new Map<string, SocialAccount>() : await unhealthyAccounts(client, results);
    const plan = inToolWords(() => planRetry(post, results, { platforms: strs(args.platforms) ?? [], unhealthy: new Set(unhealthy.keys()) }), unhealthy);
    const left_out = plan.skipped.map((t) => ({ platform: t.platform, account_id: t.accountId, code: t.code ?? null, fix: reconnectHint(unhealthy.get(t.accountId!)!) }));
    const key = str(args.idempotency_key) ?? plan.idempotencyKey;
    // fix: set when the platform refused the content; the draft then needs update_post before schedule_post.
    const retrying = plan.targets.map((t) => ({ platform: t.platform, code: t.code ?? null, message: t.message ?? null, fix: t.fix ?? accountFix(t.code, t.platform) ?? null }));
    const toCorrect = plan.targets.some((t) => t.fix);
    const toReconnect = retrying.filter((t) => !plan.targets.find((x) => x.platform === t.platform)?.fix && t.fix !== null).map((t) => t.platform);
    if (args.dry_run === true) {
      return { dry_run: true, valid: true, note: 'nothing was sent', idempotency_key: key, retrying, ...(left_out.length ? { left_out } : {}), requests: [{ method: 'POST', path: PATHS.posts, headers: { 'Idempotency-Key': key }, body: plan.body }] };
    }
    const res = await client.posts.create(plan.body, { idempotencyKey: key });
    const now = await postNow(client, res, key);
    return {
      post: trimPost(now),
      retrying,
      ...(left_out.length ? { left_out } : {}),
      replayed: res.replayed,
      idempotency_key: key,
      note:
        (res.replayed ? 'an earlier call already made this retry: nothing new was created; this is that post as it is now' : 'a new draft with the failed targets; schedule it with schedule_post') +
        // Without an idempotency key nothing recognises a second call: it makes a second draft.
        (client.dialect === 'syncpostly' ? `. ${SP_NO_REPLAY}` : '') +
        (toCorrect ? '. Targets with a fix were refused for their content and will most likely fail again unchanged: apply each fix with update_post first' : '') +
        (toReconnect.length ? `. ${toReconnect.join(', ')} failed on the account itself: it fails again until the user reconnects it in the service; tell the user before scheduling` : '') +
        (left_out.length ? '. Targets in left_out are on an expired or disconnected account and were not retried: the user must reconnect it in the service\'s settings, then retry (or include_unhealthy)' : ''),
    };
  },
};

/** Failures of the account, not the content: sending again cannot help until the user reconnects it. */
const ACCOUNT_FAILURE = /TOKEN|PERMISSION|AUTH|ACCOUNT/i;

function accountFix(code: string | undefined, platform: string): string | undefined {
  return code !== undefined && ACCOUNT_FAILURE.test(code) ? `the user must reconnect the ${platform} account in the service first (${code}); until then a retry fails the same way` : undefined;
}

/** The plan's refusals name the command's arguments (<post-id>, --platform): here they are the tool's. */
function inToolWords<T>(plan: () => T, unhealthy: ReadonlyMap<string, SocialAccount>): T {
  try {
    return plan();
  } catch (err) {
    if (!(err instanceof InvalidInputError)) throw err;
    const word = (s: string) => s.replace(/<post-id>/g, 'post_id').replace(/--platform\b/g, 'platforms');
    const issues = err.issues.map((i) => ({ field: word(i.field), message: word(i.message), ...(i.fix ? { fix: word(i.fix) } : {}) }));
    const noResultsYet = err instanceof NothingToRetryError && /has no results yet/.test(err.message);
    const onlyUnhealthy = err instanceof NothingToRetryError && /expired or disconnected/.test(err.message);
    const fix = noResultsYet ? 'a post has results once it is published: schedule_post, then wait_for_results' : onlyUnhealthy ? `${[...unhealthy.values()].map((a) => reconnectHint(a)).join('; ')} (or include_unhealthy)` : undefined;
    throw new InvalidInputError(fix ? issues.map((i) => ({ ...i, fix })) : issues);
  }
}
