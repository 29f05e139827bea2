// `socialpub profile list`: every profile with its base URL and key as …last4.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../action.js';
import type { Column } from '../../../output/writers.js';
import type { Profile } from '../../../config/types.js';

export interface ProfileRow {
  name: string;
  current: boolean;
  baseUrl: string | null;
  /** …last4, never the key. */
  key: string | null;
  [preference: string]: unknown;
}

/** A profile as it may be shown: the key masked, preferences kept. */
export function profileRow(name: string, profile: Profile, current: boolean, maskKey: (key: string) => string): ProfileRow {
  const { apiKey, baseUrl, ...preferences } = profile;
  const row: ProfileRow = { name, current, baseUrl: baseUrl ?? null, key: apiKey ? maskKey(apiKey) : null };
  // A preference can never shadow the fields above (a stray "key" must not replace the mask).
  for (const [k, v] of Object.entries(preferences)) if (!Object.hasOwn(row, k)) row[k] = v;
  return row;
}

const columns: Column<ProfileRow>[] = [
  { header: 'name', value: (r) => r.name, pretty: (r, c) => (r.current ? c.bold(r.name) : r.name) },
  { header: 'current', value: (r) => (r.current ? '*' : ''), pretty: (r, c) => (r.current ? c.green('*') : '') },
  { header: 'base url', value: (r) => r.baseUrl ?? '', pretty: (r, c) => r.baseUrl ?? c.dim('(default)') },
  { header: 'key', value: (r) => r.key ?? '', pretty: (r, c) => r.key ?? c.dim(r.keyStorage === 'keyring' ? 'in the system credential store' : 'none') },
];

export function registerList(profile: Command, ctx: Context): void {
  profile
    .command('list')
    .alias('ls')
    .summary('list profiles: name, current marker, base URL, key as …last4')
    .description(
      'List every saved profile. The current one is marked with *. Keys are shown as …last4. Piped output is TSV (name, current, base URL, key); --json prints an array of objects.',
    )
    .addHelpText(
      'after',
      `
Examples:
  socialpub profile list
  socialpub profile list --json
  socialpub profile list | cut -f1`,
    )
    .action(action(ctx, () => list(ctx)));
}

export async function list(ctx: Context): Promise<number> {
  const store = await ctx.config();
  const current = store.current();
  const { maskKey } = await import('../../../config/resolve.js');
  const rows = store.names().map((name) => profileRow(name, store.get(name)!, name === current, maskKey));
  const out = ctx.output();
  await out.list(rows, { columns });
  if (rows.length === 0) out.info('No profiles yet: run `socialpub auth login` (or `socialpub sandbox --write-profile`)');
  return 0;
}
