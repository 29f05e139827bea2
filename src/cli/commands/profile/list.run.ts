// `profile list`, run.
import type { Column } from '../../../output/writers.js';
import type { Profile } from '../../../config/types.js';
import type { Context } from '../../context.js';
import { maskKey, shownPreference } from '../../../config/resolve.js';
import { DEFAULT_DIALECT } from '../../../wire/dialects.js';

/** A profile as it may be shown: the key masked, preferences kept. */
export function profileRow(name: string, profile: Profile, current: boolean, maskKey: (key: string) => string): ProfileRow {
  const { apiKey, baseUrl, api, ...preferences } = profile;
  // The API the profile speaks (none saved: socialpub's); SOCIALPUB_API is one run's, not a profile's.
  const row: ProfileRow = { name, current, baseUrl: baseUrl ?? null, api: typeof api === 'string' ? api : DEFAULT_DIALECT, key: apiKey ? maskKey(apiKey) : null };
  // A preference can never shadow the fields above (a stray "key" must not replace the mask).
  for (const [k, v] of Object.entries(preferences)) if (!Object.hasOwn(row, k)) row[k] = shownPreference(k, v);
  return row;
}

const columns: Column<ProfileRow>[] = [
  { header: 'name', value: (r) => r.name, pretty: (r, c) => (r.current ? c.bold(r.name) : r.name) },
  { header: 'current', value: (r) => (r.current ? '*' : ''), pretty: (r, c) => (r.current ? c.green('*') : '') },
  { header: 'base url', value: (r) => r.baseUrl ?? '', pretty: (r, c) => r.baseUrl ?? c.dim('(default)') },
  { header: 'api', value: (r) => r.api, pretty: (r, c) => (r.api === 'syncpostly' ? `${r.api} ${c.dim('(experimental)')}` : r.api) },
  { header: 'key', value: (r) => r.key ?? '', pretty: (r, c) => r.key ?? c.dim(r.keyStorage === 'keyring' ? 'in the system credential store' : 'none') },
];

export interface ProfileRow {
  name: string;
  current: boolean;
  baseUrl: string | null;
  /** …last4, never the key. */
  key: string | null;
  api: string;
  [preference: string]: unknown;
}

export async function list(ctx: Context): Promise<number> {
  const store = await ctx.config();
  const current = store.current();
  const rows = store.names().map((name) => profileRow(name, store.get(name)!, name === current, maskKey));
  const out = ctx.output();
  await out.list(rows, { kind: 'table', columns });
  if (rows.length === 0) out.info('No profiles yet: run `socialpub auth login` (or `socialpub sandbox --write-profile`)');
  return 0;
}
