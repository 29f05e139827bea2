// The end of a bulk run: counts by outcome, and every failed or invalid row with its reason.
import type { BulkResult } from './result.js';

export function summarize(results: readonly BulkResult[], label: string) {
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
  const failed = results.filter((r) => r.outcome === 'failed' || r.outcome === 'invalid');
  for (const r of failed) {
    lines.push(`  ${r.outcome === 'invalid' ? 'invalid' : 'failed'}: row ${r.row} (line ${r.line}): ${r.error?.code ? `${r.error.code}: ` : ''}${r.error?.message ?? ''}${r.error?.requestId ? ` (request id ${r.error.requestId})` : ''}`);
  }
  if (counts.failed) lines.push('  run the same command again to retry the failed rows (done rows are skipped)');
  return { counts, text: lines.join('\n') };
}
