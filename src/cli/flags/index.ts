// Every flag value parsed one way: the same words, the same "did you mean", comma lists wherever
// a flag repeats, and exit 2 naming the flag. Commands import from here.
import { CLIENT_DEFAULTS, WRITE_RETRY } from '../../client/retry-timing.js';

export { flagError, quote, collect, splitList, givenList, httpUrl, nonEmpty } from './text.js';
export { wholeNumber, optionalWholeNumber, share, integer, duration, optionalDuration, parseDuration, MAX_TIMER_MS, type NumberRange } from './number.js';
export { choice, choices, platform, platforms, statuses, type ChoiceRules } from './choice.js';
export { chooseWebhookSecret, WEBHOOK_SECRET_ENV, type ChosenSecret } from './secret.js';

const asFlag = (ms: number) => `${ms / 1000}s`;

/**
 * Every default of a global or shared flag, in one place (help texts quote these too). Timeout,
 * retries and wait budget are the client's own defaults, written as the flags take them ("30s").
 */
export const FLAG_DEFAULTS = {
  timeout: asFlag(CLIENT_DEFAULTS.timeoutMs),
  maxRetries: CLIENT_DEFAULTS.maxRetries,
  /** How long a write keeps retrying without --max-retries. */
  writeRetry: asFlag(WRITE_RETRY.budgetMs),
  maxWait: asFlag(CLIENT_DEFAULTS.maxWaitMs),
  /** Rows printed by list commands. */
  limit: 20,
  /**
   * `results list` pages in flight once the total is known: hides ~10 ms of latency per page
   * (`npm run bench results`) and stays a handful, well inside the read rate limit; the client
   * drops to one when few requests remain.
   */
  concurrency: 6,
  maxConcurrency: 8,
} as const;
