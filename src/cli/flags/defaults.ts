// Every default of a global or shared flag, in one place (help texts quote these too). Timeout,
// retries and wait budget are the client's own defaults, written as the flags take them.
import { CLIENT_DEFAULTS, formatDuration } from '../../client/retry-timing.js';

export const FLAG_DEFAULTS = {
  timeout: formatDuration(CLIENT_DEFAULTS.timeoutMs),
  maxRetries: CLIENT_DEFAULTS.maxRetries,
  maxWait: formatDuration(CLIENT_DEFAULTS.maxWaitMs),
  /** Rows printed by list commands. */
  limit: 20,
} as const;
