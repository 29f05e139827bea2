// What happened to each row of a bulk file, as printed (TSV/table/NDJSON rows, or --json).
import type { Column } from '../../../../output/writers.js';
import { formatLocal } from '../../../../output/time.js';
import type { BulkResult } from '../../../../posts/bulk/result.js';

export type { BulkResult };

/** The fields of a BulkResult, which --fields may name besides the columns. */
export const BULK_RESULT_FIELDS: ReadonlyArray<keyof BulkResult> = ['row', 'line', 'outcome', 'id', 'status', 'scheduledAt', 'error'];

/**
 * Rows are printed as each one finishes, so the table is sized on its first row: the expected
 * widths keep room for what later rows hold (larger row numbers, "not-attempted", an id).
 */
export function bulkColumns(zone: string, rows: number, lines: number): Column<BulkResult>[] {
  return [
    { header: 'row', value: (r) => String(r.row), expectedWidth: String(rows).length },
    { header: 'line', value: (r) => String(r.line), expectedWidth: String(lines).length },
    {
      header: 'outcome',
      expectedWidth: 'not-attempted'.length,
      value: (r) => r.outcome,
      pretty: (r, c) => (r.outcome === 'created' ? c.green(r.outcome) : r.outcome === 'already-done' ? c.dim(r.outcome) : r.outcome === 'not-attempted' ? c.yellow(r.outcome) : c.red(r.outcome)),
    },
    { header: 'id', value: (r) => r.id ?? '', expectedWidth: 'post_'.length + 12 },
    { header: 'status', value: (r) => r.status ?? '', expectedWidth: 'scheduled'.length },
    { header: 'scheduled', value: (r) => r.scheduledAt ?? '', pretty: (r) => (r.scheduledAt ? formatLocal(r.scheduledAt, zone) : ''), expectedWidth: '2026-12-01 09:00 CEST'.length },
    { header: 'error', value: (r) => (r.error ? `${r.error.code}: ${r.error.message}` : ''), minWidth: 20 },
  ];
}
