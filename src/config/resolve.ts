// Which profile, base URL and key a run uses: flag > environment > current profile > default.
// SOCIALPUB_API_KEY and SOCIALPUB_BASE_URL win for one run and are never written.
import { DEFAULT_BASE_URL, DEFAULT_PROFILE, type ProfileStore, type ResolvedProfile } from './types.js';

export interface ResolveInput {
  flagProfile?: string | undefined;
  flagBaseUrl?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  store: Pick<ProfileStore, 'current' | 'get'>;
}

export function resolveProfile({ flagProfile, flagBaseUrl, env, store }: ResolveInput): ResolvedProfile {
  let name: string;
  let nameSource: ResolvedProfile['nameSource'];
  if (flagProfile) [name, nameSource] = [flagProfile, 'flag'];
  else if (env.SOCIALPUB_PROFILE) [name, nameSource] = [env.SOCIALPUB_PROFILE, 'env'];
  else if (store.current()) [name, nameSource] = [store.current()!, 'current'];
  else [name, nameSource] = [DEFAULT_PROFILE, 'default'];

  const profile = store.get(name);
  let baseUrl: string;
  let baseUrlSource: ResolvedProfile['baseUrlSource'];
  if (flagBaseUrl) [baseUrl, baseUrlSource] = [flagBaseUrl, 'flag'];
  else if (env.SOCIALPUB_BASE_URL) [baseUrl, baseUrlSource] = [env.SOCIALPUB_BASE_URL, 'env'];
  else if (profile?.baseUrl) [baseUrl, baseUrlSource] = [profile.baseUrl, 'profile'];
  else [baseUrl, baseUrlSource] = [DEFAULT_BASE_URL, 'default'];

  let apiKey: string | undefined;
  let keySource: ResolvedProfile['keySource'] = 'none';
  if (env.SOCIALPUB_API_KEY) [apiKey, keySource] = [env.SOCIALPUB_API_KEY, 'env'];
  else if (profile?.apiKey) [apiKey, keySource] = [profile.apiKey, 'profile'];

  return { name, nameSource, baseUrl: baseUrl.replace(/\/+$/, ''), baseUrlSource, apiKey, keySource, exists: profile !== undefined };
}

/** `…last4`: the only form in which a key is ever shown. */
export function maskKey(key: string | undefined): string {
  if (!key) return '(none)';
  return `…${key.slice(-4)}`;
}
