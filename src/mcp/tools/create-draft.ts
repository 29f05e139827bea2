// create_draft: a new draft post (POST /v1/posts), validated per platform before it is sent.
import type { ToolDefinition } from '../types.js';
import { accountsField, payloadFields, writeFields } from './fields.js';
import { writePost } from './write-post.js';

export const createDraft: ToolDefinition = {
  name: 'create_draft',
  description:
    'Create a draft post, published only once scheduled (schedule_post).',
  inputSchema: {
    type: 'object',
    properties: { ...payloadFields, accounts: accountsField, ...writeFields },
    additionalProperties: false,
  },
  annotations: { title: 'Create a draft post', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  write: true,
  run: (args, tc) => writePost('create_draft', 'create', args, tc),
};
