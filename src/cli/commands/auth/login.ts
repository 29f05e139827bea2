// `socialpub auth login`: take a key (hidden prompt, or stdin with --with-key), check it with a
// cheap authenticated read, and only then save it, with the base URL, in the profile.
// Helpers load inside the action: this file is imported on every start (for --help).
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action, type FlagsOf } from '../../action.js';


export type LoginFlags = FlagsOf<typeof loginCommand>;

function loginCommand(auth: CommandUnknownOpts) {
  return auth
    .command('login')
    .usage('[--base-url URL] [--api socialpub|syncpostly] [--with-key] [--insecure-storage] [--profile NAME]')
    .summary('save an API key in a profile, after checking it against the API')
    .description(
      'Save the API key of a workspace in the resolved profile (--profile, SOCIALPUB_PROFILE, the current profile, else "default"). The key is read from a hidden prompt, or from stdin with --with-key; it is checked with one cheap authenticated read (two where the API is told apart) before anything is saved. --base-url is saved with it, and so is the API the service speaks: its own (socialpub), or the published API of SyncPostly (experimental until it has met the live service); --api says which, else the check tells them apart. The key goes in the system credential store (macOS Keychain, Windows Credential Manager, the Secret Service on Linux) where one is available, else in the 0600 config file; the command says which. The first profile you log in to becomes the current one.',
    )
    .option('--with-key', 'read the key from stdin instead of prompting (for CI and scripts)')
    .option('--insecure-storage', 'keep the key in the 0600 config file, not in the system credential store')
    .option('--api <api>', "the API the service speaks: socialpub, or syncpostly (SyncPostly's published API; experimental); default: told apart by the key check")
    .addHelpText(
      'after',
      `
Top-level options that matter here:
  --base-url URL   the service to log in to; saved with the key
  -p, --profile N  the profile to save into (default: the current one, else
                   "default")

Examples:
  socialpub auth login                                   # prompts for the key
  socialpub auth login --base-url https://api.example.com --profile acme
  socialpub auth login --base-url https://sp.example --api syncpostly
  printf %s "$SOCIALPUB_KEY" | socialpub auth login --with-key --profile ci`,
    );
}

export function defineLogin(auth: CommandUnknownOpts, ctx: Context): void {
  loginCommand(auth).action(
    action(ctx, async (opts) => (await import('./login.run.js')).login(ctx, opts)),
  );
}
