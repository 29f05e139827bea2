// What happened to each row of a bulk file, as printed (TSV/table/NDJSON rows, or --json).
import type { Column } from '../../../../output/writers.js';
import { formatLocal } from '../../../../output/time.js';
import type { BulkResult } from '../../../../posts/bulk/result.js';

export type { BulkResult };

export function bulkColumns(zone: string): Column<BulkResult>[] {
  return [
    { header: 'row', value: (r) => String(r.row) },
    { header: 'line', value: (r) => String(r.line) },
    {
      header: 'outcome',
      value: (r) => r.outcome,
      pretty: (r, c) => (r.outcome === 'created' ? c.green(r.outcome) : r.outcome === 'already-done' ? c.dim(r.outcome) : r.outcome === 'not-attempted' ? c.yellow(r.outcome) : c.red(r.outcome)),
    },
    { header: 'id', value: (r) => r.id ?? '' },
    { header: 'status', value: (r) => r.status ?? '' },
    { header: 'scheduled', value: (r) => r.scheduledAt ?? '', pretty: (r) => (r.scheduledAt ? formatLocal(r.scheduledAt, zone) : '') },
    { header: 'error', value: (r) => (r.error ? `${r.error.code}: ${r.error.message}` : '') },
  ];
}
