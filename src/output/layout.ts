// Column widths for a table that must fit the terminal. Pure: sampled cell texts in, widths out.
//
// Order of sacrifice: columns with a compact rendering switch to it; then the least important
// columns (highest `priority` number) shrink, widest first, down to their minimum; then the least
// important columns are dropped one by one. A `shrink: 'never'` column (a URL) is never cut while
// something less important can give; when it is the least important one left it takes whatever
// is left rather than disappearing, because a cut link (OSC 8) still opens.
import { displayWidth } from './width.js';

export interface LayoutColumn {
  header: string;
  /** Lower is more important; default 0. */
  priority?: number;
  /** Narrowest useful width (default 4, or less when the content is narrower). */
  minWidth?: number;
  /** Widest the column may grow. */
  maxWidth?: number;
  /** `never`: do not cut (URLs, ids to copy). Default `cut`. */
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
/** A URL that has to give way still shows this much of itself. */
const NEVER_RELAXED_MIN = 12;

interface Working {
  index: number;
  priority: number;
  natural: number;
  compactNatural: number | undefined;
  compact: boolean;
  min: number;
  never: boolean;
  relaxed: boolean;
  minWidth: number | undefined;
}

export function layoutTable(input: LayoutInput): TableLayout {
  const gap = input.gap ?? 2;
  const limit = input.width > 0 ? input.width : Number.POSITIVE_INFINITY;
  const widest = (texts: (string | undefined)[], base: number) => texts.reduce<number>((w, t) => (t === undefined ? w : Math.max(w, displayWidth(t))), base);

  let cols: Working[] = input.columns.map((c, index) => {
    const headerWidth = displayWidth(c.header);
    const cap = c.maxWidth ?? Number.POSITIVE_INFINITY;
    const natural = Math.min(cap, widest(input.rows.map((r) => r[index]), headerWidth));
    const compactTexts = input.compactRows?.map((r) => r[index]);
    const hasCompact = compactTexts?.some((t) => t !== undefined) ?? false;
    const compactNatural = hasCompact ? Math.min(cap, widest(compactTexts!, Math.min(headerWidth, DEFAULT_MIN))) : undefined;
    const never = c.shrink === 'never';
    const w: Working = { index, priority: c.priority ?? 0, natural, compactNatural, compact: false, min: 0, never, relaxed: false, minWidth: c.minWidth };
    w.min = minimumOf(w);
    return w;
  });

  const total = (set: Working[], pick: (c: Working) => number) => set.reduce((s, c) => s + pick(c), 0) + gap * Math.max(0, set.length - 1);
  const current = (c: Working) => (c.compact ? c.compactNatural! : c.natural);
  // Least important first; among equals the rightmost goes first.
  const leastImportantFirst = (a: Working, b: Working) => b.priority - a.priority || b.index - a.index;

  const dropped: number[] = [];
  if (total(cols, (c) => c.natural) > limit) {
    // Compact renderings cost nothing to read, so they come before any cutting.
    for (const c of [...cols].sort(leastImportantFirst)) {
      if (total(cols, current) <= limit) break;
      if (c.compactNatural !== undefined && c.compactNatural < c.natural) {
        c.compact = true;
        c.min = minimumOf(c);
      }
    }
    // Drop (or, for a URL, relax) the least important until the minimums fit.
    while (total(cols, (c) => c.min) > limit && cols.length > 1) {
      const victim = [...cols].sort(leastImportantFirst)[0]!;
      if (victim.never && !victim.relaxed) {
        victim.relaxed = true;
        victim.min = minimumOf(victim);
        continue;
      }
      dropped.push(victim.index);
      cols = cols.filter((c) => c !== victim);
    }
  }

  const widths = new Map(cols.map((c) => [c, current(c)]));
  let excess = total(cols, current) - limit;
  if (excess > 0) {
    // Shrink least important first, widest first among equals, each down to its minimum.
    const order = [...cols].sort((a, b) => b.priority - a.priority || current(b) - current(a));
    for (const c of order) {
      if (excess <= 0) break;
      const give = Math.min(excess, widths.get(c)! - c.min);
      if (give > 0) {
        widths.set(c, widths.get(c)! - give);
        excess -= give;
      }
    }
    // Only one column left and it is still too wide: it gets the whole line.
    if (excess > 0 && cols.length === 1) widths.set(cols[0]!, Math.max(1, limit));
  }
  return {
    columns: cols.map((c) => ({ index: c.index, width: widths.get(c)!, compact: c.compact })),
    dropped: dropped.sort((a, b) => a - b),
  };
}

function minimumOf(c: Working): number {
  const natural = c.compact ? c.compactNatural! : c.natural;
  if (c.never && !c.relaxed) return natural;
  const wanted = c.never ? Math.max(c.minWidth ?? 0, NEVER_RELAXED_MIN) : (c.minWidth ?? DEFAULT_MIN);
  return Math.min(natural, wanted);
}
