// The two dialects the client speaks and the sandbox serves: this contract's own (`socialpub`), and
// the published API of the SyncPostly service (`syncpostly`, contract 7.5; experimental until it has
// met the live service). A profile's `api` names one; SOCIALPUB_API overrides it for one run.
export const DIALECTS = ['socialpub', 'syncpostly'] as const;
export type Dialect = (typeof DIALECTS)[number];
export const DEFAULT_DIALECT: Dialect = 'socialpub';

/** What a user reads in messages ("SyncPostly's API has no post titles"). */
export const DIALECT_LABEL: Record<Dialect, string> = { socialpub: 'socialpub', syncpostly: 'SyncPostly' };

export function isDialect(value: unknown): value is Dialect {
  return typeof value === 'string' && (DIALECTS as readonly string[]).includes(value);
}
