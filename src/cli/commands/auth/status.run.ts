// `auth status`, run.
import type { Context } from '../../context.js';
import type { ApiSource, KeySource } from '../../../config/types.js';
import type { Dialect } from '../../../wire/dialects.js';

import { EXIT, noApiKeyError, UsageError } from '../../cli-error.js';
import { profileNotFound } from '../profile/not-found.js';
import { apiWords, baseUrlSourceText, keyLocation, profileFlag, profileSourceText } from '../../../config/describe.js';
import { alignedFields, AUTH_STATUS_FIELDS } from '../../../output/profile-fields.js';
import { checkFields } from '../../../output/fields.js';
import { checkKey, keyRefusal } from './verify-key.js';
import { keyShapeProblem, maskKey } from '../../../config/resolve.js';
import { displayUrl } from '../../../client/redact.js';
import { errorSummary, type ErrorSummary } from './verify-key.js';
import { shownHints } from '../../errors.js';

export interface AuthStatus {
  profile: string;
  profileSource: string;
  baseUrl: string;
  baseUrlSource: string;
  /** The API the service is spoken to in (contract 7.5), and where that was chosen. */
  api: Dialect;
  apiSource: ApiSource;
  /** `profile`: the config file; `keyring`: the system's credential store. */
  keySource: KeySource;
  key: string | null;
  /** The config file, the credential store ("the Secret Service"), or "SOCIALPUB_API_KEY (environment, not stored)", or null without a key. */
  keyStoredIn: string | null;
  configPath: string;
  valid: boolean;
  error?: ErrorSummary;
}

export async function status(ctx: Context): Promise<number> {
  // A misspelt field is told before the key is tried on the service.
  if (ctx.globals.fields) checkFields(ctx.globals.fields, AUTH_STATUS_FIELDS);
  const store = await ctx.config();
  const profile = await ctx.profile();
  const out = ctx.output();
  const report: AuthStatus = {
    profile: profile.name,
    profileSource: profile.nameSource,
    baseUrl: displayUrl(profile.baseUrl),
    baseUrlSource: profile.baseUrlSource,
    api: profile.api,
    apiSource: profile.apiSource,
    keySource: profile.keySource,
    key: profile.apiKey ? maskKey(profile.apiKey) : null,
    keyStoredIn: keyLocation(profile, store.path, store.keyring?.name),
    configPath: store.path,
    valid: false,
  };

  // A key in the environment hides a saved one: said, so that unsetting it is seen as the way
  // back to the saved key (the keyring is not opened for this: only where the key is kept).
  const saved = profile.keySource === 'env' ? store.get(profile.name) : undefined;
  const hidden = saved?.apiKey ? `${maskKey(saved.apiKey)} in ${store.path}` : saved?.keyStorage === 'keyring' ? `in ${store.keyring?.name ?? 'the system credential store'}` : undefined;

  let failure: unknown;
  const shape = keyShapeProblem(profile);
  if (!profile.apiKey && !profile.exists && profile.nameSource !== 'default') {
    // A misspelt --profile: the profiles there are, and the nearest one, as other commands say.
    failure = profileNotFound(profile.name, store, EXIT.auth);
  } else if (!profile.apiKey) {
    failure = noApiKeyError(profile.name, profile.keyProblem, ctx.env);
  } else if (shape) {
    failure = new UsageError(shape, [], 'BAD_API_KEY');
  } else {
    const check = await checkKey(ctx, profile.apiKey, profile.baseUrl, profile.api);
    if (check.valid) report.valid = true;
    else {
      const fix =
        profile.keySource === 'env'
          ? `the refused key comes from SOCIALPUB_API_KEY: set a valid one${hidden ? `, or unset it to use the key saved in profile ${profile.name}` : ''}`
          : `then run \`socialpub auth login${profileFlag(profile.name)}\` with the new key`;
      failure = keyRefusal(check.error, { baseUrl: report.baseUrl, login: false, hints: [fix] }) ?? check.error;
    }
  }
  if (failure) report.error = errorSummary(failure, shownHints(failure, ctx.clock.now(), profile.name, profile.baseUrl));

  const c = out.colors;
  await out.object(report, () =>
    alignedFields([
      ['profile', `${report.profile} (${profileSourceText(profile.nameSource)}${profile.exists ? '' : ', not saved yet'})`],
      ['base URL', `${report.baseUrl} (${baseUrlSourceText(profile.baseUrlSource)})`],
      ['speaks', apiWords(report.api, report.apiSource)],
      ['key', report.key ? `${report.key} in ${report.keyStoredIn}` : profile.keyProblem ? c.yellow(`unreadable, in ${report.keyStoredIn}`) : c.yellow('none')],
      ...(hidden ? [['saved key', c.dim(`${hidden}, not used while SOCIALPUB_API_KEY is set`)] as [string, string]] : []),
      // Which file was looked at: under sudo or another HOME it is not the one the user expects.
      ['file', report.configPath],
      ['API', report.valid ? c.green('✓ accepts the key') : report.key ? c.red(`✗ ${report.error?.message ?? 'not checked'}`) : c.dim('not checked (no key)')],
    ]),
    { fields: AUTH_STATUS_FIELDS },
  );
  if (failure) throw failure;
  return 0;
}
