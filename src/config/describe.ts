// Words for where a profile's values came from, shared by `auth status` and `profile show`.
import type { ApiSource, ResolvedProfile } from './types.js';
import { DIALECT_LABEL, type Dialect } from '../wire/dialects.js';

export const ENV_KEY_LOCATION = 'SOCIALPUB_API_KEY (environment, not stored)';


export function profileSourceText(source: ResolvedProfile['nameSource']): string {
  switch (source) {
    case 'flag':
      return '--profile';
    case 'env':
      return 'SOCIALPUB_PROFILE';
    case 'current':
      return 'current profile';
    default:
      return 'fallback: no profile chosen';
  }
}

export function baseUrlSourceText(source: ResolvedProfile['baseUrlSource']): string {
  switch (source) {
    case 'flag':
      return '--base-url';
    case 'env':
      return 'SOCIALPUB_BASE_URL, not stored';
    case 'profile':
      return 'profile';
    default:
      return 'default: the local sandbox';
  }
}

/** Where the key in use lives: the config file, the system's credential store, the environment, or nowhere. */
export function keyLocation(profile: ResolvedProfile, configPath: string, keyringName = 'the system credential store'): string | null {
  if (profile.keySource === 'env') return ENV_KEY_LOCATION;
  if (profile.keySource === 'profile') return configPath;
  if (profile.keySource === 'keyring') return keyringName;
  return null;
}

/** ` --profile name`, or nothing for the default profile: for commands shown in hints. */
export function profileFlag(name: string): string {
  return name === 'default' ? '' : ` --profile ${name}`;
}

/** "SyncPostly's published API (experimental; detected at login)": which API, and how it was chosen. */
export function apiWords(api: Dialect, source: ApiSource): string {
  const how = { env: 'SOCIALPUB_API, not stored', set: 'set with auth login --api', detected: 'detected at login', profile: 'profile', default: 'default' }[source];
  return api === 'syncpostly' ? `${DIALECT_LABEL[api]}'s published API (experimental; ${how})` : `${DIALECT_LABEL[api]}'s own API (${how})`;
}
