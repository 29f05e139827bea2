// check_post: every platform's rules judged locally, as `socialpub posts check` judges them: the
// text's count against each limit, each media item's verdicts. Sends nothing, needs no key.
import { checkPosts } from '../../posts/check.js';
import { mediaInspector } from '../../posts/media-facts.js';
import { inputDraft, SNAKE_CASE_LABELS } from '../../posts/compose-input.js';
import type { Issue } from '../../posts/draft.js';
import { checkIssue } from '../../posts/validate.js';
import { InvalidInputError } from '../../wire/invalid-input.js';
import type { ToolDefinition } from '../types.js';
import { payloadFields } from './fields.js';
import { admitMediaPaths } from '../media-paths.js';
import { postInput } from './write-post.js';

export const checkPost: ToolDefinition = {
  name: 'check_post',
  description:
    "Judge a post by each platform's published rules, sending nothing: text length as the platform counts it, hashtags, title, media count, each local file's type, size, dimensions, duration and codec. Returns each platform's verdicts, a fix for each failure.",
  inputSchema: {
    type: 'object',
    properties: payloadFields,
    additionalProperties: false,
  },
  annotations: { title: 'Check a post against platform rules', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  write: false,
  async run(args, tc) {
    // Local files only from the folders the server was started with, as the write tools: the
    // verdicts (size, dimensions) would otherwise tell an assistant about any file it names.
    const input = postInput(args);
    const media = await admitMediaPaths(input.media, tc.deps.mediaDirs);
    const issues: Issue[] = [];
    const draft = inputDraft({ ...input, ...(media ? { media } : {}) }, SNAKE_CASE_LABELS, issues);
    // A relative path or no platform at all: nothing to judge yet.
    if (!draft || issues.some((i) => i.field.startsWith('media['))) throw new InvalidInputError(issues);
    // The call's signal stops a long header walk (a GIF's frames) when the call is cancelled.
    const report = await checkPosts([{ draft, issues }], mediaInspector(tc.signal));
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
      note: 'nothing was sent',
    };
  },
};
