// The rows a results command reads: the service's filters (--post, --platform), the rows kept of
// what it sends (--failed, --succeeded, --code), and with --since/--until the window over event
// times, which stops paging at the first page wholly older than --since (results come newest
// first). Shared by `results list` and `results stats`; the flags are read in the CLI.
import type { ApiClient, IterateOptions, ResultListQuery } from '../client/types.js';
import type { PostResult } from '../wire/schemas.js';
import type { TimeWindow } from './since.js';
import { windowRows } from './window-pages.js';

/** Which outcome the rows kept have (the footer says "failed" or "succeeded"); undefined: both. */
export type OutcomeFilter = 'failed' | 'succeeded' | undefined;

export interface RowFilter {
  /** What the service filters on. */
  query: ResultListQuery;
  /** Rows to keep of those the service sends (--failed, --succeeded, --code). */
  keep?: (row: PostResult) => boolean;
  /** For the footer: --code keeps failures only. */
  outcome: OutcomeFilter;
  /** --code as given (upper case), to say which codes there were when none matched. */
  codes?: string[];
}

/** What to select, already read and checked: post ids, platforms, error codes (upper case), an outcome. */
export interface Selection {
  postId: readonly string[];
  platform: readonly string[];
  codes: readonly string[];
  failed?: boolean | undefined;
  succeeded?: boolean | undefined;
}

export function rowFilterOf(s: Selection): RowFilter {
  const query = { ...(s.postId.length ? { postId: [...s.postId] } : {}), ...(s.platform.length ? { platform: [...s.platform] } : {}) };
  if (s.codes.length > 0) {
    const wanted = new Set(s.codes);
    const code = (row: PostResult) => (typeof row.error?.code === 'string' ? row.error.code.toUpperCase() : '');
    return { query, keep: (row) => !row.success && wanted.has(code(row)), outcome: 'failed', codes: [...s.codes] };
  }
  if (s.failed) return { query, keep: (row) => !row.success, outcome: 'failed' };
  if (s.succeeded) return { query, keep: (row) => row.success, outcome: 'succeeded' };
  return { query, outcome: undefined };
}

/**
 * With --code, the codes the scanned failures had: a code typed from memory that matches nothing
 * ("MEDIA_REJECT") is answered with the ones there are, most frequent first (`tell` gets the line).
 */
export function codeTally(filters: RowFilter): { add(row: PostResult): void; tell(say: (line: string) => void): void } | undefined {
  const asked = filters.codes;
  if (!asked) return undefined;
  const seen = new Map<string, number>();
  return {
    add(row) {
      if (!row.success && typeof row.error?.code === 'string') seen.set(row.error.code, (seen.get(row.error.code) ?? 0) + 1);
    },
    tell(say) {
      if (seen.size === 0) return;
      const top = [...seen].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 10);
      const more = seen.size > top.length ? `, and ${seen.size - top.length} more` : '';
      const failures = [...seen.values()].reduce((n, c) => n + c, 0);
      say(`no failure had --code ${asked.join(',')}; the codes of the ${failures} failures scanned: ${top.map(([code, n]) => `${code} (${n})`).join(', ')}${more}`);
    },
  };
}

export interface SelectionOptions extends IterateOptions {
  query: ResultListQuery;
  /** Told how the window was paged (where --until started, where --since stopped). */
  debug?: (line: string) => void;
}

export function selectedResults(client: ApiClient, window: TimeWindow | undefined, options: SelectionOptions): AsyncIterable<PostResult> {
  const { query, debug, ...paging } = options;
  if (!window) return client.results.iterate(query, paging);
  let pages = 0;
  return windowRows(client, query, window, {
    ...paging,
    onSeek: (offset) => debug?.(`--until: started at row ${offset} (found by single-row probes)`),
    onWindowPage: (page) => {
      pages++;
      if (page.stop) debug?.(`--since: stopped after ${pages} page(s): the last one is wholly older than the window`);
    },
  });
}
