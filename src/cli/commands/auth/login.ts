// `socialpub auth login`: take a key (hidden prompt, or stdin with --with-key), check it with a
// cheap authenticated read, and only then save it, with the base URL, in the profile.
// Helpers load inside the action: this file is imported on every start (for --help).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../action.js';
import { UsageError } from '../../cli-error.js';
import { profileNameProblem } from '../../../config/profile-name.js';

interface LoginOptions {
  withKey?: boolean;
  insecureStorage?: boolean;
}

export function registerLogin(auth: Command, ctx: Context): void {
  auth
    .command('login')
    .usage('[--base-url URL] [--with-key] [--insecure-storage] [--profile NAME]')
    .summary('save an API key in a profile, after checking it against the API')
    .description(
      'Save the API key of a workspace in the resolved profile (--profile, SOCIALPUB_PROFILE, the current profile, else "default"). The key is read from a hidden prompt, or from stdin with --with-key; it is checked with one cheap authenticated read before anything is saved. --base-url is saved with it. The key goes in the system credential store (macOS Keychain, Windows Credential Manager, the Secret Service on Linux) where one is available, else in the 0600 config file; the command says which. The first profile you log in to becomes the current one.',
    )
    .option('--with-key', 'read the key from stdin instead of prompting (for CI and scripts)')
    .option('--insecure-storage', 'keep the key in the 0600 config file, not in the system credential store')
    .addHelpText(
      'after',
      `
Top-level options that matter here:
  --base-url URL   the service to log in to; saved with the key
  -p, --profile N  the profile to save into (default: the current one, else "default")

Examples:
  socialpub auth login                                   # prompts for the key
  socialpub auth login --base-url https://api.example.com --profile acme
  printf %s "$SOCIALPUB_KEY" | socialpub auth login --with-key
  socialpub auth login --with-key --profile ci < key.txt`,
    )
    .action(action(ctx, (opts: LoginOptions) => login(ctx, opts)));
}

export async function login(ctx: Context, opts: LoginOptions): Promise<number> {
  const [{ maskKey }, { DEFAULT_BASE_URL }] = await Promise.all([import('../../../config/resolve.js'), import('../../../config/types.js')]);
  const [{ baseUrlProblem, isInsecureRemote, normaliseBaseUrl }, { profileFlag }] = await Promise.all([import('../../../config/base-url.js'), import('./describe.js')]);
  const store = await ctx.config();
  const resolved = await ctx.profile();
  const nameProblem = profileNameProblem(resolved.name);
  if (nameProblem) throw new UsageError(`--profile: ${nameProblem}`);
  const flagBaseUrl = ctx.globals.baseUrl;
  if (flagBaseUrl !== undefined) {
    const problem = baseUrlProblem(flagBaseUrl);
    if (problem) throw new UsageError(`--base-url: ${problem}`, ['for example --base-url https://api.example.com']);
  } else if (resolved.baseUrlSource === 'env') {
    const problem = baseUrlProblem(resolved.baseUrl);
    if (problem) throw new UsageError(`SOCIALPUB_BASE_URL: ${problem}`);
  }
  const baseUrl = resolved.baseUrl;
  const out = ctx.output();
  if (isInsecureRemote(baseUrl)) out.warn(`${baseUrl} is plain http to another machine: the key would cross the network unencrypted; prefer https`);

  const { readKey } = await import('./read-key.js');
  const key = await readKey(ctx, { withKey: Boolean(opts.withKey), prompt: `API key for ${baseUrl} (profile ${resolved.name})` });

  const { checkKey, keyRefusal } = await import('./verify-key.js');
  const check = await checkKey(ctx, key, baseUrl);
  if (!check.valid) {
    const hints = flagBaseUrl === undefined && resolved.baseUrlSource === 'default' ? [`the key was checked against ${DEFAULT_BASE_URL} (the local sandbox); pass --base-url for another service`] : [];
    const refusal = keyRefusal(check.error, { baseUrl, login: true, hints });
    if (refusal) throw refusal;
    out.warn(`could not check the key against ${baseUrl}; nothing was saved`);
    if (resolved.baseUrlSource === 'default') out.warn(`${baseUrl} is the local sandbox: start it with \`socialpub sandbox\`, or pass --base-url for another service`);
    throw check.error;
  }

  // SOCIALPUB_BASE_URL is for one run: never written. Otherwise the URL the key was checked against is saved.
  const saveBaseUrl = flagBaseUrl !== undefined ? normaliseBaseUrl(flagBaseUrl) : resolved.baseUrlSource === 'env' ? undefined : baseUrl;
  const { saveKey } = await import('../../../config/credentials.js');
  const saved = await saveKey(store, store.keyring, resolved.name, key, {
    insecureStorage: Boolean(opts.insecureStorage),
    change: (profile) => {
      const next = { ...profile };
      if (saveBaseUrl !== undefined && (flagBaseUrl !== undefined || !profile.baseUrl)) next.baseUrl = saveBaseUrl;
      return next;
    },
  });
  const becameCurrent = !store.current() || !store.names().includes(store.current()!);
  if (becameCurrent) await store.use(resolved.name);

  out.info(`Logged in to ${baseUrl} as profile ${resolved.name} (key ${maskKey(key)})`);
  const current = becameCurrent ? `; ${resolved.name} is now the current profile` : '';
  if (saved.storage === 'keyring') out.info(`Saved in ${saved.location} (the system credential store)${current}`);
  else {
    // Said every time: a key in a file is the weaker choice, and the user should know it was made.
    if (saved.fallbackReason) out.warn(`the system credential store cannot be used here (${saved.fallbackReason}); the key goes in the 0600 config file instead`);
    out.info(`Saved in ${store.path}${saved.fallbackReason ? ' (0600, no system credential store)' : ' (0600, --insecure-storage)'}${current}`);
  }
  if (resolved.baseUrlSource === 'env' && flagBaseUrl === undefined) {
    out.warn(`the base URL came from SOCIALPUB_BASE_URL and was not saved; run \`socialpub auth login --base-url ${baseUrl}${profileFlag(resolved.name)}\` to save it with the profile`);
  }
  if (ctx.env.SOCIALPUB_API_KEY?.trim()) out.warn('SOCIALPUB_API_KEY is set in this environment and wins over the saved key while it is set');
  if (ctx.globals.format === 'json' || ctx.globals.format === 'ndjson') {
    await out.object({ profile: resolved.name, baseUrl, key: maskKey(key), keyStoredIn: saved.location, configPath: store.path, current: store.current() === resolved.name }, () => '');
  }
  return 0;
}
