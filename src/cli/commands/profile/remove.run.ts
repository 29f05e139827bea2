// `profile remove`, run.
import type { Context } from '../../context.js';
import { deleteKey } from '../../../config/credentials.js';
import { removeWebhookSecretFile } from '../../../config/webhook-secret-file.js';
import { profileNotFound } from './not-found.js';

export async function remove(ctx: Context, name: string): Promise<number> {
  const store = await ctx.config();
  const wasCurrent = store.current() === name;
  const out = ctx.output();
  // The key goes first, from wherever it is: once the profile is gone nothing would point to a
  // key left in the system credential store. An entry that could not be read (a string where a
  // profile should be) has no key to find, and removing it is how it is fixed.
  if (store.get(name)) {
    await deleteKey(store, store.keyring, name).catch((err: unknown) =>
      out.warn(`the key of profile ${name} stays in the system credential store, which cannot be reached (${err instanceof Error ? err.message : String(err)}); delete the entry "${name}@${store.dir}" of service "socialpub" there`),
    );
  }
  if (!(await store.remove(name))) throw profileNotFound(name, store);
  out.info(`Removed profile ${name} from ${store.path}`);
  // The secret `sandbox --write-profile` saved for this profile would outlive it, unnamed by anything.
  try {
    const secretFile = removeWebhookSecretFile(store.dir, name);
    if (secretFile) out.info(`Removed its webhook secret file ${secretFile}`);
  } catch (err) {
    out.warn(`the webhook secret file of profile ${name} could not be removed (${err instanceof Error ? err.message : String(err)}); delete it yourself`);
  }
  if (wasCurrent) {
    const others = store.names();
    out.info(`No profile is current now${others.length ? `; pick one with \`socialpub profile use ${others[0]}\`` : ''}`);
  }
  return 0;
}
