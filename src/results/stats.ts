// `results stats`: counts of the selected rows, grouped by platform, error code, account or post.
// Streams: one pass, memory grows with the number of groups only, never with the rows.
import type { PostResult } from '../wire/schemas.js';

export const STATS_BY = ['platform', 'code', 'account', 'post'] as const;
export type StatsBy = (typeof STATS_BY)[number];

/** Keys for rows that have no value for the grouping field. */
export const SUCCEEDED_KEY = '(succeeded)';
export const NO_CODE_KEY = '(no code)';
export const NO_ACCOUNT_KEY = '(no account)';
export const NO_PLATFORM_KEY = '(no platform)';

export interface StatsGroup {
  key: string;
  total: number;
  succeeded: number;
  failed: number;
}

/** The `--json` shape: a public interface, fields are only ever added. */
export interface Stats {
  total: number;
  succeeded: number;
  failed: number;
  groups: StatsGroup[];
}

type StatsRow = Pick<PostResult, 'success' | 'platform' | 'error' | 'social_account_id' | 'post_id'>;

/** The group a row counts in: successes have their own key when grouping by error code. */
export function groupKey(row: StatsRow, by: StatsBy): string {
  switch (by) {
    case 'platform':
      return row.platform || NO_PLATFORM_KEY;
    case 'code':
      return row.success ? SUCCEEDED_KEY : row.error?.code || NO_CODE_KEY;
    case 'account':
      return row.social_account_id || NO_ACCOUNT_KEY;
    case 'post':
      return row.post_id;
  }
}

export interface StatsCounter {
  add(row: StatsRow): void;
  /** The counts so far, groups sorted by failures (most first), then by key. */
  result(): Stats;
}

export function createStatsCounter(by: StatsBy = 'platform'): StatsCounter {
  const groups = new Map<string, StatsGroup>();
  let succeeded = 0;
  let failed = 0;
  return {
    add(row) {
      const key = groupKey(row, by);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { key, total: 0, succeeded: 0, failed: 0 }));
      g.total++;
      if (row.success) {
        g.succeeded++;
        succeeded++;
      } else {
        g.failed++;
        failed++;
      }
    },
    result() {
      const list = [...groups.values()].map((g) => ({ ...g }));
      list.sort((a, b) => b.failed - a.failed || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      return { total: succeeded + failed, succeeded, failed, groups: list };
    },
  };
}

/** Counts a stream of rows (already windowed and filtered by the caller). */
export async function computeStats(rows: AsyncIterable<StatsRow> | Iterable<StatsRow>, by: StatsBy = 'platform'): Promise<Stats> {
  const counter = createStatsCounter(by);
  for await (const row of rows) counter.add(row);
  return counter.result();
}

/** Failed share of a group, 0..1 (0 for an empty group). */
export function failureRate(g: Pick<StatsGroup, 'total' | 'failed'>): number {
  return g.total > 0 ? g.failed / g.total : 0;
}

/** "12.5%": one decimal below 10 %, none above; "0%" and "100%" exact. */
export function formatRate(rate: number): string {
  const pct = rate * 100;
  if (pct === 0 || pct === 100) return `${pct}%`;
  return pct < 10 ? `${pct.toFixed(1)}%` : `${Math.round(pct)}%`;
}

/** The rows of the table and the TSV: one per group, with its failure rate. */
export function statsRows(stats: Stats): (StatsGroup & { failure_rate: number })[] {
  return stats.groups.map((g) => ({ ...g, failure_rate: failureRate(g) }));
}

/** One line under the table: "1,204 results: 1,080 succeeded, 124 failed (10%)". */
export function statsSummary(stats: Stats): string {
  const n = (v: number) => v.toLocaleString('en-US');
  return `${n(stats.total)} result${stats.total === 1 ? '' : 's'}: ${n(stats.succeeded)} succeeded, ${n(stats.failed)} failed (${formatRate(failureRate(stats))})`;
}

/** How the two parts of a bar are drawn: two colours of one glyph, or two glyphs without colour. */
export interface BarStyle {
  succeeded(cells: number): string;
  failed(cells: number): string;
}

/** No colour: full blocks for successes, light shade for failures. */
export const GLYPH_BAR: BarStyle = {
  succeeded: (n) => '█'.repeat(n),
  failed: (n) => '░'.repeat(n),
};

/** Colour: one glyph painted by the caller's two paint functions (chalk.green / chalk.red). */
export function colorBar(paintSucceeded: (s: string) => string, paintFailed: (s: string) => string, glyph = '█'): BarStyle {
  return {
    succeeded: (n) => (n > 0 ? paintSucceeded(glyph.repeat(n)) : ''),
    failed: (n) => (n > 0 ? paintFailed(glyph.repeat(n)) : ''),
  };
}

/**
 * A bar of exactly `width` cells split between successes and failures in proportion. A part
 * that is not zero gets at least one cell (a single failure among thousands stays visible)
 * when the bar has room for both.
 */
export function statsBar(succeeded: number, failed: number, width: number, style: BarStyle = GLYPH_BAR): string {
  const cells = Math.max(0, Math.floor(width));
  const total = succeeded + failed;
  if (cells === 0 || total <= 0) return '';
  let bad = Math.round((failed / total) * cells);
  if (failed > 0 && bad === 0) bad = 1;
  if (succeeded > 0 && bad === cells && cells > 1) bad = cells - 1;
  return style.succeeded(cells - bad) + style.failed(bad);
}

/** Bar width for a group so bars compare across groups: the largest group fills `maxWidth`. */
export function barWidth(total: number, largestTotal: number, maxWidth: number): number {
  if (total <= 0 || largestTotal <= 0 || maxWidth <= 0) return 0;
  return Math.max(1, Math.round((total / largestTotal) * maxWidth));
}

export interface StatsDisplayRow extends StatsGroup {
  /** The share failed, from 0 to 1 (the TSV and JSON value). */
  failure_rate: number;
  /** "13%". */
  rate: string;
  /** Succeeded and failed cells, scaled so the largest group fills `barWidth`, without colour. */
  bar: string;
  /** The bar's width in cells, for drawing it again in colour where colour is allowed. */
  barCells: number;
}

/** The terminal table's rows: each group with its rate as text and its bar (a column like any other). */
export function statsDisplayRows(stats: Stats, options: { barWidth: number }): StatsDisplayRow[] {
  // A loop, not Math.max(...totals): a spread of 120,000 groups overflows the call stack.
  let largest = 0;
  for (const g of stats.groups) if (g.total > largest) largest = g.total;
  return statsRows(stats).map((g) => {
    const barCells = barWidth(g.total, largest, options.barWidth);
    return { ...g, rate: formatRate(g.failure_rate), bar: statsBar(g.succeeded, g.failed, barCells), barCells };
  });
}
