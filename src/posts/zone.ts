// The user's zone: --tz when given (checked), else TZ from the environment, else the machine's.
import { checkZone, machineZone } from './when.js';

export function userZone(env: Readonly<Record<string, string | undefined>>, tz: string | undefined): string {
  if (tz !== undefined) return checkZone(tz);
  const fromEnv = env.TZ;
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
