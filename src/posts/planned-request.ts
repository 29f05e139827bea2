// A request that would be sent, as --dry-run (and an assistant's dry_run) shows it.
export interface PlannedRequest {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** For a byte upload: what would go up instead of a JSON body. */
  bytes?: { file: string; sizeBytes: number; contentType: string };
  /** Bulk: which row of the file the request belongs to. */
  row?: number;
  line?: number;
}
