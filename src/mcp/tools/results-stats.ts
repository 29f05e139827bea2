// results_stats: counts of results (total, succeeded, failed) grouped by platform, error code,
// account or post, over the same filters as list_results.
import { createStatsCounter, STATS_BY, type StatsBy } from '../../results/stats.js';
import { walkResults } from '../result-pages.js';
import type { ToolDefinition } from '../types.js';
import { MAX_ROWS, resultFilters, str } from './fields.js';
import { readResultArgs } from './result-args.js';
import { refuseInDialect, SP_TOOL_FIX } from '../../wire/syncpostly/unsupported.js';

/** Rows counted per call at most; beyond it the answer says it is incomplete. */
export const MAX_STATS_SCAN = 20_000;

export const resultsStats: ToolDefinition = {
  name: 'results_stats',
  description:
    'Count publishing results (total, succeeded, failed) grouped by platform (default), error code, account or post, most failures first; the filters of list_results. A good first step for "why did posts fail".',
  inputSchema: {
    type: 'object',
    properties: {
      ...resultFilters,
      by: { type: 'string', enum: STATS_BY },
    },
    additionalProperties: false,
  },
  annotations: { title: 'Count publishing results', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  write: false,
  async run(args, tc) {
    const by = (str(args.by) ?? 'platform') as StatsBy;
    const { query, failedOnly, start } = readResultArgs(args, tc.deps.now());
    const client = await tc.deps.client();
    refuseInDialect(client.dialect, str(args.since) !== undefined || str(args.until) !== undefined, 'eventTime', str(args.since) !== undefined ? 'since' : 'until', SP_TOOL_FIX.window);
    const counter = createStatsCounter(by);
    const end = await walkResults(client, query, {
      offset: 0,
      window: start,
      pageSize: 100,
      maxScan: MAX_STATS_SCAN,
      now: tc.deps.now,
      visit(row) {
        if (!failedOnly || !row.success) counter.add(row);
        return false;
      },
    });
    const stats = counter.result();
    const complete = end.nextOffset === undefined;
    return {
      by,
      total: stats.total,
      succeeded: stats.succeeded,
      failed: stats.failed,
      groups: stats.groups.slice(0, MAX_ROWS),
      ...(stats.groups.length > MAX_ROWS ? { groups_left_out: stats.groups.length - MAX_ROWS } : {}),
      complete,
      ...(complete ? {} : { note: `counted the newest ${end.scanned} results only; narrow the window with since, or filter by post or platform` }),
    };
  },
};
