// `results stats`, run: one streaming pass over the selected results, then the counts.
import type { Context } from '../../context.js';
import { choices } from '../../flags/choice.js';
import { flagError } from '../../flags/text.js';
import { FLAG_DEFAULTS } from '../../flags/index.js';
import { PAGE } from '../../../wire/protocol.js';
import type { Column } from '../../../output/writers.js';
import { capHeapGrowth } from '../../../output/heap.js';
import { selectColumns } from '../../../output/fields.js';
import { displayWidth } from '../../../output/width.js';
import { plainColors } from '../../../output/colors.js';
import { checkFields } from '../../../output/fields.js';
import { userZone } from '../../../posts/zone.js';
import { colorBar, createStatsCounter, eachDisplayRow, failureRate, formatRate, NO_ACCOUNT_KEY, repaintBar, STATS_DIMENSIONS, statsSummary, type StatsDimension, type StatsGroup } from '../../../results/stats.js';
import { readBudgetGuard, rowFilter, windowOf } from './selection.js';
import { codeTally, selectedResults } from '../../../results/selection.js';
import { visibleLine } from '../../../output/terminal-safe.js';
import { fieldsOf } from '../../../output/fields-of.js';
import { formatCount } from '../../../output/time.js';
import type { StatsFlags } from './stats.js';
import { accountFlag, narrowToAccounts } from '../accounts/select.js';
import { refuseUnsupported, windowChecks } from '../../dialect-refusals.js';

/** Widest a bar gets, and the narrowest worth drawing. */
const BAR_MAX = 40;
const BAR_MIN = 4;
const GAP = 2;
/** What --fields may name in the --json object. */
const STATS_OBJECT_FIELDS = ['total', 'succeeded', 'failed', 'groups'];

/** `--by`: one grouping, or two separated by a comma (platform,code). */
export function statsDimensions(value: string | undefined): StatsDimension[] {
  if (value === undefined) return ['platform'];
  const dims = choices<StatsDimension>('--by', [value], STATS_DIMENSIONS, { noun: 'grouping', listLabel: 'groupings' });
  if (dims.length === 0) throw flagError('--by', 'give a grouping', [`groupings: ${STATS_DIMENSIONS.join(', ')}`]);
  if (dims.length > 2) throw flagError('--by', `groups by one or two at a time, not ${dims.length}`, ['e.g. --by platform,code']);
  return dims;
}

export async function runStats(ctx: Context, flags: StatsFlags): Promise<number> {
  await refuseUnsupported(ctx, windowChecks(flags));
  const dims = statsDimensions(flags.by);
  let filters = rowFilter(flags);
  const zone = userZone(ctx.env, flags.tz);
  const window = windowOf(ctx, flags);
  // Grouped by code, each group is failures only: its share of all failures says more than its rate (100%).
  let allFailed = 0;
  const columns = statsColumns(dims, () => allFailed);
  const out = ctx.output();
  // A misspelt --fields is exit 2 before any request, even when no group would come back.
  const fields = ctx.globals.fields;
  if (fields && out.structured) checkFields(fields, STATS_OBJECT_FIELDS);
  const shown = fields && !out.structured ? selectColumns(columns, fields, fieldsOf('results stats')) : columns;

  // Live memory here is the groups (400,000 for --by post over a million results), and printing
  // them makes as much garbage again: collect at half again the live size, not at twice it.
  capHeapGrowth(50);
  const client = await ctx.client();
  const chosen = await accountFlag(ctx, client, flags.account);
  if (chosen) filters = narrowToAccounts(filters, chosen.accounts);
  const progress = out.rowProgress();
  const counter = createStatsCounter(dims, { zone });
  const codes = codeTally(filters);
  let read = 0;
  const results = selectedResults(client, window, {
    debug: (line) => ctx.debug(line),
    query: filters.query,
    pageSize: PAGE.maxLimit,
    concurrency: FLAG_DEFAULTS.concurrency,
    // Without --since every page is read: weighed against the read limit before the second.
    ...readBudgetGuard(ctx, client, { offset: 0, everyPage: !window, filtered: false, what: 'counting every result' }),
    onPage: (p) => progress.update(read, p.total),
  });
  try {
    for await (const row of results) {
      read++;
      codes?.add(row);
      if (!filters.keep || filters.keep(row)) counter.add(row);
    }
  } finally {
    progress.done();
  }
  const stats = counter.result();
  allFailed = stats.failed;
  // The bar takes the room the other columns leave, so they are never cut for it.
  // Bars are for a person at a terminal; piped, nothing is spent on them.
  // A pty that reports 0 columns is of unknown width (|| 100), not 0 wide: the bars still show.
  const room = out.structured || !out.stdoutIsTTY ? 0 : (ctx.io.stdout.columns || 100) - textWidth(shown.filter((c) => !c.tableOnly), eachDisplayRow(stats, { barWidth: 0 })) - GAP;
  // On a terminal, made as they are printed (with a bar each); piped, the groups themselves: a
  // new object per group would raise the peak by a fifth for --by post over a million results.
  const groups: Iterable<StatsRow> = out.stdoutIsTTY && !out.structured ? { [Symbol.iterator]: () => eachDisplayRow(stats, { barWidth: room >= BAR_MIN ? Math.min(BAR_MAX, room) : 0 }) } : stats.groups;
  await out.report(stats, groups, { kind: 'table', columns, fields: fieldsOf('results stats') });
  out.footer(stats.groups.length ? statsSummary(stats, formatCount) : 'no results in this selection');
  if (stats.total === 0) codes?.tell((line) => out.info(visibleLine(line)));
  return 0;
}

/** A group as printed: on a terminal with its bar (eachDisplayRow), piped as it was counted. */
type StatsRow = StatsGroup & { bar?: string };

/** The columns: the grouping (one or two), the counts, the rate, and a bar on a terminal. */
function statsColumns(dims: readonly StatsDimension[], allFailed: () => number): Column<StatsRow>[] {
  const share = (g: StatsRow) => (allFailed() > 0 ? g.failed / allFailed() : 0);
  // On a narrow terminal the account id goes before the platform and handle beside it: these tell
  // a person which account it is (and tell two apart) as well, and `--account` takes them too.
  const idPriority = (d: StatsDimension) => (d === 'account' ? { priority: 6 } : {});
  const groupColumns: Column<StatsRow>[] =
    dims.length === 1
      ? [{ header: dims[0]!, field: 'key', value: (g) => g.key, shrink: 'never', minWidth: 8, ...idPriority(dims[0]!) }]
      : dims.map((d) => ({ header: d, field: d, value: (g: StatsRow) => g[d] ?? '', shrink: 'never' as const, minWidth: 8, ...idPriority(d) }));
  return [
    ...groupColumns,
    // Beside the account id: who it is, and on which platform (one handle may be on several);
    // as important as the counts and before them, so a narrow terminal drops the rate (which total
    // and failed give) rather than the handle: without it two accounts of a platform read as one row.
    ...(dims.includes('account') && !dims.includes('platform') ? [{ header: 'platform', field: 'platform', value: (g: StatsRow) => g.platform ?? '', priority: 1 }] : []),
    // The rows tied to no account have no handle: on a terminal the column says so, since the id
    // column that would is the first to give way.
    ...(dims.includes('account') ? [{ header: 'username', field: 'username', value: (g: StatsRow) => g.username ?? '', pretty: (g: StatsRow) => (g.username ? (g.username.startsWith('@') ? g.username : `@${g.username}`) : (dims.length === 1 ? g.key : g.account) === NO_ACCOUNT_KEY ? NO_ACCOUNT_KEY : ''), priority: 1, shrink: 'never' as const }] : []),
    // Counts are short: cut to "SUC…" / "FAI…" their headers say nothing, so they are never
    // narrower than the header, and the least important column goes instead.
    { header: 'total', value: (g) => String(g.total), priority: 1, minWidth: 5 },
    { header: 'succeeded', value: (g) => String(g.succeeded), priority: 2, minWidth: 9 },
    { header: 'failed', value: (g) => String(g.failed), pretty: (g, c) => (g.failed ? c.red(String(g.failed)) : String(g.failed)), priority: 1, minWidth: 6 },
    dims.includes('code')
      ? { header: 'share of failures', field: 'failure_share', value: (g) => share(g).toFixed(4), pretty: (g) => formatRate(share(g)), priority: 1, minWidth: 17 }
      : { header: 'failure rate', field: 'failure_rate', value: (g) => failureRate(g).toFixed(4), pretty: (g) => formatRate(failureRate(g)), priority: 1, minWidth: 12 },
    // Rows carry the plain bar (█ and ░); on a colour terminal it is painted as the table is drawn.
    { header: '', field: 'bar', value: () => '', pretty: (g, c) => (c.enabled ? repaintBar(g.bar ?? '', colorBar(c.green, c.red)) : (g.bar ?? '')), tableOnly: true, priority: 9 },
  ];
}

/** The width the text columns take on a terminal, gaps included. */
function textWidth(columns: readonly Column<StatsRow>[], rows: Iterable<StatsRow>): number {
  const widths = columns.map((c) => displayWidth(c.header));
  for (const r of rows) columns.forEach((c, i) => (widths[i] = Math.max(widths[i]!, displayWidth(c.pretty ? c.pretty(r, plainColors) : c.value(r)))));
  return widths.reduce((sum, w) => sum + w + GAP, 0);
}
