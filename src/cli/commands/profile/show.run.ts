// `profile show`, run.
import type { Context } from '../../context.js';
import { maskKey, resolveProfileWithKey, shownPreference } from '../../../config/resolve.js';
import { apiWords, baseUrlSourceText, keyLocation, profileSourceText } from '../../../config/describe.js';
import { alignedFields, PROFILE_SHOW_FIELDS } from '../../../output/profile-fields.js';
import { profileNotFound } from './not-found.js';
import type { FieldInputError } from '../../../wire/invalid-input.js';

export async function show(ctx: Context, name: string | undefined): Promise<number> {
  const store = await ctx.config();
  if (name !== undefined && !store.get(name)) throw profileNotFound(name, store);
  // A saved `api` naming no API is shown as it is, with the fix: this is the command to look at it.
  let badApi: FieldInputError | undefined;
  const resolved = await resolveProfileWithKey({
    flagProfile: name ?? ctx.globals.profile,
    flagBaseUrl: ctx.globals.baseUrl,
    env: ctx.env,
    store,
    onBadSavedApi: (problem) => (badApi = problem),
  });
  const { apiKey: _key, baseUrl: _url, keyStorage: _storage, api: savedApi, apiSource: _apiSource, ...saved } = store.get(resolved.name) ?? {};
  if (badApi) ctx.output().warn(`${badApi.message}: ${badApi.hint ?? ''}`);
  const preferences = Object.fromEntries(Object.entries(saved).map(([k, v]) => [k, shownPreference(k, v)]));
  const view = {
    name: resolved.name,
    profileSource: name === undefined ? resolved.nameSource : 'argument',
    current: store.current() === resolved.name,
    saved: resolved.exists,
    baseUrl: resolved.baseUrl,
    baseUrlSource: resolved.baseUrlSource,
    api: badApi ? savedApi : resolved.api,
    apiSource: badApi ? 'profile' : resolved.apiSource,
    key: resolved.apiKey ? maskKey(resolved.apiKey) : null,
    keySource: resolved.keySource,
    keyStoredIn: keyLocation(resolved, store.path, store.keyring?.name),
    configPath: store.path,
    preferences,
  };
  const c = ctx.output().colors;
  const notes = [
    view.current ? c.green('current profile') : name === undefined ? profileSourceText(resolved.nameSource) : 'not current',
    ...(view.saved ? [] : [c.dim('not saved yet')]),
  ];
  const prefs = Object.entries(preferences).map(([k, v]): [string, string] => [`  ${k}`, typeof v === 'string' ? v : JSON.stringify(v)]);
  await ctx.output().object(view, () =>
    alignedFields([
      ['name', `${view.name} (${notes.join(', ')})`],
      ['base URL', `${view.baseUrl} (${baseUrlSourceText(resolved.baseUrlSource)})`],
      ['speaks', badApi ? c.yellow(`${JSON.stringify(savedApi)} (profile; not an API socialpub speaks)`) : apiWords(resolved.api, resolved.apiSource)],
      ['key', view.key ? `${view.key} in ${view.keyStoredIn}` : c.yellow('none')],
      ['file', view.configPath],
      ...(prefs.length ? ([['preferences', '']] as Array<[string, string]>).concat(prefs) : []),
    ]),
    { fields: PROFILE_SHOW_FIELDS },
  );
  return 0;
}
