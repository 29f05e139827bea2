// Words for where a value came from, shared by `auth status` and `profile show`.
import type { ResolvedProfile } from '../../../config/types.js';

export const ENV_KEY_LOCATION = 'SOCIALPUB_API_KEY (environment, not stored)';

// The fields --fields may name (here, not beside the wire schemas: these commands load no zod).
/** `auth status`'s report; `error` only when the key is refused. */
export const AUTH_STATUS_FIELDS: readonly string[] = ['profile', 'profileSource', 'baseUrl', 'baseUrlSource', 'keySource', 'key', 'keyStoredIn', 'configPath', 'valid', 'error', 'error.code', 'error.message', 'error.status', 'error.requestId'];
/** `profile show`'s view; the preferences' own names are data, under `preferences`. */
export const PROFILE_SHOW_FIELDS: readonly string[] = ['name', 'profileSource', 'current', 'saved', 'baseUrl', 'baseUrlSource', 'key', 'keySource', 'keyStoredIn', 'configPath', 'preferences'];

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

/** Two aligned columns for human output. */
export function fields(rows: Array<[string, string]>): string {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}
