// Every flag value parsed one way (DESIGN: cli/flags): the same words, the same "did you mean",
// comma lists wherever a flag repeats, and exit 2 naming the flag.
export { flagError, quote } from './error.js';
export { collect, splitList } from './list.js';
export { wholeNumber, optionalWholeNumber, share, integer, type NumberRange } from './number.js';
export { duration, optionalDuration, parseDuration, MAX_TIMER_MS } from './duration.js';
export { choice, choices, platform, platforms, statuses, type ChoiceRules } from './choice.js';
export { httpUrl, nonEmpty } from './url.js';
export { DEFAULTS } from './defaults.js';
export { chooseWebhookSecret, WEBHOOK_SECRET_ENV, type ChosenSecret } from './secret.js';
