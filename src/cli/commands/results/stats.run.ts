// `results stats`, run: one streaming pass over the selected results, then the counts.
import type { Context } from '../../context.js';
import { choice } from '../../flags/choice.js';
import { platforms as parsePlatforms } from '../../flags/choice.js';
import { splitList } from '../../flags/list.js';
import { flagError } from '../../flags/error.js';
import { PAGE } from '../../../wire/protocol.js';
import type { Column } from '../../../output/writers.js';
import { capHeapGrowth } from '../../../output/heap.js';
import { barWidth, colorBar, createStatsCounter, formatRate, GLYPH_BAR, STATS_BY, statsBar, statsRows, statsSummary, type StatsBy, type StatsGroup } from '../../../results/stats.js';
import { DEFAULT_CONCURRENCY } from './list-flags.js';
import { selectedResults, windowOf, type WindowFlags } from './selection.js';

export interface StatsFlags extends WindowFlags {
  by?: string;
  post: string[];
  platform: string[];
}

type Row = StatsGroup & { failure_rate: number };

export async function runStats(ctx: Context, flags: StatsFlags): Promise<number> {
  const by = flags.by === undefined ? 'platform' : choice<StatsBy>('--by', flags.by, STATS_BY, { noun: 'grouping', listLabel: 'groupings' });
  const platform = parsePlatforms('--platform', flags.platform);
  const postId = splitList(flags.post);
  if (flags.post.length > 0 && postId.length === 0) throw flagError('--post', 'give a post id');
  const window = windowOf(ctx, flags);

  capHeapGrowth();
  const client = await ctx.client();
  const out = ctx.output();
  const progress = out.rowProgress();
  const counter = createStatsCounter(by);
  let read = 0;
  const rows = selectedResults(ctx, client, window, {
    query: { ...(postId.length ? { postId } : {}), ...(platform.length ? { platform } : {}) },
    pageSize: PAGE.maxLimit,
    concurrency: DEFAULT_CONCURRENCY,
    onPage: (p) => progress.update(read, p.total),
  });
  try {
    for await (const row of rows) {
      read++;
      counter.add(row);
    }
  } finally {
    progress.done();
  }
  const stats = counter.result();
  const largest = Math.max(0, ...stats.groups.map((g) => g.total));
  const barMax = Math.max(8, Math.min(40, (ctx.io.stdout.columns ?? 100) - 60));
  const style = out.colors.enabled ? colorBar(out.colors.green, out.colors.red) : GLYPH_BAR;
  const columns: Column<Row>[] = [
    { header: by, value: (g) => g.key },
    { header: 'total', value: (g) => String(g.total) },
    { header: 'succeeded', value: (g) => String(g.succeeded) },
    { header: 'failed', value: (g) => String(g.failed), pretty: (g, c) => (g.failed ? c.red(String(g.failed)) : String(g.failed)) },
    { header: 'failure rate', value: (g) => g.failure_rate.toFixed(4), pretty: (g) => formatRate(g.failure_rate) },
    { header: '', value: () => '', pretty: (g) => statsBar(g.succeeded, g.failed, barWidth(g.total, largest, barMax), style), tableOnly: true },
  ];
  await out.report(stats, statsRows(stats), { columns });
  out.footer(stats.groups.length ? statsSummary(stats) : 'no results in this selection');
  return 0;
}
