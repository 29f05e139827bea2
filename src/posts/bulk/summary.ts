// The end of a bulk run: counts by outcome, and every failed or invalid row with its reason.
import type { BulkResult } from './result.js';

/** `refused`: the rows whose failure the service would repeat as they are (a 4xx), by row number. */
export function summarize(results: readonly BulkResult[], label: string, refused: ReadonlySet<number> = new Set()) {
  const count = (o: BulkResult['outcome']) => results.filter((r) => r.outcome === o).length;
  const counts = {
    total: results.length,
    created: count('created'),
    alreadyDone: count('already-done'),
    failed: count('failed'),
    invalid: count('invalid'),
    notAttempted: count('not-attempted'),
  };
  const lines = [
    `${counts.total} rows in ${label}: ${counts.created} created, ${counts.alreadyDone} already done, ${counts.failed} failed` +
      (counts.invalid ? `, ${counts.invalid} invalid (skipped)` : '') +
      (counts.notAttempted ? `, ${counts.notAttempted} not attempted` : ''),
  ];
  const skipped = results.filter((r) => r.outcome === 'not-attempted').map((r) => r.row);
  if (skipped.length) lines.push(`  not attempted: ${skipped.length === 1 ? 'row' : 'rows'} ${rowRanges(skipped)}`);
  const failed = results.filter((r) => r.outcome === 'failed' || r.outcome === 'invalid');
  for (const r of failed) {
    lines.push(`  ${r.outcome === 'invalid' ? 'invalid' : 'failed'}: row ${r.row} (line ${r.line}): ${r.error?.code ? `${r.error.code}: ` : ''}${r.error?.message ?? ''}${r.error?.requestId ? ` (request id ${r.error.requestId})` : ''}`);
  }
  // A re-run retries every failed row; a row the service refused fails the same way until it is changed.
  const refusedRows = results.filter((r) => r.outcome === 'failed' && refused.has(r.row)).length;
  if (counts.failed > refusedRows) lines.push('  run the same command again to retry the failed rows (done rows are skipped)');
  if (refusedRows) {
    const which = refusedRows === counts.failed ? (refusedRows === 1 ? 'that row' : 'those rows') : `${refusedRows} of them`;
    lines.push(`  the service refused ${which} as written: fix ${refusedRows === 1 ? 'it' : 'them'} in the file, then run the same command again (done rows are skipped)`);
  }
  return { counts, text: lines.join('\n') };
}

/** [3, 4, 5, 9, 11, 12] → "3–5, 9, 11–12": the rows a stopped run left, however many. */
export function rowRanges(rows: readonly number[]): string {
  const sorted = [...rows].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(j === i ? String(sorted[i]) : `${sorted[i]}–${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}
