// `socialpub profile show [name]`: one profile as a run would use it, with where each value
// comes from. No request is made (`socialpub auth status` checks the key).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../action.js';

export function registerShow(profile: Command, ctx: Context): void {
  profile
    .command('show')
    .argument('[name]', 'a saved profile (default: the one this run would use)')
    .summary('show one profile: base URL, key as …last4, where each comes from')
    .description(
      'Show a profile as a run would use it: the base URL and key, where each comes from (flag, environment, profile file), and its preferences. Without a name, the profile this run resolves to. Exits 4 when a named profile does not exist. Makes no request: `socialpub auth status` checks the key.',
    )
    .addHelpText(
      'after',
      `
Examples:
  socialpub profile show
  socialpub profile show acme --json
  SOCIALPUB_PROFILE=ci socialpub profile show`,
    )
    .action(action(ctx, (name: string | undefined) => show(ctx, name)));
}

export async function show(ctx: Context, name: string | undefined): Promise<number> {
  const { maskKey, resolveProfileWithKey } = await import('../../../config/resolve.js');
  const [{ baseUrlSourceText, fields, keyLocation, profileSourceText }, { profileNotFound }] = await Promise.all([import('../auth/describe.js'), import('./not-found.js')]);
  const store = await ctx.config();
  if (name !== undefined && !store.get(name)) throw profileNotFound(name, store);
  const resolved = name === undefined ? await ctx.profile() : await resolveProfileWithKey({ flagProfile: name, flagBaseUrl: ctx.globals.baseUrl, env: ctx.env, store });
  const { apiKey: _key, baseUrl: _url, keyStorage: _storage, ...preferences } = store.get(resolved.name) ?? {};
  const view = {
    name: resolved.name,
    profileSource: name === undefined ? resolved.nameSource : 'argument',
    current: store.current() === resolved.name,
    saved: resolved.exists,
    baseUrl: resolved.baseUrl,
    baseUrlSource: resolved.baseUrlSource,
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
    fields([
      ['name', `${view.name} (${notes.join(', ')})`],
      ['base URL', `${view.baseUrl} (${baseUrlSourceText(resolved.baseUrlSource)})`],
      ['key', view.key ? `${view.key} in ${view.keyStoredIn}` : c.yellow('none')],
      ['file', view.configPath],
      ...(prefs.length ? ([['preferences', '']] as Array<[string, string]>).concat(prefs) : []),
    ]),
  );
  return 0;
}
