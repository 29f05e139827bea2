// schedule_post: schedule an existing draft by id, or create and schedule a post in one call
// (POST /v1/schedule). Times are absolute: a relative time would move when the call is retried.
import type { ToolDefinition } from '../types.js';
import { accountsField, payloadFields, timeZone, writeFields } from './fields.js';
import { writePost } from './write-post.js';

export const schedulePost: ToolDefinition = {
  name: 'schedule_post',
  description:
    'Schedule a post for publishing at a time: either an existing post by post_id (a draft, or a scheduled post, which moves to the new time) or a new post (platforms, text, …) created and scheduled at once. The time is RFC 3339 with an offset, or a local "YYYY-MM-DD HH:MM" plus time_zone; relative times ("in 2 hours") are refused, so compute the date. The post is published on every platform at that time. Repeating the same call returns the same scheduled post.',
  inputSchema: {
    type: 'object',
    properties: {
      post_id: { type: 'string', description: 'Id of a draft to schedule as it is, or of a scheduled post to move (post_…). Leave out to create a new post from platforms/text/….', minLength: 1 },
      ...payloadFields,
      accounts: accountsField,
      at: {
        type: 'string',
        description: 'When to publish, in the future: RFC 3339 with an offset ("2026-12-01T09:00:00+01:00") or local "YYYY-MM-DD HH:MM" with time_zone. Never relative.',
        minLength: 1,
      },
      time_zone: { ...timeZone, description: 'IANA time zone of a local at (e.g. Europe/Paris); required when at has no offset.' },
      ...writeFields,
    },
    required: ['at'],
    additionalProperties: false,
  },
  annotations: { title: 'Schedule a post', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  write: true,
  run: (args, tc) => writePost('schedule_post', 'schedule', args, tc),
};
