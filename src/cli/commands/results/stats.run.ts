// `results stats`, run: one streaming pass over the selected results, then the counts.
import type { Context } from '../../context.js';
import { choice } from '../../flags/choice.js';
import { platforms as parsePlatforms } from '../../flags/choice.js';
import { splitList } from '../../flags/text.js';
import { flagError } from '../../flags/text.js';
import { PAGE } from '../../../wire/protocol.js';
import type { Column } from '../../../output/writers.js';
import { capHeapGrowth } from '../../../output/heap.js';
import { colorBar, createStatsCounter, STATS_BY, statsBar, statsDisplayRows, statsSummary, type StatsBy, type StatsDisplayRow } from '../../../results/stats.js';
import { DEFAULT_CONCURRENCY } from './list-flags.js';
import { selectedResults, windowOf } from './selection.js';
import type { StatsFlags } from './stats.js';

export async function runStats(ctx: Context, flags: StatsFlags): Promise<number> {
  const by = flags.by === undefined ? 'platform' : choice<StatsBy>('--by', flags.by, STATS_BY, { noun: 'grouping', listLabel: 'groupings' });
  const platform = parsePlatforms('--platform', flags.platform);
  const postId = splitList(flags.post);
  if ((flags.post ?? []).length > 0 && postId.length === 0) throw flagError('--post', 'give a post id');
  const window = windowOf(ctx, flags);

  capHeapGrowth();
  const client = await ctx.client();
  const out = ctx.output();
  const progress = out.rowProgress();
  const counter = createStatsCounter(by);
  let read = 0;
  const results = selectedResults(ctx, client, window, {
    query: { ...(postId.length ? { postId } : {}), ...(platform.length ? { platform } : {}) },
    pageSize: PAGE.maxLimit,
    concurrency: DEFAULT_CONCURRENCY,
    onPage: (p) => progress.update(read, p.total),
  });
  try {
    for await (const row of results) {
      read++;
      counter.add(row);
    }
  } finally {
    progress.done();
  }
  const stats = counter.result();
  const groups = statsDisplayRows(stats, { barWidth: Math.max(8, Math.min(40, (ctx.io.stdout.columns ?? 100) - 60)) });
  const columns: Column<StatsDisplayRow>[] = [
    { header: by, value: (g) => g.key },
    { header: 'total', value: (g) => String(g.total) },
    { header: 'succeeded', value: (g) => String(g.succeeded) },
    { header: 'failed', value: (g) => String(g.failed), pretty: (g, c) => (g.failed ? c.red(String(g.failed)) : String(g.failed)) },
    { header: 'failure rate', value: (g) => g.failure_rate.toFixed(4), pretty: (g) => g.rate },
    // Coloured here, at the cell: row fields are server data, and their escapes are made visible.
    { header: '', value: () => '', pretty: (g, c) => (c.enabled ? statsBar(g.succeeded, g.failed, g.barCells, colorBar(c.green, c.red)) : g.bar), tableOnly: true },
  ];
  await out.report(stats, groups, { kind: 'table', columns });
  out.footer(stats.groups.length ? statsSummary(stats) : 'no results in this selection');
  return 0;
}
