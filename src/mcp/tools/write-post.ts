// The shared body of the two write tools: compose and validate, derive the idempotency key from
// the arguments, then either plan (dry_run) or publish.
import { composeInput, type PostInput } from '../../posts/compose-input.js';
import { deriveKey, stableStringify } from '../../posts/keys.js';
import { planPublish, publish, type PublishMode } from '../../posts/publish.js';
import { admitMediaPaths } from '../media-paths.js';
import { trimPost } from '../trim.js';
import type { ToolContext } from '../types.js';
import { postIdArg, refuseKeyInDialect, str, strs } from './fields.js';
import { ApiError } from '../../client/errors.js';
import type { ApiClient } from '../../client/types.js';
import type { Post } from '../../wire/schemas.js';
import { noSuchPost, ToolError } from '../errors.js';
import { findPost, PostNotFoundError } from '../../posts/find.js';
import { notEditable } from '../../posts/edit.js';
import { attachAccounts } from '../../accounts/resolve.js';
import { FieldInputError, InvalidInputError } from '../../wire/invalid-input.js';
import { describePost } from '../change-summary.js';
import { namedAccounts, unhealthyAccountsNote } from './accounts-arg.js';
import { refuseInDialect, SP_TOOL_FIX } from '../../wire/syncpostly/unsupported.js';
import { threadSplits, threadSplitNote } from '../../posts/thread-report.js';

/** What a post that went out (published, failed) takes instead of a change. */
export const INSTEAD_TOOLS = { retry: 'retry_failed', create: 'create a new post with create_draft or schedule_post' };

/**
 * Same tool, same arguments → same key, so an assistant (or its host) repeating a call replays it.
 * dry_run, idempotency_key and confirm_token are left out: a dry run, a preview and the confirmed call agree.
 */
export function derivedKey(tool: string, args: Record<string, unknown>): string {
  const { dry_run: _d, idempotency_key: _k, confirm_token: _c, ...rest } = args;
  return deriveKey('socialpub mcp', tool, stableStringify(rest));
}

export function postInput(args: Record<string, unknown>): PostInput {
  const textFor = args.text_for as Record<string, string> | undefined;
  return {
    ...(strs(args.platforms) ? { platforms: strs(args.platforms)! } : {}),
    ...(str(args.text) !== undefined ? { text: str(args.text)! } : {}),
    ...(textFor ? { textFor } : {}),
    ...(strs(args.media) ? { media: strs(args.media)! } : {}),
    ...(str(args.title) !== undefined ? { title: str(args.title)! } : {}),
    ...(str(args.post_id) !== undefined ? { postId: str(args.post_id)! } : {}),
    ...(str(args.at) !== undefined ? { at: str(args.at)! } : {}),
    ...(str(args.time_zone) !== undefined ? { timeZone: str(args.time_zone)! } : {}),
    ...(args.thread === true ? { thread: true } : {}),
    ...(str(args.first_comment) !== undefined ? { firstComment: str(args.first_comment)! } : {}),
    ...(strs(args.alt) ? { alt: strs(args.alt)! } : {}),
    ...(strs(args.options) ? { option: strs(args.options)! } : {}),
  };
}

/**
 * The post a write answered with, as it is now: a replay's stored answer is the post as it was
 * then, so it is read again. A replayed post deleted since is said plainly, with the way out.
 */
export async function postNow(client: ApiClient, res: { data: Post; replayed: boolean }, key: string): Promise<Post> {
  if (!res.replayed) return res.data;
  try {
    return (await client.posts.get(res.data.id)).data;
  } catch (err) {
    if (!(err instanceof ApiError && err.kind === 'not-found')) throw err;
    throw new ToolError({
      code: 'invalid_input',
      field: 'idempotency_key',
      message: `an earlier call with idempotency key ${key} made post ${res.data.id}, which has been deleted since; nothing new was created`,
      hints: ['call again with a new idempotency_key to make it anew'],
    });
  }
}

export async function writePost(tool: string, mode: PublishMode, args: Record<string, unknown>, tc: ToolContext): Promise<Record<string, unknown>> {
  // Every write carries a key (given or derived), so a retried call after its time has passed is
  // sent and replayed by the service, as the CLI does with --idempotency-key and an absolute --at.
  const input = postInput(args);
  const { dialect } = await tc.deps.client();
  refuseInDialect(dialect, input.title !== undefined, 'title', 'title', SP_TOOL_FIX.title);
  refuseKeyInDialect(dialect, args);
  if (input.postId !== undefined) input.postId = postIdArg(input.postId);
  const refs = strs(args.accounts);
  if (refs && input.postId !== undefined) throw new FieldInputError('accounts', 'accounts: cannot be combined with post_id (an existing post keeps its accounts)', 'change them with update_post, then schedule it');
  const accounts = refs ? (await namedAccounts(await tc.deps.client(), refs, { bestEffort: true }))?.accounts : undefined;
  // The accounts' platforms are the post's when none is named.
  if (accounts && !input.platforms && !input.textFor) input.platforms = [...new Set(accounts.map((a) => a.platform))];
  const media = await admitMediaPaths(input.media, tc.deps.mediaDirs);
  const composed = await composeInput({ ...input, ...(media ? { media } : {}) }, { mode, now: tc.deps.now(), keyed: true, titleRequired: dialect !== 'syncpostly' });
  if (accounts && composed.draft) {
    const issues = attachAccounts(composed.draft.platforms, accounts, 'accounts');
    if (issues.length) throw new InvalidInputError(issues);
  }
  const given = str(args.idempotency_key);
  // Nothing is sent on a dry run, so no replay can make a past time right: it is plainly invalid.
  if (args.dry_run === true && composed.at && Date.parse(composed.at.iso) <= tc.deps.now()) {
    throw new FieldInputError('at', `at: ${composed.at.iso} is in the past`, 'give a time in the future: RFC 3339 with an offset, or "YYYY-MM-DD HH:MM" with time_zone');
  }
  let client: ApiClient | undefined;
  let version: string | undefined;
  if (input.postId !== undefined) {
    // Scheduling a post that exists: the key also carries its version, so the same call after the
    // post changed (moved elsewhere, unscheduled) is a new change, not a replay that leaves it as
    // it is now. A post already scheduled for that time needs nothing sent; one scheduled for
    // another time is moved only once the user confirmed it.
    client = await tc.deps.client();
    const post = await existingPost(client, input.postId, tc);
    if (post.status === 'scheduled' && composed.at && post.scheduledAt && Date.parse(post.scheduledAt) === Date.parse(composed.at.iso)) {
      return { post: trimPost(post), changed: false, note: 'already scheduled for that time: nothing was sent' };
    }
    if (given === undefined) {
      // A post that went out cannot be scheduled again: said before anything is sent. (With the
      // caller's own key the request goes, so that a repeat of a call that did it replays.)
      const refused = notEditable(post, 'post_id', INSTEAD_TOOLS);
      if (refused) throw refused;
      version = post.updatedAt ?? '';
    }
    if (post.status === 'scheduled' && composed.at && args.dry_run !== true) {
      const stop = await tc.confirm({ tool, postId: post.id, post, args, summary: `Move ${describePost(post)} to ${composed.at.iso}.` });
      if (stop) return stop;
    }
  }
  const key = given ?? derivedKey(tool, version === undefined ? args : { ...args, version });
  const when = composed.at ? { scheduled_at: composed.at.iso } : {};
  // With thread: how the text was split, so the assistant can tell the user of a cut word or link.
  const split = input.thread && composed.draft ? composed.draft : undefined;
  const thread = split ? { thread: threadSplits(split) } : {};
  const notes = unhealthyAccountsNote(accounts) + (split ? threadSplitNote(split) : '');
  if (args.dry_run === true) {
    return { dry_run: true, valid: true, note: `nothing was sent${notes}`, idempotency_key: key, ...when, ...thread, requests: planPublish(composed, mode, key) };
  }
  client ??= await tc.deps.client();
  const res = await publish(client, composed, mode, { idempotencyKey: key, ...(tc.deps.ledger ? { ledger: tc.deps.ledger } : {}) }).catch((err: unknown) => {
    if (input.postId !== undefined && err instanceof ApiError && err.kind === 'not-found') throw noSuchPostHere(input.postId, tc, err.requestId);
    throw err;
  });
  const post = await postNow(client, res, key);
  return {
    post: trimPost(post),
    replayed: res.replayed,
    idempotency_key: key,
    ...thread,
    note: (res.replayed ? 'an earlier call with this key already did this: the same post is returned and nothing new was created' : mode === 'create' ? 'draft created' : 'post scheduled') + notes,
  };
}

const noSuchPostHere = (id: string, tc: ToolContext, requestId?: string) => noSuchPost(id, tc.deps.profileName, { hint: 'list_posts shows the posts of this workspace (drafts: status ["draft"])', requestId });

async function existingPost(client: ApiClient, id: string, tc: ToolContext): Promise<Post> {
  try {
    return await findPost(client, id);
  } catch (err) {
    if (err instanceof PostNotFoundError) throw noSuchPostHere(id, tc);
    throw err;
  }
}
