// Every tool, in the order an assistant sees them; write tools are left out with --read-only,
// those that schedule, move or delete with --drafts-only.
import type { ToolDefinition } from '../types.js';
import { checkPost } from './check-post.js';
import { createDraft } from './create-draft.js';
import { getResult } from './get-result.js';
import { listPosts } from './list-posts.js';
import { listAccounts } from './list-accounts.js';
import { previewPostTool } from './preview-post.js';
import { deletePost, getPost, unschedulePost, updatePost } from './manage-posts.js';
import { retryFailed } from './retry-failed.js';
import { listResults } from './list-results.js';
import { resultsStats } from './results-stats.js';
import { schedulePost } from './schedule-post.js';
import { waitForResults } from './wait-for-results.js';

export const TOOLS: readonly ToolDefinition[] = [
  checkPost,
  previewPostTool,
  createDraft,
  schedulePost,
  listPosts,
  getPost,
  updatePost,
  unschedulePost,
  deletePost,
  listResults,
  getResult,
  waitForResults,
  retryFailed,
  resultsStats,
  listAccounts,
];

export function toolsFor(readOnly: boolean, draftsOnly = false): ToolDefinition[] {
  return TOOLS.filter((t) => (!readOnly || !t.write) && (!draftsOnly || !t.scheduling));
}
