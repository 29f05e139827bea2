// The concurrency limits of `results list` (shared by the definition and the run module).

/** Pages in flight once the total is known: hides ~10 ms of latency per page (`npm run bench results`) and stays a
 * handful, well inside the read rate limit; the client drops to one when few requests remain. */
export const DEFAULT_CONCURRENCY = 6;
export const MAX_CONCURRENCY = 8;
