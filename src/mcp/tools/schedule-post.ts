// schedule_post: schedule an existing draft by id, or create and schedule a post in one call
// (POST /v1/schedule). Times are absolute: a relative time would move when the call is retried.
import type { ToolDefinition } from '../types.js';
import { confirmFields, payloadFields, timeZone, writeFields } from './fields.js';
import { writePost } from './write-post.js';

export const schedulePost: ToolDefinition = {
  name: 'schedule_post',
  description:
    'Schedule a post at an absolute time: a draft by post_id, a scheduled post by post_id (moved, once the user confirms), or a new post from platforms/text/… created and scheduled at once. Repeating the same call returns the same post.',
  inputSchema: {
    type: 'object',
    properties: {
      post_id: { type: 'string', description: 'A draft to schedule or a scheduled post to move; null for a new post.', minLength: 1 },
      ...payloadFields,
      at: {
        type: 'string',
        description: 'Future time: RFC 3339 with offset, or "YYYY-MM-DD HH:MM" with time_zone.',
        minLength: 1,
      },
      time_zone: { ...timeZone, description: 'IANA zone of a local at.' },
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
