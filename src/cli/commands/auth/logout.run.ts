// `auth logout`, run.
import type { Context } from '../../context.js';
import { deleteKey } from '../../../config/credentials.js';
import { profileNotFound } from '../profile/not-found.js';

export async function logout(ctx: Context): Promise<number> {
  const store = await ctx.config();
  const { name, nameSource } = await ctx.profile();
  const out = ctx.output();
  const saved = store.get(name);
  // A misspelt --profile must not look like a successful logout while the real profile keeps its key.
  if (!saved && nameSource !== 'default') throw profileNotFound(name, store);
  if (saved?.apiKey === undefined && saved?.keyStorage === undefined) {
    out.info(`Profile ${name} has no stored key; nothing to remove`);
  } else {
    const { location } = await deleteKey(store, store.keyring, name).catch((err: unknown) => {
      // The key is still where it was: say so rather than forget where it is.
      throw new Error(
        `could not remove the key of profile ${name} from the system credential store: ${err instanceof Error ? err.message : String(err)}; run the command again where that store can be reached (a desktop session), or delete the entry "${name}@${store.dir}" of service "socialpub" with the system's own tool`,
      );
    });
    out.info(`Removed the API key of profile ${name} from ${location} (base URL kept)`);
    out.info('The key still works at the service until it is rotated in Settings → Developers');
  }
  if (ctx.env.SOCIALPUB_API_KEY?.trim()) out.warn('SOCIALPUB_API_KEY is still set in this environment and is used while it is set');
  return 0;
}
