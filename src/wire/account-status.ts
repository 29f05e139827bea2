// An account's statuses (contract 7.2), apart from the account schema so that the command line,
// the accounts domain and the sandbox name them without loading zod.
export const ACCOUNT_STATUSES = ['connected', 'expired', 'disconnected'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];
/** Statuses whose publishes fail every time until the account is reconnected. */
export const UNHEALTHY_STATUSES: readonly string[] = ['expired', 'disconnected'];
