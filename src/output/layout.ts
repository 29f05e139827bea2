// Column widths for a table that must fit the terminal. Pure: sampled cell texts in, widths out.
//
// Order of sacrifice: while the minimums do not fit, the least important columns (highest
// `priority` number) are dropped; then long texts shrink to a readable width, widest first; then
// the least important columns shrink to their minimum. A column that would be cut and has a
// compact rendering ("5 platforms") uses it instead. A `shrink: 'never'` column (a URL) is never
// cut while something less important can give (see `shrink`). No column is made narrower than
// its header: one that cannot have that room is dropped.
import { displayWidth } from './width.js';

export interface LayoutColumn {
  header: string;
  /** Lower is more important; default 0. */
  priority?: number;
  /**
   * Nice to have (a relative time, an account name): dropped, least important first, before any
   * other column is cut below its natural width, so the texts that matter stay whole.
   */
  optional?: boolean;
  /** The widest cell that must be shown whole; other cells of the column may be cut. */
  wholeWidth?: number;
  /** Room to keep for cells not seen yet (a table that streams row by row decides on its first row). */
  expectedWidth?: number;
  /** Narrowest useful width (default 4, or less when the content is narrower). */
  minWidth?: number;
  /** Widest the column may grow. */
  maxWidth?: number;
  /**
   * `never`: do not cut (URLs, ids to copy); the column is dropped rather than cut, unless it has
   * a `minWidth`: then, when it is the least important column left, it takes whatever is left
   * (at least `minWidth`) instead of disappearing, because a cut link (OSC 8) still opens. A cell
   * wider than the line (without a `minWidth`: than half of it and than the longest real ids) is
   * cut like any text.
   */
  shrink?: 'cut' | 'never';
}

export interface ColumnPlacement {
  /** Index into the columns given. */
  index: number;
  width: number;
  /** Render this column with its compact alternative. */
  compact: boolean;
}

export interface TableLayout {
  /** The columns shown, in their original order. */
  columns: ColumnPlacement[];
  /** Indices of dropped columns. */
  dropped: number[];
}

export interface LayoutInput {
  columns: readonly LayoutColumn[];
  /** Sampled rows of flattened cell texts, one text per column. */
  rows: readonly (readonly string[])[];
  /** Sampled compact texts per row, for columns that have a compact rendering (else undefined). */
  compactRows?: readonly (readonly (string | undefined)[])[];
  /** Terminal width; 0 or less means no limit. */
  width: number;
  gap?: number;
}

const DEFAULT_MIN = 4;
/** Long texts shrink to this before any other column is cut. */
const COMFORTABLE = 24;
/** An id this wide is copied whole whatever the terminal ("result_" and a UUID is 43). */
export const LONGEST_ID = 48;

interface Working {
  index: number;
  priority: number;
  natural: number;
  /** The widest cell with no `maxWidth` cap: wider than `natural`, the column's cells are cut. */
  uncapped: number;
  compactNatural: number | undefined;
  compact: boolean;
  min: number;
  never: boolean;
  relaxed: boolean;
  minWidth: number | undefined;
  optional: boolean;
  wholeWidth: number | undefined;
  /** The header's width: a column is dropped rather than cut narrower than its header. */
  headerWidth: number;
}

export function layoutTable(input: LayoutInput): TableLayout {
  const gap = input.gap ?? 2;
  const limit = input.width > 0 ? input.width : Number.POSITIVE_INFINITY;
  const widest = (texts: (string | undefined)[], base: number) => texts.reduce<number>((w, t) => (t === undefined ? w : Math.max(w, displayWidth(t))), base);

  const all: Working[] = input.columns.map((c, index) => {
    const headerWidth = displayWidth(c.header);
    const cap = c.maxWidth ?? Number.POSITIVE_INFINITY;
    const uncapped = widest(input.rows.map((r) => r[index]), Math.max(headerWidth, c.expectedWidth ?? 0));
    const natural = Math.min(cap, uncapped);
    const compactTexts = input.compactRows?.map((r) => r[index]);
    const hasCompact = compactTexts?.some((t) => t !== undefined) ?? false;
    // A compact rendering is never cut, and neither is its header: "—" under "SCH…" says nothing.
    const compactNatural = hasCompact ? Math.min(cap, widest(compactTexts!, headerWidth)) : undefined;
    const w: Working = { index, priority: c.priority ?? 0, natural, uncapped, compactNatural, compact: false, min: 0, never: c.shrink === 'never', relaxed: false, minWidth: c.minWidth, optional: c.optional ?? false, wholeWidth: c.wholeWidth, headerWidth };
    w.min = minimumOf(w);
    return w;
  });

  // A compact rendering ("5 platforms") replaces a column only where it would otherwise be cut;
  // least important first, one at a time, since each switch frees room for the others. A column
  // held to its `maxWidth` is cut too (a platform list at its cap), though the layout gave it all.
  let layout = fit(all, limit, gap);
  for (;;) {
    const placed = new Map(layout.columns.map((p) => [p.index, p.width]));
    const next = [...all]
      .sort(leastImportantFirst)
      .find((c) => !c.compact && c.compactNatural !== undefined && c.compactNatural < c.natural && (placed.get(c.index) ?? 0) < c.uncapped);
    if (!next) return layout;
    next.compact = true;
    next.min = minimumOf(next);
    layout = fit(all, limit, gap);
  }
}

const current = (c: Working) => (c.compact ? c.compactNatural! : c.natural);
/** Least important first; among equals the rightmost goes first. */
const leastImportantFirst = (a: Working, b: Working) => b.priority - a.priority || b.index - a.index;

function fit(all: readonly Working[], limit: number, gap: number): TableLayout {
  const total = (set: Working[], pick: (c: Working) => number) => set.reduce((s, c) => s + pick(c), 0) + gap * Math.max(0, set.length - 1);
  let cols = all.map((c) => ({ ...c }));
  const dropped: number[] = [];
  // A never-cut cell is kept whole only up to a share of the line: all of it for a column with a
  // minWidth (a URL, which otherwise takes what is left once it is the least important); for one
  // without (an id to copy), half of it, or as wide as the longest ids services hand out (a
  // prefixed UUID) on a narrow terminal. Wider (a hostile id hundreds of characters long),
  // keeping it whole would only drop every other column: it is cut like any text instead.
  for (const c of cols) {
    if (c.never && !c.relaxed && c.natural > (c.minWidth === undefined ? Math.max(limit / 2, LONGEST_ID) : limit)) {
      c.relaxed = true;
      c.min = minimumOf(c);
    }
  }
  // Drop (or, for a never-cut column with a minWidth, relax) the least important until the
  // minimums fit.
  while (total(cols, (c) => c.min) > limit && cols.length > 1) {
    const victim = [...cols].sort(leastImportantFirst)[0]!;
    if (victim.never && !victim.relaxed && victim.minWidth !== undefined) {
      victim.relaxed = true;
      victim.min = minimumOf(victim);
      continue;
    }
    dropped.push(victim.index);
    cols = cols.filter((c) => c !== victim);
  }

  // Optional columns give way whole before a column that matters is cut (for a column with cells
  // that must be whole, before those cells are cut; its other cells may be cut as usual).
  const needed = (c: Working) => (c.optional || c.wholeWidth === undefined ? current(c) : Math.min(current(c), Math.max(c.wholeWidth, c.min)));
  while (total(cols, needed) > limit) {
    const victim = [...cols].filter((c) => c.optional).sort(leastImportantFirst)[0];
    if (!victim) break;
    dropped.push(victim.index);
    cols = cols.filter((c) => c !== victim);
  }

  const widths = new Map(cols.map((c) => [c, current(c)]));
  let excess = total(cols, current) - limit;
  const shrink = (order: Working[], floor: (c: Working) => number) => {
    for (const c of order) {
      if (excess <= 0) return;
      const give = Math.min(excess, widths.get(c)! - floor(c));
      if (give > 0) {
        widths.set(c, widths.get(c)! - give);
        excess -= give;
      }
    }
  };
  // A long text would be cut anyway, so it gives first (widest first) down to a readable width;
  // only then do the least important columns shrink, each down to its minimum.
  shrink([...cols].sort((a, b) => current(b) - current(a)), (c) => Math.max(c.min, COMFORTABLE));
  shrink([...cols].sort((a, b) => b.priority - a.priority || current(b) - current(a)), (c) => c.min);
  // Only one column left and it is still too wide: it gets the whole line.
  if (excess > 0 && cols.length === 1) widths.set(cols[0]!, Math.max(1, limit));
  return {
    columns: cols.map((c) => ({ index: c.index, width: widths.get(c)!, compact: c.compact })),
    dropped: dropped.sort((a, b) => a - b),
  };
}

function minimumOf(c: Working): number {
  // A compact rendering is already the short form: cut, it says nothing ("5 p…").
  if (c.compact) return c.compactNatural!;
  if (c.never && !c.relaxed) return c.natural;
  // "SCH…" over a column names nothing: a header stays whole, its cells are cut below it.
  return Math.min(c.natural, Math.max(c.minWidth ?? DEFAULT_MIN, c.headerWidth));
}
