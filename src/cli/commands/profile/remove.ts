// `socialpub profile remove <name>`: forget a profile, its key included.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../action.js';

export function registerRemove(profile: Command, ctx: Context): void {
  profile
    .command('remove')
    .alias('rm')
    .argument('<name>', 'a saved profile')
    .summary('delete a profile and its stored key')
    .description(
      'Delete a saved profile: its base URL, stored key and preferences. When it was the current profile, no profile is current afterwards and runs fall back to "default". Exits 4 when there is no such profile. The key stays valid at the service until it is rotated in Settings → Developers.',
    )
    .addHelpText(
      'after',
      `
Examples:
  socialpub profile remove old-workspace
  socialpub profile rm sandbox`,
    )
    .action(action(ctx, (name: string) => remove(ctx, name)));
}

export async function remove(ctx: Context, name: string): Promise<number> {
  const store = await ctx.config();
  if (!store.get(name)) throw (await import('./not-found.js')).profileNotFound(name, store);
  const wasCurrent = store.current() === name;
  const out = ctx.output();
  // The key goes first, from wherever it is: once the profile is gone nothing would point to a
  // key left in the system credential store.
  const { deleteKey } = await import('../../../config/credentials.js');
  await deleteKey(store, store.keyring, name).catch((err: unknown) =>
    out.warn(`the key of profile ${name} stays in the system credential store, which cannot be reached (${err instanceof Error ? err.message : String(err)}); delete the entry "${name}@${store.dir}" of service "socialpub" there`),
  );
  await store.remove(name);
  out.info(`Removed profile ${name} from ${store.path}`);
  if (wasCurrent) {
    const others = store.names();
    out.info(`No profile is current now${others.length ? `; pick one with \`socialpub profile use ${others[0]}\`` : ''}`);
  }
  return 0;
}
