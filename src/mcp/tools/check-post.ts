// check_post: every platform's rules judged locally, as `socialpub posts check` judges them: the
// text's count against each limit, each media item's verdicts. Sends nothing, and needs no key
// unless `accounts` is given: then, as `posts check --account`, the accounts are read from the
// service (reads only) and each one's state is one more check of its platform.
import { checkPosts } from '../../posts/check.js';
import { mediaInspector } from '../../posts/media-facts.js';
import { inputDraft, SNAKE_CASE_LABELS } from '../../posts/compose-input.js';
import type { Issue } from '../../posts/draft.js';
import { checkIssue } from '../../posts/validate.js';
import { InvalidInputError } from '../../wire/invalid-input.js';
import type { ToolDefinition } from '../types.js';
import { accountsField, payloadFields, strs } from './fields.js';
import { namedAccounts } from './accounts-arg.js';
import { accountStatusChecks } from '../../accounts/status-check.js';
import { attachAccounts } from '../../accounts/resolve.js';
import { admitMediaPaths } from '../media-paths.js';
import { postInput } from './write-post.js';

export const checkPost: ToolDefinition = {
  name: 'check_post',
  description:
    "Judge a post by each platform's published rules, sending nothing: text length as the platform counts it, hashtags, title, media count, each local file's type, size, dimensions, duration and codec; with accounts, whether each is connected. Returns each platform's verdicts, a fix for each failure.",
  inputSchema: {
    type: 'object',
    properties: { ...payloadFields, accounts: accountsField },
    additionalProperties: false,
  },
  // Closed world as preview_post's, which reads a post_id: the answer comes from the arguments,
  // and accounts only add a row each (server.ts tooLarge blames the arguments by this hint).
  annotations: { title: 'Check a post against platform rules', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  write: false,
  async run(args, tc) {
    // Local files only from the folders the server was started with, as the write tools: the
    // verdicts (size, dimensions) would otherwise tell an assistant about any file it names.
    const input = postInput(args);
    const media = await admitMediaPaths(input.media, tc.deps.mediaDirs);
    // The one read from the service, only with accounts; a failed read fails the call, which was
    // asked to tell their state. The accounts' platforms are the post's when none is named.
    const client = strs(args.accounts) ? await tc.deps.client() : undefined;
    const named = client && (await namedAccounts(client, strs(args.accounts), { bestEffort: false }));
    if (named && !input.platforms && !input.textFor) input.platforms = [...new Set(named.accounts.map((a) => a.platform))];
    const issues: Issue[] = [];
    const draft = inputDraft({ ...input, ...(media ? { media } : {}) }, SNAKE_CASE_LABELS, issues);
    // A relative path or no platform at all: nothing to judge yet.
    if (!draft || issues.some((i) => i.field.startsWith('media['))) throw new InvalidInputError(issues);
    // An account of a platform the post does not go to is a problem, as posts check finds it.
    if (named) issues.push(...attachAccounts(draft.platforms, named.accounts, 'accounts'));
    const extraChecks = named && accountStatusChecks(named.accounts, client.dialect, named.derived);
    // The call's signal stops a long header walk (a GIF's frames) when the call is cancelled.
    const report = await checkPosts([{ draft, issues, ...(extraChecks ? { extraChecks } : {}) }], mediaInspector(tc.signal));
    // An assistant reads `problems` first: whenever the post would be refused, it names every
    // failing check there too (field, message, fix), not only what kept the post from being read.
    const failing = report.targets.flatMap((t) => {
      const payload = draft.platforms.find((p) => p.platform === t.platform)!;
      return t.checks.filter((c) => c.verdict === 'fail').map((c) => checkIssue(draft, payload, c));
    });
    return {
      accepted: report.accepted,
      problems: [...report.problems, ...failing],
      platforms: report.targets.map((t) => ({ platform: t.platform, accepted: t.accepted, checks: t.checks })),
      note: named ? "nothing was sent; the accounts' state was read from the service" : 'nothing was sent',
    };
  },
};
