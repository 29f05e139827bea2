// schedule_post: schedule an existing draft by id, or create and schedule a post in one call
// (POST /v1/schedule). Times are absolute: a relative time would move when the call is retried.
import type { ToolDefinition } from '../types.js';
import { accountsField, confirmFields, payloadFields, postId, timeZone, writeFields } from './fields.js';
import { writePost } from './write-post.js';

export const schedulePost: ToolDefinition = {
  name: 'schedule_post',
  description:
    'Schedule a post: a draft (post_id), a scheduled post to move (post_id; the user confirms), or a new post from the other fields.',
  inputSchema: {
    type: 'object',
    properties: {
      post_id: postId,
      ...payloadFields,
      accounts: accountsField,
      at: { type: 'string', minLength: 1, fix: 'give a future time: RFC 3339 with an offset, or "YYYY-MM-DD HH:MM" with time_zone' },
      time_zone: timeZone,
      ...writeFields,
      ...confirmFields,
    },
    required: ['at'],
    additionalProperties: false,
  },
  // Moving a scheduled post replaces its time: destructive, and confirmed first.
  annotations: { title: 'Schedule a post', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  write: true,
  scheduling: true,
  run: (args, tc) => writePost('schedule_post', 'schedule', args, tc),
};
