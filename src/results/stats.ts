// `results stats`: counts of the selected rows, grouped by platform, error code, account, post or
// day, or by two of them (platform,code). Streams: one pass, memory grows with the number of
// groups only, never with the rows.
import type { PostResult } from '../wire/schemas.js';

export const STATS_BY = ['platform', 'code', 'account', 'post'] as const;
export type StatsBy = (typeof STATS_BY)[number];
/** What `--by` may name, alone or two with a comma. */
export const STATS_DIMENSIONS = [...STATS_BY, 'day'] as const;
export type StatsDimension = (typeof STATS_DIMENSIONS)[number];

/** Keys for rows that have no value for the grouping field. */
export const SUCCEEDED_KEY = '(succeeded)';
export const NO_CODE_KEY = '(no code)';
export const NO_ACCOUNT_KEY = '(no account)';
export const NO_PLATFORM_KEY = '(no platform)';
export const NO_TIME_KEY = '(no time)';

export interface StatsGroup {
  /** The group's value; grouped by two, both joined with a comma ("instagram,MEDIA_REJECTED"). */
  key: string;
  total: number;
  succeeded: number;
  failed: number;
  /** Grouped by two: each one's value under its own name ({ platform, code }). */
  platform?: string;
  code?: string;
  account?: string;
  post?: string;
  day?: string;
  /** Grouped by account: the account's username, when a row of it had one. */
  username?: string;
}

/** The `--json` shape: a public interface, fields are only ever added. */
export interface Stats {
  total: number;
  succeeded: number;
  failed: number;
  groups: StatsGroup[];
}

export type StatsRow = Pick<PostResult, 'success' | 'platform' | 'error' | 'social_account_id' | 'post_id'> & Partial<Pick<PostResult, 'created_at' | 'platform_data'>>;

export interface StatsOptions {
  /** IANA zone the days of `--by day` are counted in (default UTC). */
  zone?: string;
}

/**
 * "YYYY-MM-DD" of an instant in a zone; one formatter per zone, made on the first day asked for:
 * Intl's first formatter loads the locale data (~10 ms), which only `--by day` needs.
 */
function dayOf(zone: string): (iso: string | null | undefined) => string {
  let format: Intl.DateTimeFormat | undefined;
  return (iso) => {
    const t = typeof iso === 'string' ? Date.parse(iso) : NaN;
    if (Number.isNaN(t)) return NO_TIME_KEY;
    format ??= new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    return format.format(t);
  };
}

/** The group a row counts in: successes have their own key when grouping by error code. */
export function groupKey(row: StatsRow, by: StatsDimension, day: (iso: string | null | undefined) => string = dayOf('UTC')): string {
  switch (by) {
    case 'day':
      return day(row.created_at);
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

/** `--by` as given: one dimension or two; the same one twice is refused by the caller. */
export function createStatsCounter(by: StatsDimension | readonly StatsDimension[] = 'platform', options: StatsOptions = {}): StatsCounter {
  const dims: readonly StatsDimension[] = typeof by === 'string' ? [by] : by;
  const day = dayOf(options.zone ?? 'UTC');
  const byAccount = dims.includes('account');
  // Compact, since `--by post` over a million results makes hundreds of thousands of groups: a
  // group is an index into a list of keys and two arrays of counts (no object per group until
  // the result), which is less than half the memory of a Map of objects.
  const index = new Map<string, number>();
  const keys: string[] = [];
  const parts: (readonly string[])[] = [];
  const usernames = new Map<number, string>();
  // Grouped by account: its platform too, so two accounts with one handle on two platforms read apart.
  const accountPlatforms = new Map<number, string>();
  const platformOfAccount = byAccount && !dims.includes('platform');
  let totals = new Int32Array(256);
  let fails = new Int32Array(256);
  let succeeded = 0;
  let failed = 0;
  const grow = () => {
    const bigger = (a: Int32Array) => {
      const b = new Int32Array(a.length * 2);
      b.set(a);
      return b;
    };
    totals = bigger(totals);
    fails = bigger(fails);
  };
  return {
    add(row) {
      const values = dims.length === 1 ? undefined : dims.map((d) => groupKey(row, d, day));
      const key = values ? values.join(',') : groupKey(row, dims[0]!, day);
      let i = index.get(key);
      if (i === undefined) {
        i = keys.length;
        index.set(key, i);
        keys.push(key);
        if (values) parts.push(values);
        if (i >= totals.length) grow();
      }
      // The rows tied to no account may be of any platform and handle: their group names neither.
      const ofAccount = byAccount && !!row.social_account_id;
      if (ofAccount && !usernames.has(i)) {
        const name = row.platform_data?.username;
        if (typeof name === 'string' && name) usernames.set(i, name);
      }
      if (ofAccount && platformOfAccount && !accountPlatforms.has(i) && row.platform) accountPlatforms.set(i, row.platform);
      totals[i]!++;
      if (row.success) succeeded++;
      else {
        fails[i]!++;
        failed++;
      }
    },
    result() {
      const list: StatsGroup[] = keys.map((key, i) => {
        const g: StatsGroup = { key, total: totals[i]!, succeeded: totals[i]! - fails[i]!, failed: fails[i]! };
        if (values(i)) dims.forEach((d, j) => (g[d] = values(i)![j]!));
        const name = usernames.get(i);
        if (name !== undefined) g.username = name;
        const platform = accountPlatforms.get(i);
        if (platform !== undefined) g.platform = platform;
        return g;
      });
      const byKey = (a: StatsGroup, b: StatsGroup) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
      // Days read as a time line (and within a day, `--by day,code`, failures most first); other
      // groupings by failures, most first.
      const byFailures = (a: StatsGroup, b: StatsGroup) => b.failed - a.failed || byKey(a, b);
      const dayKey = (g: StatsGroup) => g.day ?? g.key;
      const byDay = (a: StatsGroup, b: StatsGroup) => (dayKey(a) < dayKey(b) ? -1 : dayKey(a) > dayKey(b) ? 1 : byFailures(a, b));
      list.sort(dims[0] === 'day' ? byDay : byFailures);
      // The groups are handed over: the index of them is garbage from here (it is as large as
      // they are for --by post), even while the caller still holds the counter.
      index.clear();
      return { total: succeeded + failed, succeeded, failed, groups: list };
    },
  };
  function values(i: number): readonly string[] | undefined {
    return dims.length > 1 ? parts[i] : undefined;
  }
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

/** The rows of the table and the TSV: one per group, with its failure rate and its share of all failures. */
export function statsRows(stats: Stats): (StatsGroup & { failure_rate: number })[] {
  // failure_share: the group's part of all failures (grouped by code, what a failure rate of 100% hides).
  return stats.groups.map((g) => ({ ...g, failure_rate: failureRate(g), failure_share: stats.failed > 0 ? g.failed / stats.failed : 0 }));
}

/**
 * One line under the table: "1,204 results: 1,080 succeeded, 124 failed (10%)", with the counts
 * written by `count` (output's formatCount, which groups digits without loading Intl's data).
 */
export function statsSummary(stats: Stats, count: (n: number) => string): string {
  return `${count(stats.total)} result${stats.total === 1 ? '' : 's'}: ${count(stats.succeeded)} succeeded, ${count(stats.failed)} failed (${formatRate(failureRate(stats))})`;
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
 * A GLYPH_BAR bar drawn again in another style. Rows carry the plain bar (text that output may
 * neutralise like any other); the colours are put on when the table draws it.
 */
export function repaintBar(bar: string, style: BarStyle): string {
  let good = 0;
  for (const ch of bar) if (ch === '█') good++;
  return style.succeeded(good) + style.failed([...bar].length - good);
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
}

/**
 * The terminal table's rows, one group at a time with its rate as text and its bar, made as they are printed: with hundreds of thousands of groups
 * (`--by post`), holding every row with its bar at once would cost several times the groups.
 */
export function* eachDisplayRow(stats: Stats, options: { barWidth: number; style?: BarStyle }): Generator<StatsDisplayRow> {
  // A reduce, not Math.max(...totals): a spread of 120,000 groups overflows the call stack.
  const largest = stats.groups.reduce((n, g) => Math.max(n, g.total), 0);
  for (const g of stats.groups) {
    const failure_rate = failureRate(g);
    yield { ...g, failure_rate, rate: formatRate(failure_rate), bar: statsBar(g.succeeded, g.failed, barWidth(g.total, largest, options.barWidth), options.style) };
  }
}
