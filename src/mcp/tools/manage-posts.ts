// get_post, update_post, unschedule_post, delete_post: one post read, changed, taken back to a
// draft, or deleted (GET/PATCH/DELETE /v1/posts/{id}). A write replayed under its idempotency key
// answers with the post as it is now (read again), never with the stale first answer.
import { admitMediaPaths } from '../media-paths.js';
import type { ApiClient } from '../../client/types.js';
import { ApiError } from '../../client/errors.js';
import { findPost, PostNotFoundError, resultsOf, withResults } from '../../posts/find.js';
import { notEditable, planEdit, planEditRequests, sendEdit, type EditLabels } from '../../posts/edit.js';
import { postStatusText } from '../../posts/outcome.js';
import { PATHS } from '../../wire/protocol.js';
import type { Post } from '../../wire/schemas.js';
import { noSuchPost, ToolError } from '../errors.js';
import { trimPost, trimResult } from '../trim.js';
import type { ToolContext, ToolDefinition } from '../types.js';
import { accountsField, confirmFields, MAX_TITLE, payloadFields, platforms, postId, postIdArg, refuseKeyInDialect, str, strs, writeFields } from './fields.js';
import { namedAccounts, unhealthyAccountsNote } from './accounts-arg.js';
import { accountsByPlatform } from '../../accounts/resolve.js';
import { derivedKey, INSTEAD_TOOLS } from './write-post.js';
import { describePost, quote } from '../change-summary.js';
import type { PlannedEdit } from '../../posts/edit.js';
import { refuseInDialect, SP_TOOL_FIX } from '../../wire/syncpostly/unsupported.js';

const LABELS: EditLabels = {
  id: 'post_id',
  text: 'text',
  textFor: (p) => `text_for.${p}`,
  add: 'add_platforms',
  remove: 'remove_platforms',
  media: (m) => `media ${m}`,
  mediaCount: 'media',
  title: 'title',
  firstComment: 'first_comment',
  option: (p, k) => `options.${p}${k ? `.${k}` : ''}`,
  altAll: 'alt',
  alt: (_source, index) => `alt[${index}]`,
  thread: 'thread',
  keepPartsFix: () => 'leave thread out (the parts stay as they are, each with its media), or remove that media first',
};

/** The post, refused with not_found (another workspace's id too) in the tool's own words. */
export async function toolPost(client: ApiClient, id: string, tc: ToolContext): Promise<Post> {
  try {
    return await findPost(client, postIdArg(id));
  } catch (err) {
    if (err instanceof PostNotFoundError) throw noSuchPost(id, tc.deps.profileName);
    throw err;
  }
}

/** A draft or scheduled post (a draft only with --drafts-only); invalid_input naming what to do instead otherwise. */
async function editablePost(client: ApiClient, id: string, tc: ToolContext): Promise<Post> {
  const post = await toolPost(client, id, tc);
  const refused = notEditable(post, 'post_id', INSTEAD_TOOLS);
  if (refused) throw refused;
  if (tc.deps.draftsOnly && post.status !== 'draft') {
    throw new ToolError({ code: 'invalid_input', field: 'post_id', message: `post ${id} is ${post.status}: this server edits drafts only (started with --drafts-only); nothing was sent`, hints: ['create a new draft with create_draft, or ask the user to make this change without --drafts-only'] });
  }
  return post;
}

/** What an edit destroys: a platform removed, or the texts, media or accounts of a scheduled post replaced. */
function destructiveEdit(plan: PlannedEdit): string[] {
  const post = plan.before;
  const lines = plan.removed.map((p) => `remove ${p} (its text ${quote(textOfTarget(post, p))} is lost)`);
  if (post.status === 'scheduled') {
    for (const target of plan.draft.platforms) {
      if (!Object.hasOwn(post.payloads, target.platform)) continue;
      const before = textOfTarget(post, target.platform);
      if (target.text !== before) lines.push(`replace the text of ${target.platform}: ${quote(before)} becomes ${quote(target.text ?? '')}`);
      else if (accountsChange(post, target.platform, target.extra?.accounts)) lines.push(`publish ${target.platform} to other accounts`);
      else lines.push(`replace the media of ${target.platform}`);
    }
  }
  return lines;
}

/** The edit names accounts other than those the target has (the accounts argument alone changed it). */
const accountsChange = (post: Post, platform: string, next: unknown) => next !== undefined && JSON.stringify(next) !== JSON.stringify((post.payloads[platform] as { accounts?: unknown } | null | undefined)?.accounts);

const textOfTarget = (post: Post, platform: string) => {
  const payload = post.payloads[platform] as { text?: unknown } | null | undefined;
  return typeof payload?.text === 'string' ? payload.text : '';
};

/** The write, with a 409 (the post went out meanwhile) said plainly. */
async function write<T>(id: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'not-editable') {
      throw new ToolError({ code: 'invalid_input', field: 'post_id', message: `post ${id} was published while this call was changing it; nothing was changed`, hints: ['get_post shows what happened'] });
    }
    throw err;
  }
}

/**
 * The caller's key, or one derived from the arguments and the post's version (updatedAt): the
 * same call on the same post replays, while the same call after the post changed again (say,
 * unscheduled, scheduled, then unscheduled once more) is a new change, not a replay.
 */
const keyOf = (tool: string, args: Record<string, unknown>, post: Post) => str(args.idempotency_key) ?? derivedKey(tool, { ...args, version: post.updatedAt ?? '' });

const { minLength: _min, emptyFix: _fix, ...removableFirstComment } = payloadFields.first_comment!;

export const getPost: ToolDefinition = {
  name: 'get_post',
  description:
    "One post in full: each platform's text, media and options, title, status and outcome, time, and its publishing results.",
  inputSchema: { type: 'object', properties: { post_id: postId }, required: ['post_id'], additionalProperties: false },
  annotations: { title: 'Get a post', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  write: false,
  async run(args, tc) {
    const client = await tc.deps.client();
    // Checked before either request: a malformed id would otherwise still send the results one.
    const id = postIdArg(args.post_id);
    const [post, results] = await withResults(toolPost(client, id, tc), resultsOf(client, id));
    return { post, outcome: postStatusText(post), results: results.map(trimResult) };
  },
};

export const updatePost: ToolDefinition = {
  name: 'update_post',
  description:
    'Change a draft or scheduled post, checked like a new one; only what differs is sent. media replaces all ([] removes them), with alt; title, first_comment: "" removes it; options merge; accounts replace their platforms\' accounts; add_platforms, remove_platforms. The user confirms removing a platform or replacing a scheduled text. To move a post: schedule_post.',
  inputSchema: {
    type: 'object',
    properties: {
      post_id: postId,
      text: payloadFields.text!,
      text_for: payloadFields.text_for!,
      add_platforms: platforms,
      remove_platforms: platforms,
      media: payloadFields.media!,
      alt: payloadFields.alt!,
      title: { type: 'string', maxLength: MAX_TITLE },
      accounts: accountsField,
      thread: payloadFields.thread!,
      // "" removes it here: the shared field's refusal of an empty string is left out.
      first_comment: removableFirstComment,
      options: payloadFields.options!,
      ...writeFields,
      ...confirmFields,
    },
    required: ['post_id'],
    additionalProperties: false,
  },
  // Removing a platform or replacing a scheduled post's texts loses what was there.
  annotations: { title: 'Change a post', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  write: true,
  async run(args, tc) {
    const client = await tc.deps.client();
    const title = str(args.title);
    refuseInDialect(client.dialect, title !== undefined, 'title', 'title', SP_TOOL_FIX.title);
    refuseKeyInDialect(client.dialect, args);
    const id = String(args.post_id).trim();
    const post = await editablePost(client, id, tc);
    // Local files only from the folders the server was started with (--media-dir), as create_draft.
    const media = await admitMediaPaths(strs(args.media), tc.deps.mediaDirs);
    const accounts = (await namedAccounts(client, strs(args.accounts), { bestEffort: true }))?.accounts;
    const plan = await planEdit(
      post,
      {
        ...(accounts ? { accounts: accountsByPlatform(accounts) } : {}),
        ...(str(args.text) !== undefined ? { text: str(args.text)! } : {}),
        textFor: new Map(Object.entries((args.text_for as Record<string, string> | undefined) ?? {})),
        add: strs(args.add_platforms) ?? [],
        remove: strs(args.remove_platforms) ?? [],
        ...(media ? { media } : {}),
        // alt[i] describes media[i], as in create_draft.
        ...(strs(args.alt) ? { alt: strs(args.alt)!.flatMap((text, index) => (text ? [{ index, text }] : [])) } : {}),
        ...(title !== undefined ? { title: title === '' ? null : title } : {}),
        ...(args.thread === true ? { thread: true } : {}),
        ...(str(args.first_comment) !== undefined ? { firstComment: str(args.first_comment) === '' ? null : str(args.first_comment)! } : {}),
        ...(strs(args.options)
          ? { option: strs(args.options)! }
          : {}),
      },
      { labels: LABELS, titleRequired: client.dialect !== 'syncpostly' },
    );
    const key = keyOf('update_post', args, post);
    if (plan.unchanged) return { post: trimPost(post), changed: false, note: 'nothing to change: the post already says that; nothing was sent' };
    if (args.dry_run === true) return { dry_run: true, valid: true, note: 'nothing was sent', idempotency_key: key, requests: planEditRequests(plan, key) };
    const losses = destructiveEdit(plan);
    if (losses.length) {
      const stop = await tc.confirm({ tool: 'update_post', postId: id, post, args, summary: `Change ${describePost(post)}: ${losses.join('; ')}.` });
      if (stop) return stop;
    }
    const res = await write(id, () => sendEdit(client, plan, { idempotencyKey: key, fresh: losses.length === 0, ...(tc.deps.ledger ? { ledger: tc.deps.ledger } : {}) }));
    return replayedOrNot(client, id, res, key, `post changed${unhealthyAccountsNote(accounts)}`);
  },
};

/** The post as every write tool answers with it (list_posts' row); get_post has the whole post. */
async function replayedOrNot(client: ApiClient, id: string, res: { data: Post; replayed: boolean }, key: string, done: string): Promise<Record<string, unknown>> {
  if (!res.replayed) return { post: trimPost(res.data), replayed: false, idempotency_key: key, note: done };
  // The stored answer is the post as it was then; what the assistant needs is the post now.
  return { post: trimPost((await client.posts.get(id)).data), replayed: true, idempotency_key: key, note: 'an earlier call with this key already did this: nothing was done again; this is the post as it is now' };
}

export const unschedulePost: ToolDefinition = {
  name: 'unschedule_post',
  description:
    'Take a scheduled post back to a draft, so it is not published (the user confirms first).',
  inputSchema: { type: 'object', properties: { post_id: postId, ...writeFields, ...confirmFields }, required: ['post_id'], additionalProperties: false },
  annotations: { title: 'Unschedule a post', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  write: true,
  scheduling: true,
  async run(args, tc) {
    const client = await tc.deps.client();
    refuseKeyInDialect(client.dialect, args);
    const id = String(args.post_id).trim();
    const post = await editablePost(client, id, tc);
    if (post.status === 'draft') return { post: trimPost(post), changed: false, note: 'already a draft: nothing was sent' };
    const key = keyOf('unschedule_post', args, post);
    const request = { method: 'PATCH' as const, path: `${PATHS.posts}/${id}`, headers: { 'Idempotency-Key': key }, body: { scheduledAt: null } };
    if (args.dry_run === true) return { dry_run: true, valid: true, note: 'nothing was sent', idempotency_key: key, requests: [request] };
    const stop = await tc.confirm({ tool: 'unschedule_post', postId: id, post, args, summary: `Unschedule ${describePost(post)}: it goes back to a draft and will not be published.` });
    if (stop) return stop;
    const res = await write(id, () => client.posts.update(id, { scheduledAt: null }, { idempotencyKey: key }));
    return replayedOrNot(client, id, res, key, 'back to draft: it will not be published');
  },
};

export const deletePost: ToolDefinition = {
  name: 'delete_post',
  description:
    'Delete a draft or scheduled post for good (the user confirms first). Published or failed posts cannot be.',
  inputSchema: { type: 'object', properties: { post_id: postId, ...writeFields, ...confirmFields }, required: ['post_id'], additionalProperties: false },
  annotations: { title: 'Delete a post', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  write: true,
  scheduling: true,
  async run(args, tc) {
    const client = await tc.deps.client();
    refuseKeyInDialect(client.dialect, args);
    const id = String(args.post_id).trim();
    let post: Post;
    try {
      post = await editablePost(client, id, tc);
    } catch (err) {
      // Gone: if the caller's key deleted it, the service replays that answer.
      const own = str(args.idempotency_key);
      if (!(err instanceof ToolError) || err.body.code !== 'not_found') throw err;
      // A delete that ran out of time may well have deleted it: say so rather than leave a bare "no post".
      const gone = new ToolError({ ...err.body, hints: [...(err.body.hints ?? []), 'if an earlier delete_post of it did not answer, that call deleted it'] });
      if (own === undefined || args.dry_run === true) throw gone;
      const again = await client.posts.delete(id, { idempotencyKey: own }).catch(() => undefined);
      if (!again?.replayed) throw gone;
      return { deleted: true, post_id: id, replayed: true, idempotency_key: own, note: 'an earlier call with this key already deleted it' };
    }
    const key = keyOf('delete_post', args, post);
    if (args.dry_run === true) {
      return { dry_run: true, valid: true, note: 'nothing was sent', idempotency_key: key, post: trimPost(post), requests: [{ method: 'DELETE', path: `${PATHS.posts}/${id}`, headers: { 'Idempotency-Key': key } }] };
    }
    const stop = await tc.confirm({ tool: 'delete_post', postId: id, post, args, summary: `Delete ${describePost(post)} for good.` });
    if (stop) return stop;
    const res = await write(id, () => client.posts.delete(id, { idempotencyKey: key }));
    return { deleted: true, post_id: id, was: post.status, replayed: res.replayed, idempotency_key: key, note: res.replayed ? 'an earlier call with this key already deleted it' : 'deleted' };
  },
};
