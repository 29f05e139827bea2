// Counts rows as `results stats` and the MCP tool do: through the stats counter.
import { createStatsCounter, type Stats, type StatsDimension, type StatsRow } from '../../src/results/stats.js';

export async function computeStats(rows: AsyncIterable<StatsRow> | Iterable<StatsRow>, by: StatsDimension | readonly StatsDimension[] = 'platform'): Promise<Stats> {
  const counter = createStatsCounter(by);
  for await (const row of rows) counter.add(row);
  return counter.result();
}
