// What a list says on stderr when it was cut short: by --limit ("20 of 421; --all for every row"),
// or by a failure part-way through an export (where to resume). On stderr in every format, so a
// script piping TSV, CSV or JSON to a file hears that the file is not the whole list.
import { formatCount } from './time.js';

export interface CutByLimit {
  /** Rows printed. */
  shown: number;
  /** Rows the service has (meta.total), when known. */
  total: number | undefined;
  /** The --offset the listing started at. */
  offset: number;
  /** Rows read from the service (more than shown when a filter dropped some). */
  scanned: number;
  /** "failed" with --failed: what the rows shown are. */
  kind?: string | undefined;
}

/** The notice for a list cut by --limit, or undefined when it was not cut (it held no more rows). */
export function cutByLimitText(c: CutByLimit): string | undefined {
  if (c.total === undefined || c.offset + c.scanned >= c.total) return undefined;
  const next = `--offset ${c.offset + c.scanned} for the next rows`;
  if (c.kind) {
    return `${formatCount(c.shown)} ${c.kind} shown, ${formatCount(c.offset + c.scanned)} of ${formatCount(c.total)} scanned; --all for every row, ${next}`;
  }
  return `${formatCount(c.shown)} of ${formatCount(c.total)}; --all for every row, ${next}`;
}

/**
 * How to resume an export newest first that failed part-way: rows older than the last one written
 * come with --until just past its time (a row of that very instant may come twice: its id tells).
 */
export function resumeHint(lastTime: string | undefined, written: number): string | undefined {
  const at = lastTime === undefined ? NaN : Date.parse(lastTime);
  if (written === 0 || !Number.isFinite(at)) return undefined;
  return `${formatCount(written)} rows were written before the failure, newest first, down to ${new Date(at).toISOString()}: resume with --until ${new Date(at + 1).toISOString()} (the same other flags; a row of that very millisecond may come twice, the same id)`;
}
