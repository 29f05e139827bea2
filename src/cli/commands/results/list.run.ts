// `results list`, run: page through post results (filters on the service, --failed/--succeeded
// while paging) and hand the rows to output.
import type { Context } from '../../context.js';
import { FLAG_DEFAULTS } from '../../flags/index.js';
import { platforms as parsePlatforms } from '../../flags/choice.js';
import { splitList } from '../../flags/text.js';
import { optionalWholeNumber } from '../../flags/number.js';
import { flagError } from '../../flags/text.js';
import { PAGE } from '../../../wire/protocol.js';
import type { PostResult } from '../../../wire/schemas.js';
import { capHeapGrowth } from '../../../output/heap.js';
import { resultView } from './columns.js';
import { footerText, type OutcomeFilter } from './footer.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './list-flags.js';
import type { ListFlags } from './list.js';
import { selectedResults, windowOf } from './selection.js';

export async function runList(ctx: Context, flags: ListFlags): Promise<number> {
  const platform = parsePlatforms('--platform', flags.platform);
  const postId = splitList(flags.post);
  // An empty value (an unset shell variable) must not silently widen the listing to everything.
  if ((flags.post ?? []).length > 0 && postId.length === 0) throw flagError('--post', 'give a post id');
  if ((flags.platform ?? []).length > 0 && platform.length === 0) throw flagError('--platform', 'give a platform id');
  const offset = optionalWholeNumber('--offset', flags.offset) ?? 0;
  const limit = optionalWholeNumber('--limit', flags.limit, { min: 1 }) ?? FLAG_DEFAULTS.limit;
  const concurrency = optionalWholeNumber('--concurrency', flags.concurrency, { min: 1, max: MAX_CONCURRENCY }) ?? DEFAULT_CONCURRENCY;
  const filter: OutcomeFilter = flags.failed ? 'failed' : flags.succeeded ? 'succeeded' : undefined;
  const all = Boolean(flags.all);
  const window = windowOf(ctx, flags);

  // Unfiltered with a limit: ask for just the rows needed, and no pages beyond them.
  const bounded = !all && !filter;
  const pageSize = bounded ? Math.min(limit, PAGE.maxLimit) : PAGE.maxLimit;
  const pagesNeeded = bounded ? Math.ceil(limit / pageSize) : Infinity;
  const inFlight = Math.max(1, Math.min(concurrency, pagesNeeded - 1));

  if (all) capHeapGrowth();
  const client = await ctx.client();
  const out = ctx.output();
  const progress = all ? out.rowProgress() : undefined;
  let total: number | undefined;
  let scanned = 0;
  let failedShown = 0;
  const keep = (row: PostResult) => (filter === 'failed' ? !row.success : filter === 'succeeded' ? row.success : true);

  const rows = selectedResults(ctx, client, window, {
    query: { ...(postId.length ? { postId } : {}), ...(platform.length ? { platform } : {}) },
    offset,
    pageSize,
    concurrency: inFlight,
    onTotal: (t) => (total = t),
    onPage: (p) => {
      total = p.total;
      progress?.update(offset + scanned, p.total);
    },
  });
  async function* selected() {
    let shown = 0;
    for await (const row of rows) {
      scanned++;
      if (!keep(row)) continue;
      yield row;
      shown++;
      if (!row.success) failedShown++;
      if (!all && shown >= limit) return;
    }
  }
  let shown: number;
  try {
    shown = await out.list(selected(), resultView(() => ctx.clock.now()));
  } finally {
    progress?.done();
  }
  out.footer(out.colors.dim(footerText({ offset, shown, scanned, total, failedShown, filter, all })));
  return 0;
}
