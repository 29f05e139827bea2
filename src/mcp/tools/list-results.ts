// list_results: publishing results, newest first, filtered, a page at a time with a cursor.
import { encodeCursor } from '../cursor.js';
import { walkResults } from '../result-pages.js';
import { trimResult, type ResultRow } from '../trim.js';
import type { ToolDefinition } from '../types.js';
import { DEFAULT_ROWS, int, listFields, resultFilters, str } from './fields.js';
import { readResultArgs } from './result-args.js';
import { refuseInDialect, SP_TOOL_FIX } from '../../wire/syncpostly/unsupported.js';

/** Rows read per call before answering with a cursor (a long scan for rare failures stays short). */
export const MAX_SCAN = 2_000;

export const listResults: ToolDefinition = {
  name: 'list_results',
  description:
    'Publishing results (one per platform of a post), newest first: success, error code and message, account, live URL. Filters: post_ids, platforms, failed_only, since/until.',
  inputSchema: {
    type: 'object',
    properties: { ...resultFilters, ...listFields },
    additionalProperties: false,
  },
  annotations: { title: 'List publishing results', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  write: false,
  async run(args, tc) {
    const limit = int(args.limit) ?? DEFAULT_ROWS;
    const { query, failedOnly, filters, start } = readResultArgs(args, tc.deps.now());
    const client = await tc.deps.client();
    refuseInDialect(client.dialect, str(args.since) !== undefined || str(args.until) !== undefined, 'eventTime', str(args.since) !== undefined ? 'since' : 'until', SP_TOOL_FIX.window);
    const rows: ResultRow[] = [];
    const clientSide = failedOnly || start.since !== undefined || start.until !== undefined;
    const end = await walkResults(client, query, {
      offset: start.offset,
      window: start,
      pageSize: clientSide ? 100 : limit,
      maxScan: MAX_SCAN,
      now: tc.deps.now,
      visit(row) {
        if (failedOnly && row.success) return false;
        rows.push(trimResult(row));
        return rows.length >= limit;
      },
    });
    const next = end.nextOffset !== undefined ? encodeCursor({ ...start, offset: end.nextOffset }, filters) : undefined;
    return {
      results: rows,
      count: rows.length,
      ...(next ? { next_cursor: next } : {}),
      ...(end.total !== undefined ? { total_unfiltered: end.total } : {}),
      ...(next && rows.length < limit ? { note: `scanned ${end.scanned} rows without filling the page; call again with next_cursor to look further` } : {}),
    };
  },
};
