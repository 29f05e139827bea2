// The webhook secret `sandbox --write-profile` generates is saved beside the profiles (0600) for
// `listen --secret-file`: one file per profile, named after it, which goes when the profile goes.
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { profileNameProblem } from './types.js';

const WEBHOOK_SECRET_SUFFIX = '.webhook-secret';

/** `<config dir>/<profile>.webhook-secret`. */
export const webhookSecretFile = (dir: string, profile: string): string => join(dir, `${profile}${WEBHOOK_SECRET_SUFFIX}`);

/**
 * Removes the profile's webhook secret file: its path when there was one, undefined when there
 * was none. Only for a valid profile name (an entry of a hand-edited file may name anything).
 * Other errors (a folder that cannot be written) are thrown as Node's own.
 */
export function removeWebhookSecretFile(dir: string, profile: string): string | undefined {
  if (profileNameProblem(profile)) return undefined;
  const file = webhookSecretFile(dir, profile);
  try {
    unlinkSync(file);
    return file;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
