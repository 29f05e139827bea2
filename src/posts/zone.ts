// The user's zone: --tz when given (checked), else TZ from the environment, else the machine's.
import { checkZone, machineZone } from './when.js';

/** Names of UTC itself (as TZ often holds on servers and in CI), told without loading Intl's zone data (~9 ms). */
const UTC_NAMES = new Set(['UTC', 'Etc/UTC', 'Etc/Universal', 'Universal', 'Etc/Zulu', 'Zulu', 'Etc/UCT', 'UCT']);

export function userZone(env: Readonly<Record<string, string | undefined>>, tz: string | undefined): string {
  if (tz !== undefined) return checkZone(tz);
  const fromEnv = env.TZ;
  // Named as Intl would name it.
  if (fromEnv !== undefined && UTC_NAMES.has(fromEnv)) return 'UTC';
  if (fromEnv && !fromEnv.startsWith(':')) {
    try {
      return checkZone(fromEnv);
    } catch {
      // An odd TZ value: Intl already fell back to something sensible.
    }
  }
  return machineZone();
}

/**
 * userZone, found on first use (a bad --tz is refused at once): a bulk file whose times all
 * carry an offset never pays for setting up Intl's zone.
 */
export function lazyUserZone(env: Readonly<Record<string, string | undefined>>, tz: string | undefined): () => string {
  if (tz !== undefined) {
    const zone = checkZone(tz);
    return () => zone;
  }
  let zone: string | undefined;
  return () => (zone ??= userZone(env, undefined));
}
