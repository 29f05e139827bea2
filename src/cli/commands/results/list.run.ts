// `results list`, run: page through post results (filters on the service, --failed/--succeeded
// while paging) and hand the rows to output.
import type { Context } from '../../context.js';
import { FLAG_DEFAULTS } from '../../flags/index.js';
import { optionalWholeNumber } from '../../flags/number.js';
import { PAGE } from '../../../wire/protocol.js';
import { capHeapGrowth } from '../../../output/heap.js';
import { checkResultFields, resultView } from '../../../output/result-columns.js';
import { footerText } from '../../../output/results-footer.js';
import { cutByLimitText, resumeHint } from '../../../output/cut-notice.js';
import { addHints } from '../../cli-error.js';
import { runFollow } from './list-follow.js';
import type { ListFlags } from './list.js';
import { readBudgetGuard, rowFilter, windowOf } from './selection.js';
import { codeTally, selectedResults } from '../../../results/selection.js';
import { fieldsWithoutRoom } from '../../../output/fields.js';
import { fieldsOf } from '../../../output/fields-of.js';
import { visibleLine } from '../../../output/terminal-safe.js';
import { accountFlag, narrowToAccounts } from '../accounts/select.js';
import { refuseUnsupported, resultsHaveTime, windowChecks } from '../../dialect-refusals.js';

export async function runList(ctx: Context, flags: ListFlags): Promise<number> {
  await refuseUnsupported(ctx, windowChecks(flags));
  let filters = rowFilter(flags);
  const view = resultView(() => ctx.clock.now());
  checkResultFields(ctx.globals.fields, view.columns);
  const out = ctx.output();
  if (out.stdoutIsTTY && !out.structured) {
    const lost = fieldsWithoutRoom(view.columns, ctx.globals.fields, ctx.io.stdout.columns, fieldsOf('results list'));
    if (lost.length) out.warn(`--fields: no room for ${lost.join(', ')} in ${ctx.io.stdout.columns} columns; a wider terminal, fewer fields or -o tsv shows ${lost.length > 1 ? 'them' : 'it'}`);
  }
  const chosen = await accountFlag(ctx, await ctx.client(), flags.account);
  if (chosen) filters = narrowToAccounts(filters, chosen.accounts);
  if (flags.follow) return runFollow(ctx, flags, filters);
  const offset = optionalWholeNumber('--offset', flags.offset) ?? 0;
  const limit = optionalWholeNumber('--limit', flags.limit, { min: 1 }) ?? FLAG_DEFAULTS.limit;
  const concurrency = optionalWholeNumber('--concurrency', flags.concurrency, { min: 1, max: FLAG_DEFAULTS.maxConcurrency }) ?? FLAG_DEFAULTS.concurrency;
  const keep = filters.keep ?? (() => true);
  const all = Boolean(flags.all);
  const window = windowOf(ctx, flags);

  // Unfiltered with a limit: ask for just the rows needed, and no pages beyond them.
  const bounded = !all && !filters.keep;
  const pageSize = bounded ? Math.min(limit, PAGE.maxLimit) : PAGE.maxLimit;
  const pagesNeeded = bounded ? Math.ceil(limit / pageSize) : Infinity;
  const inFlight = Math.max(1, Math.min(concurrency, pagesNeeded - 1));

  if (all) capHeapGrowth();
  // jq over the whole array needs every row at once: over a million rows that is gigabytes
  // (a filter of the form .[] | … does not, and streams: output/jq-pieces.ts).
  if (all && out.jqCollects) out.info('--jq with --json runs once over every row, all held in memory; for a large list, -o ndjson --jq runs the filter on each row as it streams, and so does a --json filter that starts with .[] |');
  const client = await ctx.client();
  const progress = all ? out.rowProgress() : undefined;
  let total: number | undefined;
  let scanned = 0;
  let failedShown = 0;
  const codes = codeTally(filters);

  const guard = readBudgetGuard(ctx, client, { offset, everyPage: all && !window, filtered: Boolean(filters.keep) && !window, what: 'listing every result' });
  const rows = selectedResults(client, window, {
    debug: (line) => ctx.debug(line),
    query: filters.query,
    offset,
    pageSize,
    concurrency: inFlight,
    onTotal: async (t) => {
      total = t;
      await guard.onTotal?.(t);
    },
    onPage: (p) => {
      total = p.total;
      progress?.update(offset + scanned, p.total);
      guard.onPage?.(p);
    },
  });
  let written = 0;
  let lastTime: string | undefined;
  async function* selected() {
    let shown = 0;
    for await (const row of rows) {
      scanned++;
      codes?.add(row);
      if (!keep(row)) continue;
      yield row;
      written = ++shown;
      lastTime = typeof row.created_at === 'string' ? row.created_at : lastTime;
      if (!row.success) failedShown++;
      if (!all && shown >= limit) return;
    }
  }
  const shownView = resultView(() => ctx.clock.now(), { timeless: !(await resultsHaveTime(ctx)) });
  let shown: number;
  try {
    shown = await out.list(selected(), shownView);
  } catch (err) {
    // An export that failed part-way: where the rows written end, and how to fetch the rest.
    const resume = resumeHint(lastTime, written);
    throw resume ? addHints(err, [resume]) : err;
  } finally {
    progress?.done();
  }
  // Rows the client dropped without an outcome filter: a service that ignores social_account_id
  // sent every account's, so the counts are of rows scanned, not of rows like those shown.
  const kind = filters.outcome ?? (scanned > shown ? 'matching' : undefined);
  out.footer(out.colors.dim(footerText({ offset, shown, scanned, total, failedShown, filter: kind, all })));
  const cut = all || shown < limit ? undefined : cutByLimitText({ shown, total, offset, scanned, kind });
  if (cut) out.cut(cut);
  if (shown === 0) codes?.tell((line) => out.info(visibleLine(line)));
  return 0;
}

