// The rows a results command reads: the service's filters (--post, --platform), and with
// --since/--until the window over event times, which stops paging at the first page wholly older
// than --since (results come newest first). Shared by list and stats.
import type { Context } from '../../context.js';
import type { ApiClient, IterateOptions, ResultListQuery } from '../../../client/types.js';
import { BudgetError, LARGE_READ_SHARE } from '../../../client/budget.js';
import { PAGE } from '../../../wire/protocol.js';
import type { PostResult } from '../../../wire/schemas.js';
import { parseWindow, type TimeWindow } from '../../../results/since.js';
import { checkPostId } from '../../../posts/find.js';
import { windowRows } from '../../../results/window-pages.js';
import { userZone } from '../../../posts/zone.js';
import { platforms as parsePlatforms } from '../../flags/choice.js';
import { splitList } from '../../flags/text.js';
import { flagError } from '../../flags/text.js';
import type { OutcomeFilter } from './footer.js';
import { columnField, selectColumns } from '../../../output/fields.js';
import { layoutTable } from '../../../output/layout.js';
import type { Column } from '../../../output/writers.js';
import { fieldsOf } from '../../fields-of.js';
import type { ListFlags } from './list.js';
import type { Output } from '../../../output/output.js';
import { visibleLine } from '../../../output/terminal-safe.js';

/** --since, --until and --tz, as `results list` and `results stats` both define them. */
export type WindowFlags = Pick<ListFlags, 'since' | 'until' | 'tz'>;

/** The filters of `results list` and `results stats`: on the service (--post, --platform) or while paging. */
export interface FilterFlags {
  post?: string[];
  platform?: string[];
  code?: string[];
  failed?: boolean;
  succeeded?: boolean;
}

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

/** The filter flags read before anything is sent; an empty value (an unset shell variable) is refused. */
export function rowFilter(flags: FilterFlags): RowFilter {
  const platform = parsePlatforms('--platform', flags.platform);
  const postId = splitList(flags.post).map((id) => checkPostId(id, '--post'));
  const codes = splitList(flags.code).map((c) => c.toUpperCase());
  if ((flags.post ?? []).length > 0 && postId.length === 0) throw flagError('--post', 'give a post id');
  if ((flags.platform ?? []).length > 0 && platform.length === 0) throw flagError('--platform', 'give a platform id');
  if ((flags.code?.length ?? 0) > 0 && codes.length === 0) throw flagError('--code', 'give an error code, e.g. --code MEDIA_REJECTED');
  if (codes.length > 0 && flags.succeeded) throw flagError('--code', 'an error code selects failures: it cannot be combined with --succeeded');
  const query = { ...(postId.length ? { postId } : {}), ...(platform.length ? { platform } : {}) };
  if (codes.length > 0) {
    const wanted = new Set(codes);
    const code = (row: PostResult) => (typeof row.error?.code === 'string' ? row.error.code.toUpperCase() : '');
    return { query, keep: (row) => !row.success && wanted.has(code(row)), outcome: 'failed', codes };
  }
  if (flags.failed) return { query, keep: (row) => !row.success, outcome: 'failed' };
  if (flags.succeeded) return { query, keep: (row) => row.success, outcome: 'succeeded' };
  return { query, outcome: undefined };
}

/**
 * With --code, the codes the scanned failures had: a code typed from memory that matches nothing
 * ("MEDIA_REJECT") is answered with the ones there are, most frequent first.
 */
export function codeTally(filters: RowFilter): { add(row: PostResult): void; tell(out: Pick<Output, 'info'>): void } | undefined {
  const asked = filters.codes;
  if (!asked) return undefined;
  const seen = new Map<string, number>();
  return {
    add(row) {
      if (!row.success && typeof row.error?.code === 'string') seen.set(row.error.code, (seen.get(row.error.code) ?? 0) + 1);
    },
    tell(out) {
      if (seen.size === 0) return;
      const top = [...seen].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 10);
      const more = seen.size > top.length ? `, and ${seen.size - top.length} more` : '';
      const failures = [...seen.values()].reduce((n, c) => n + c, 0);
      out.info(visibleLine(`no failure had --code ${asked.join(',')}; the codes of the ${failures} failures scanned: ${top.map(([code, n]) => `${code} (${n})`).join(', ')}${more}`));
    },
  };
}

export interface SelectionOptions extends IterateOptions {
  query: ResultListQuery;
}

/**
 * Columns asked for with --fields that a table this wide cannot show at all, even cut to their
 * narrowest (told on stderr, never dropped silently). Judged on the headers and the columns'
 * minimum widths, before any row arrives.
 */
export function fieldsWithoutRoom<T>(columns: readonly Column<T>[], fields: readonly string[] | undefined, width: number | undefined): string[] {
  if (!fields || !width) return [];
  const selected = selectColumns(columns, fields, fieldsOf('results list'));
  const layout = layoutTable({ columns: selected, rows: [], width });
  return layout.dropped.map((i) => columnField(selected[i]!));
}

/** --since/--until read before anything is sent (undefined when neither is given). */
export function windowOf(ctx: Context, flags: WindowFlags): TimeWindow | undefined {
  if (flags.since === undefined && flags.until === undefined) return undefined;
  return parseWindow({ since: flags.since, until: flags.until, now: ctx.clock.now(), zone: userZone(ctx.env, flags.tz) });
}

export function selectedResults(ctx: Context, client: ApiClient, window: TimeWindow | undefined, options: SelectionOptions): AsyncIterable<PostResult> {
  const { query, ...paging } = options;
  if (!window) return client.results.iterate(query, paging);
  let pages = 0;
  return windowRows(client, query, window, {
    ...paging,
    onSeek: (offset) => ctx.debug(`--until: started at row ${offset} (found by single-row probes)`),
    onWindowPage: (page) => {
      pages++;
      if (page.stop) ctx.debug(`--since: stopped after ${pages} page(s): the last one is wholly older than the window`);
    },
  });
}

/**
 * The read budget of a results scan. `everyPage` (--all, stats without --since): once the first
 * page gives the total, the pages still to read are weighed against what the read limit has left
 * and a read that would use more than half of it is not started (on a terminal, the user is asked).
 * A scan filtered while paging (--failed, --code) may stop anywhere, so it is weighed as it goes:
 * it stops once it has used half of what was left when it began, saying so and how to narrow it.
 */
export function readBudgetGuard(
  ctx: Context,
  client: ApiClient,
  scan: { offset: number; everyPage: boolean; filtered: boolean; what: string },
): Pick<IterateOptions, 'onTotal' | 'onPage'> {
  const budget = client.budget;
  if (!budget) return {};
  const cuts = ['--since DUR (e.g. --since 24h) reads only the recent pages', '--post ID or --platform P are filtered by the service, not while paging'];
  let startLeft: number | undefined;
  let pages = 0;
  return {
    async onTotal(total) {
      startLeft = budget.readsUsable();
      if (!scan.everyPage) return;
      const more = Math.max(0, Math.ceil((total - scan.offset) / PAGE.maxLimit) - 1);
      try {
        budget.checkLargeRead(more, scan.what, cuts);
      } catch (err) {
        if (!ctx.globals.interactive || !(err instanceof BudgetError)) throw err;
        if (!(await ctx.prompter().confirm({ message: `${err.message}. Read every page anyway?`, default: false }))) throw err;
      }
    },
    onPage() {
      pages++;
      if (!scan.filtered || scan.everyPage || startLeft === undefined || pages <= startLeft * LARGE_READ_SHARE) return;
      throw new BudgetError(`stopped after ${pages} pages: ${scan.what} filtered while paging has used half of the ${startLeft} reads the read limit had left for this workspace`, {
        code: 'READ_BUDGET',
        cuts: [...cuts, '--spend-budget to scan on anyway, or --max-requests N to cap the cost'],
      });
    },
  };
}
