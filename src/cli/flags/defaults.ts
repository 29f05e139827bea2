// Every default of a global or shared flag, in one place (help texts quote these too).
export const DEFAULTS = {
  timeout: '30s',
  maxRetries: 3,
  maxWait: '60s',
  /** Rows printed by list commands. */
  limit: 20,
} as const;
