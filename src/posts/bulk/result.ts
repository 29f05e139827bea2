// What happened to one row of a bulk file.
export interface BulkResult {
  /** 1-based row number (data rows, header excluded). */
  row: number;
  line: number;
  outcome: 'created' | 'already-done' | 'failed' | 'invalid' | 'not-attempted';
  id: string | null;
  status: string | null;
  scheduledAt: string | null;
  /** hints: the fixes, as an error's JSON object carries them ([] when there are none). */
  error: { code: string; message: string; requestId: string | null; hints: string[] } | null;
}
