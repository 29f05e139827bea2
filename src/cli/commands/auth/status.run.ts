// `auth status`, run.
import type { Context } from '../../context.js';
import type { KeySource } from '../../../config/types.js';
import { noApiKeyError } from '../../cli-error.js';
import { AUTH_STATUS_FIELDS, baseUrlSourceText, fields, keyLocation, profileFlag, profileSourceText } from './describe.js';
import { checkFields } from '../../../output/fields.js';
import { checkKey, keyRefusal } from './verify-key.js';
import { maskKey } from '../../../config/resolve.js';
import { displayUrl } from '../../../client/redact.js';
import { errorSummary } from './verify-key.js';

export interface AuthStatus {
  profile: string;
  profileSource: string;
  baseUrl: string;
  baseUrlSource: string;
  /** `profile`: the config file; `keyring`: the system's credential store. */
  keySource: KeySource;
  key: string | null;
  /** The config file, the credential store ("the Secret Service"), or "SOCIALPUB_API_KEY (environment, not stored)", or null without a key. */
  keyStoredIn: string | null;
  configPath: string;
  valid: boolean;
  error?: { code: string; message: string; status: number | null; requestId: string | null };
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
    keySource: profile.keySource,
    key: profile.apiKey ? maskKey(profile.apiKey) : null,
    keyStoredIn: keyLocation(profile, store.path, store.keyring?.name),
    configPath: store.path,
    valid: false,
  };

  let failure: unknown;
  if (!profile.apiKey) {
    failure = noApiKeyError(profile.name, profile.keyProblem, ctx.env);
  } else {
    const check = await checkKey(ctx, profile.apiKey, profile.baseUrl);
    if (check.valid) report.valid = true;
    else {
      const fix =
        profile.keySource === 'env'
          ? 'the refused key comes from SOCIALPUB_API_KEY: set a valid one'
          : `then run \`socialpub auth login${profileFlag(profile.name)}\` with the new key`;
      failure = keyRefusal(check.error, { baseUrl: report.baseUrl, login: false, hints: [fix] }) ?? check.error;
    }
  }
  if (failure) report.error = errorSummary(failure);

  const c = out.colors;
  await out.object(report, () =>
    fields([
      ['profile', `${report.profile} (${profileSourceText(profile.nameSource)}${profile.exists ? '' : ', not saved yet'})`],
      ['base URL', `${report.baseUrl} (${baseUrlSourceText(profile.baseUrlSource)})`],
      ['key', report.key ? `${report.key} in ${report.keyStoredIn}` : profile.keyProblem ? c.yellow(`unreadable, in ${report.keyStoredIn}`) : c.yellow('none')],
      ['API', report.valid ? c.green('✓ accepts the key') : report.key ? c.red(`✗ ${report.error?.message ?? 'not checked'}`) : c.dim('not checked (no key)')],
    ]),
    { fields: AUTH_STATUS_FIELDS },
  );
  if (failure) throw failure;
  return 0;
}
