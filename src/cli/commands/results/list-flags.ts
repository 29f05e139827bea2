// The flags of `results list` and their limits (shared by the definition and the run module).

/** Pages in flight once the total is known: hides ~10 ms of latency per page (P3) and stays a
 * handful, well inside the read rate limit; the client drops to one when few requests remain. */
export const DEFAULT_CONCURRENCY = 6;
export const MAX_CONCURRENCY = 8;

export interface ListFlags {
  post: string[];
  platform: string[];
  code: string[];
  failed?: boolean;
  succeeded?: boolean;
  follow?: boolean;
  offset?: string;
  limit?: string;
  all?: boolean;
  concurrency?: string;
  since?: string;
  until?: string;
  tz?: string;
}
