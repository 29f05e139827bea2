// `auth login`, run.
import type { Context } from '../../context.js';
import { UsageError } from '../../cli-error.js';
import { profileNameProblem } from '../../../config/types.js';
import { readKey } from './read-key.js';
import { checkKey, keyRefusal } from './verify-key.js';
import { ApiError } from '../../../client/errors.js';
import { refused } from '../../errors.js';
import { saveKey } from '../../../config/credentials.js';
import { assertSavable } from '../../../config/access-error.js';
import { maskKey } from '../../../config/resolve.js';
import { DEFAULT_BASE_URL } from '../../../config/types.js';
import { baseUrlProblem, isInsecureRemote, normaliseBaseUrl, rootOfApiUrl } from '../../../config/base-url.js';
import { apiWords, profileFlag } from '../../../config/describe.js';
import type { LoginFlags } from './login.js';
import { choice } from '../../flags/choice.js';
import { DIALECTS, type Dialect } from '../../../wire/dialects.js';
import type { ApiSource } from '../../../config/types.js';
import { resolveProfileWithKey } from '../../../config/resolve.js';

export async function login(ctx: Context, opts: LoginFlags): Promise<number> {
  const store = await ctx.config();
  // A saved api naming no API is what this login replaces (the fix its error names): not refused here.
  const resolved = await resolveProfileWithKey({ flagProfile: ctx.globals.profile, flagBaseUrl: ctx.globals.baseUrl, env: ctx.env, store, onBadSavedApi: () => undefined });
  const nameProblem = profileNameProblem(resolved.name);
  if (nameProblem) throw new UsageError(`--profile: ${nameProblem}`);
  const flagBaseUrl = ctx.globals.baseUrl;
  if (flagBaseUrl !== undefined) {
    const problem = baseUrlProblem(flagBaseUrl);
    if (problem) throw new UsageError(`--base-url: ${problem}`, [`for example --base-url ${rootOfApiUrl(flagBaseUrl) ?? 'https://api.example.com'}`]);
  } else if (resolved.baseUrlSource === 'env') {
    const problem = baseUrlProblem(resolved.baseUrl);
    if (problem) throw new UsageError(`SOCIALPUB_BASE_URL: ${problem}`);
  }
  const baseUrl = resolved.baseUrl;
  // --api is saved; SOCIALPUB_API is for one run, as SOCIALPUB_BASE_URL is; else the check tells.
  const flagApi = opts.api === undefined ? undefined : choice('--api', opts.api, DIALECTS, { noun: 'known API', listLabel: 'APIs', code: 'UNKNOWN_API' });
  const givenApi: Dialect | undefined = flagApi ?? (resolved.apiSource === 'env' ? resolved.api : undefined);
  // A folder the key could not be saved in is said before the key is typed and checked.
  assertSavable(store);
  const out = ctx.output();
  if (isInsecureRemote(baseUrl)) out.warn(`${baseUrl} is plain http to another machine: the key would cross the network unencrypted; prefer https`);
  // Said before the key is typed: a first user with an account means their service, not this default.
  if (resolved.baseUrlSource === 'default' && !opts.withKey && ctx.globals.interactive) {
    out.info(`No base URL given, so this logs in to the local sandbox at ${baseUrl}.\nFor your workspace's service, press Ctrl-C and run: socialpub auth login --base-url <its URL>`);
  }
  const key = await readKey(ctx, { withKey: Boolean(opts.withKey), prompt: `API key for ${baseUrl} (profile ${resolved.name})` });
  // A service that does not answer keeps the check going through every retry (minutes at the
  // defaults): on a terminal, the wait is said before it starts rather than left silent.
  if (ctx.io.stderr.isTTY) out.info(`Checking the key against ${baseUrl} …`);
  const check = await checkKey(ctx, key, baseUrl, givenApi);
  if (!check.valid) {
    // Neither API answered: said as it is (exit 2), not as a key that could not be checked.
    if (check.error instanceof UsageError) throw check.error;
    const hints = flagBaseUrl === undefined && resolved.baseUrlSource === 'default' ? [`the key was checked against ${DEFAULT_BASE_URL} (the local sandbox); pass --base-url for another service`] : [];
    const refusal = keyRefusal(check.error, { baseUrl, login: true, hints });
    if (refusal) throw refusal;
    for (const note of uncheckedNotes(baseUrl, check.error, resolved.baseUrlSource === 'default')) out.warn(note);
    throw check.error;
  }

  const previous = resolved.keySource === 'env' ? store.get(resolved.name)?.apiKey : resolved.apiKey;
  // SOCIALPUB_BASE_URL is for one run: never written. Otherwise the URL the key was checked against is saved.
  const saveBaseUrl = flagBaseUrl !== undefined ? normaliseBaseUrl(flagBaseUrl) : resolved.baseUrlSource === 'env' ? undefined : baseUrl;
  const saveApi: Exclude<ApiSource, 'env' | 'profile' | 'default'> | undefined = flagApi ? 'set' : givenApi ? undefined : 'detected';
  const saved = await saveKey(store, store.keyring, resolved.name, key, {
    insecureStorage: Boolean(opts.insecureStorage),
    change: (profile) => {
      const next = { ...profile };
      if (saveBaseUrl !== undefined && (flagBaseUrl !== undefined || !profile.baseUrl)) next.baseUrl = saveBaseUrl;
      if (saveApi) [next.api, next.apiSource] = [check.api, saveApi];
      return next;
    },
  });
  const becameCurrent = !store.current() || !store.names().includes(store.current()!);
  if (becameCurrent) await store.use(resolved.name);

  // The key this login replaced is named, so logging in to another workspace under a used profile
  // name does not go unnoticed.
  const replaced = previous && previous !== key ? `, replacing ${maskKey(previous)}` : '';
  out.info(`Logged in to ${baseUrl} as profile ${resolved.name} (key ${maskKey(key)}${replaced})`);
  out.info(`API: ${apiWords(check.api, saveApi ?? 'env')}`);
  const current = becameCurrent ? `; ${resolved.name} is now the current profile` : '';
  if (saved.storage === 'keyring') out.info(`Saved in ${saved.location} (the system credential store)${current}`);
  else {
    // Said every time: a key in a file is the weaker choice, and the user should know it was made.
    if (saved.fallbackReason) out.warn(`the system credential store cannot be used here (${saved.fallbackReason}); the key goes in the 0600 config file instead`);
    out.info(`Saved in ${store.path}${saved.fallbackReason ? ' (0600, no system credential store)' : ' (0600, --insecure-storage)'}${current}`);
    if (saved.staleEntry) {
      out.warn(`the key this login replaced stays in ${store.keyring?.name ?? 'the system credential store'}, which could not be reached to delete it (${saved.staleEntry.reason}); delete the entry "${saved.staleEntry.account}" of service "socialpub" there`);
    }
  }
  if (resolved.baseUrlSource === 'env' && flagBaseUrl === undefined) {
    out.warn(`the base URL came from SOCIALPUB_BASE_URL and was not saved; run \`socialpub auth login --base-url ${baseUrl}${profileFlag(resolved.name)}\` to save it with the profile`);
  }
  if (!saveApi) {
    out.warn(`the API came from SOCIALPUB_API and was not saved; run \`socialpub auth login --api ${check.api}${profileFlag(resolved.name)}\` to save it with the profile`);
  }
  if (ctx.env.SOCIALPUB_API_KEY?.trim()) out.warn('SOCIALPUB_API_KEY is set in this environment and wins over the saved key while it is set');
  if (out.structured) {
    await out.object(
      { profile: resolved.name, baseUrl, api: check.api, apiSource: saveApi ?? 'env', key: maskKey(key), keyStoredIn: saved.location, configPath: store.path, current: store.current() === resolved.name },
      () => '',
    );
  }
  return 0;
}

/**
 * Said before the error when the key could not be checked (nothing answered, a timeout, a 5xx).
 * At the default URL, the way to another service; how to start the sandbox only when the error
 * will not say it itself (its hint does for a refused connection), so it is never said twice.
 */
export function uncheckedNotes(baseUrl: string, error: unknown, defaultUrl: boolean): string[] {
  const notes = [`could not check the key against ${baseUrl}; nothing was saved`];
  if (!defaultUrl) return notes;
  if (error instanceof ApiError && error.kind === 'network' && refused(error)) notes.push('to log in to another service than the local sandbox: socialpub auth login --base-url <its URL>');
  else notes.push(`${baseUrl} is the local sandbox: start it with \`socialpub sandbox\`, or pass --base-url for another service`);
  return notes;
}

