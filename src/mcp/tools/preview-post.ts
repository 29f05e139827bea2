// preview_post: each platform's rendering of a post, as `socialpub posts preview` prints it: the
// text up to the platform's "more" fold and what the fold hides, thread parts, alt text, the
// first comment and the feed's crop. A post on the service by id, or one given as payload
// fields (then nothing is sent and no key is needed; local media are named, not read).
import { pathToFileURL } from 'node:url';
import { buildBody } from '../../posts/body.js';
import { inputDraft, SNAKE_CASE_LABELS } from '../../posts/compose-input.js';
import type { Issue } from '../../posts/draft.js';
import { FieldInputError, InvalidInputError } from '../../wire/invalid-input.js';
import { previewPost } from '../../wire/preview/model.js';
import type { ToolDefinition } from '../types.js';
import { MAX_ID, payloadFields } from './fields.js';
import { toolPost } from './manage-posts.js';
import { admitMediaPaths } from '../media-paths.js';
import { postInput } from './write-post.js';

export const previewPostTool: ToolDefinition = {
  name: 'preview_post',
  description:
    'How a post will look on each platform: the text before the feed\'s "more" fold and what it hides, numbered thread parts, alt texts (or their lack), first comment, options, the crop of an image. A post_id, or the fields of a post not yet created (nothing is sent). Folds are approximate.',
  inputSchema: {
    type: 'object',
    properties: { post_id: { type: 'string', maxLength: MAX_ID, fix: 'give a post id as list_posts returns it' }, ...payloadFields },
    additionalProperties: false,
  },
  annotations: { title: 'Preview a post per platform', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  write: false,
  async run(args, tc) {
    const id = typeof args.post_id === 'string' ? args.post_id.trim() : '';
    const given = Object.keys(args).filter((k) => k !== 'post_id' && args[k] !== undefined);
    if (id && given.length) throw new FieldInputError('post_id', `post_id cannot be combined with ${given.join(', ')}`, 'preview a post on the service by post_id, or a new post by its payload fields, not both');
    if (id) return { preview: previewPost(await toolPost(await tc.deps.client(), id, tc)) };
    // Local files only from the folders the server was started with, as every tool that takes media.
    const input = postInput(args);
    const media = await admitMediaPaths(input.media, tc.deps.mediaDirs);
    const issues: Issue[] = [];
    const draft = inputDraft({ ...input, ...(media ? { media } : {}) }, SNAKE_CASE_LABELS, issues);
    if (!draft) throw new InvalidInputError(issues);
    return { preview: previewPost(buildBody(draft, new Map(), (p) => pathToFileURL(p).href)), note: 'nothing was sent' };
  },
};
