// Which profile, base URL and key a run uses: flag > environment > current profile > default.
// SOCIALPUB_API_KEY, SOCIALPUB_BASE_URL and SOCIALPUB_API win for one run and are never written.
import { normaliseBaseUrl } from './base-url.js';
import { readKey } from './credentials.js';
import { DEFAULT_BASE_URL, DEFAULT_PROFILE, type Profile, type ProfileStore, type ResolvedProfile } from './types.js';
import { DEFAULT_DIALECT, DIALECTS, isDialect, type Dialect } from '../wire/dialects.js';
import { FieldInputError } from '../wire/invalid-input.js';

export interface ResolveInput {
  flagProfile?: string | undefined;
  flagBaseUrl?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  store: Pick<ProfileStore, 'current' | 'get'>;
  /**
   * Told of a saved `api` that names no API, instead of it being refused (`profile show`, the
   * command that diagnoses it); the run then reads as the default API.
   */
  onBadSavedApi?: (problem: FieldInputError) => void;
}

/** An environment variable or flag that is set but empty counts as absent (CI templates do that). */
const given = (value: string | undefined): string | undefined => {
  const v = value?.trim();
  return v ? v : undefined;
};

export function resolveProfile({ flagProfile, flagBaseUrl, env, store, onBadSavedApi }: ResolveInput): ResolvedProfile {
  let name: string;
  let nameSource: ResolvedProfile['nameSource'];
  const current = store.current();
  if (given(flagProfile)) [name, nameSource] = [given(flagProfile)!, 'flag'];
  else if (given(env.SOCIALPUB_PROFILE)) [name, nameSource] = [given(env.SOCIALPUB_PROFILE)!, 'env'];
  else if (current) [name, nameSource] = [current, 'current'];
  else [name, nameSource] = [DEFAULT_PROFILE, 'default'];

  const profile = store.get(name);
  let baseUrl: string;
  let baseUrlSource: ResolvedProfile['baseUrlSource'];
  if (given(flagBaseUrl)) [baseUrl, baseUrlSource] = [given(flagBaseUrl)!, 'flag'];
  else if (given(env.SOCIALPUB_BASE_URL)) [baseUrl, baseUrlSource] = [given(env.SOCIALPUB_BASE_URL)!, 'env'];
  else if (given(profile?.baseUrl)) [baseUrl, baseUrlSource] = [given(profile?.baseUrl)!, 'profile'];
  else [baseUrl, baseUrlSource] = [DEFAULT_BASE_URL, 'default'];

  let apiKey: string | undefined;
  let keySource: ResolvedProfile['keySource'] = 'none';
  if (given(env.SOCIALPUB_API_KEY)) [apiKey, keySource] = [given(env.SOCIALPUB_API_KEY), 'env'];
  else if (given(profile?.apiKey)) [apiKey, keySource] = [given(profile?.apiKey), 'profile'];
  // The key itself is read by resolveProfileWithKey(): the keyring is asynchronous.
  else if (profile?.keyStorage === 'keyring') keySource = 'keyring';

  return { name, nameSource, baseUrl: normaliseBaseUrl(baseUrl), baseUrlSource, apiKey, keySource, exists: profile !== undefined, ...resolveApi(name, profile, env, onBadSavedApi) };
}

/**
 * The dialect of a run: SOCIALPUB_API (one run) > the profile's `api` > socialpub. A value that
 * names no API is refused (exit 2) before anything is sent: speaking the wrong one would only
 * turn every request into a 404.
 */
export function resolveApi(
  name: string,
  profile: Profile | undefined,
  env: Readonly<Record<string, string | undefined>>,
  onBadSaved?: (problem: FieldInputError) => void,
): Pick<ResolvedProfile, 'api' | 'apiSource'> {
  const fromEnv = given(env.SOCIALPUB_API);
  if (fromEnv) return { api: dialectOf(fromEnv, 'SOCIALPUB_API', 'set SOCIALPUB_API to one of them, or unset it to use the profile\'s'), apiSource: 'env' };
  const saved = given(profile?.api);
  if (!saved) return { api: DEFAULT_DIALECT, apiSource: 'default' };
  try {
    const api = dialectOf(saved, `api of profile ${name}`, `run \`socialpub auth login${name === DEFAULT_PROFILE ? '' : ` --profile ${name}`} --api ${DEFAULT_DIALECT}\` (or --api syncpostly), or fix "api" in the config file`);
    return { api, apiSource: profile?.apiSource ?? 'profile' };
  } catch (err) {
    if (!onBadSaved || !(err instanceof FieldInputError)) throw err;
    onBadSaved(err);
    return { api: DEFAULT_DIALECT, apiSource: 'default' };
  }
}

function dialectOf(value: string, field: string, fix: string): Dialect {
  const v = value.toLowerCase();
  if (isDialect(v)) return v;
  throw new FieldInputError(field, `${field}: "${value}" is not an API socialpub speaks (${DIALECTS.join(', ')})`, fix);
}

/**
 * resolveProfile() plus the key from the system's credential store when the profile keeps it
 * there. A keyring that cannot be reached leaves the key out and says why (`keyProblem`), so
 * commands that need no key still run and the others stop with exit 3 and the fix.
 */
export async function resolveProfileWithKey(input: Omit<ResolveInput, 'store'> & { store: ProfileStore }): Promise<ResolvedProfile> {
  const resolved = resolveProfile(input);
  if (resolved.keySource !== 'keyring') return resolved;
  try {
    const apiKey = given(await readKey(input.store, input.store.keyring, resolved.name));
    if (apiKey) return { ...resolved, apiKey };
    return { ...resolved, keyProblem: `the profile's key is not in ${input.store.keyring?.name ?? 'the system credential store'} any more` };
  } catch (err) {
    return { ...resolved, keyProblem: `the profile's key is kept in the system credential store, which cannot be read here: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/**
 * `…last4`: the only form in which a key is ever shown. A key too short for four characters to
 * be a small part of it shows fewer, so that no key is ever printed whole.
 */
export function maskKey(key: string | undefined): string {
  if (!key) return '(none)';
  const shown = key.length >= 12 ? 4 : key.length >= 8 ? 2 : 0;
  return `…${shown ? key.slice(-shown) : ''}`;
}

/** What is wrong with a string given as an API key ("is wrapped in quotes"), or undefined. */
export function keyShape(key: string): string | undefined {
  if (/^bearer\s/i.test(key)) return 'starts with "Bearer "';
  if (/^(["']).*\1$/.test(key)) return 'is wrapped in quotes';
  if (/^[\x21-\x7e]+$/.test(key)) return undefined;
  return 'holds spaces, line breaks or other characters an API key never has';
}

/**
 * Why the key in use cannot be an API key, or undefined: pasted with its "Bearer " prefix or
 * its quotes (a .env file read by a tool that keeps them), or with a space inside. Said before
 * anything is sent, naming where the key came from and the fix, never the key itself.
 */
export function keyShapeProblem(profile: Pick<ResolvedProfile, 'name' | 'keySource' | 'apiKey'>): string | undefined {
  const what = profile.apiKey ? keyShape(profile.apiKey) : undefined;
  if (!what) return undefined;
  return profile.keySource === 'env'
    ? `SOCIALPUB_API_KEY ${what}: set it to the key alone`
    : `the saved key of profile ${profile.name} ${what}: run \`socialpub auth login${profile.name === 'default' ? '' : ` --profile ${profile.name}`}\` again with the key alone`;
}

// A preference named like a secret (a hand-written "api_key", "token", "webhookSecret") is shown
// as keys are, in case it holds one; "keyStorage" only says where the key is.
const SECRET_NAME = /key|token|secret|passw|credential/i;

/** A profile's preference as `profile show` and `profile list` may print it. */
export function shownPreference(name: string, value: unknown): unknown {
  return typeof value === 'string' && name !== 'keyStorage' && SECRET_NAME.test(name) ? maskKey(value) : value;
}

/**
 * "the workspace of …" in not-found messages: an id is looked up in the workspace of the key in
 * use, so name where that key came from (SOCIALPUB_API_KEY overrides any profile's key).
 */
export function keyWorkspace(profile: Pick<ResolvedProfile, 'name' | 'keySource'>): string {
  return profile.keySource === 'env' ? 'the workspace of the key in SOCIALPUB_API_KEY' : `the workspace of profile ${profile.name}`;
}
