// Every default of a global or shared flag, in one place (help texts quote these too). Timeout,
// retries and wait budget are the client's own defaults, written as the flags take them ("30s").
import { CLIENT_DEFAULTS } from '../../client/retry-timing.js';

const asFlag = (ms: number) => `${ms / 1000}s`;

export const FLAG_DEFAULTS = {
  timeout: asFlag(CLIENT_DEFAULTS.timeoutMs),
  maxRetries: CLIENT_DEFAULTS.maxRetries,
  maxWait: asFlag(CLIENT_DEFAULTS.maxWaitMs),
  /** Rows printed by list commands. */
  limit: 20,
} as const;
