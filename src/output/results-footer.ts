// The line under a table on stderr: where this page sits in the list and how to get the next.
import { formatCount } from './time.js';

export interface FooterInput {
  /** --offset the listing started at. */
  offset: number;
  /** Rows printed. */
  shown: number;
  /** Rows read from the service (printed or filtered out). */
  scanned: number;
  /** meta.total, when a page arrived. */
  total: number | undefined;
  /** Printed rows that are failures. */
  failedShown: number;
  /** Only failures or only successes were kept (the rows' outcome filter), or other rows were dropped by the client (`matching`). */
  filter: 'failed' | 'succeeded' | 'matching' | undefined;
  all: boolean;
}

export function footerText(f: FooterInput): string {
  const total = f.total ?? 0;
  const end = f.offset + f.scanned;
  const more = end < total;
  const next = more && !f.all ? ` · next: --offset ${end} · --all for every row` : '';
  if (f.filter) {
    if (f.scanned === 0) return `no results${f.offset > 0 && total > 0 ? ` after offset ${formatCount(f.offset)} (of ${formatCount(total)})` : ''}`;
    return `showing ${formatCount(f.shown)} ${f.filter} · scanned ${formatCount(f.offset + 1)}–${formatCount(end)} of ${formatCount(total)}${next}`;
  }
  if (f.shown === 0) return `no results${f.offset > 0 && total > 0 ? ` after offset ${formatCount(f.offset)} (of ${formatCount(total)})` : ''}`;
  const failed = f.failedShown === 0 ? 'none failed' : `${formatCount(f.failedShown)} failed`;
  const scope = f.all ? '' : ' on this page';
  return `showing ${formatCount(f.offset + 1)}–${formatCount(f.offset + f.shown)} of ${formatCount(Math.max(total, f.offset + f.shown))} · ${failed}${scope}${next}`;
}
