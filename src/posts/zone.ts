// The user's zone: --tz when given (checked), else TZ from the environment, else the machine's.
import { readlinkSync } from 'node:fs';
import { checkZone, machineZone } from './when.js';

/** Names of UTC itself (as TZ often holds on servers and in CI), told without loading Intl's zone data (~9 ms). */
const UTC_NAMES = new Set(['UTC', 'Etc/UTC', 'Etc/Universal', 'Universal', 'Etc/Zulu', 'Zulu', 'Etc/UCT', 'UCT']);

export function userZone(env: Readonly<Record<string, string | undefined>>, tz: string | undefined, readLink: (path: string) => string = readlinkSync): string {
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
  // No TZ, as on most CI runners and servers, whose /etc/localtime links to Etc/UTC: told from
  // the link, without Intl's zone data. Any other zone is left to Intl, which checks and names it.
  if (fromEnv === undefined && UTC_NAMES.has(linkedZone(readLink) ?? '')) return 'UTC';
  return machineZone();
}

/** The zone /etc/localtime links to (…/zoneinfo/Etc/UTC → Etc/UTC); undefined where it is not a link. */
function linkedZone(readLink: (path: string) => string): string | undefined {
  try {
    const target = readLink('/etc/localtime');
    const at = target.lastIndexOf('zoneinfo/');
    return at >= 0 ? target.slice(at + 'zoneinfo/'.length) : undefined;
  } catch {
    return undefined;
  }
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
