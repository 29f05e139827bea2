// `sandbox` flags → startSandbox() options, every bad value a usage error (exit 2) naming its flag.
import type { SandboxOptions } from '../../../sandbox/types.js';
import { isWebhookSecret } from '../../../wire/webhook-signing.js';
import { chooseWebhookSecret, duration, flagError, httpUrl, integer, nonEmpty, quote, share, wholeNumber, type ChosenSecret } from '../../flags/index.js';
import type { SandboxFlags } from './index.js';

export interface SandboxPlan {
  options: SandboxOptions;
  /** Profile to write with the demo workspace's key, if any. */
  profile: string | undefined;
  /** Where the webhook secret came from, and the warning when it was on the command line. */
  secret: ChosenSecret;
}

export const DEFAULT_PROFILE_NAME = 'sandbox';

export function planSandbox(flags: SandboxFlags, env: Readonly<Record<string, string | undefined>>): SandboxPlan {
  const options: SandboxOptions = {
    port: wholeNumber('--port', flags.port, { max: 65535 }),
    host: nonEmpty('--host', flags.host, 'an address'),
    failureRate: share('--failure-rate', flags.failureRate),
    writeLimit: wholeNumber('--write-limit', flags.writeLimit, { min: 1, max: 1e12 }),
    readLimit: wholeNumber('--read-limit', flags.readLimit, { min: 1, max: 1e12 }),
    fixtures: wholeNumber('--fixtures', flags.fixtures, { max: 20_000_000 }),
    latencyMs: duration('--latency', flags.latency, { allowZero: true }),
    chaos: share('--chaos', flags.chaos),
    chaosSlowMs: duration('--chaos-slow', flags.chaosSlow, { allowZero: true }),
  };
  if (flags.accounts !== undefined) options.accounts = wholeNumber('--accounts', flags.accounts, { max: 1000 });
  if (flags.seed !== undefined) options.seed = integer('--seed', flags.seed);
  if (flags.data !== undefined) {
    nonEmpty('--data', flags.data, 'a file name');
    options.dataFile = flags.data;
  }
  if (flags.webhookUrl !== undefined) options.webhookUrl = httpUrl('--webhook-url', flags.webhookUrl, 'http://127.0.0.1:4567/webhooks (see `socialpub listen`)');
  const chosen = chooseWebhookSecret({ flag: '--webhook-secret', value: flags.webhookSecret, fileFlag: '--webhook-secret-file', file: flags.webhookSecretFile }, env);
  const secret = chosen.secret;
  if (secret !== undefined) {
    if (!isWebhookSecret(secret, { minBytes: 12 })) {
      throw flagError(chosen.from ?? '--webhook-secret', 'not a whsec_<base64> secret of at least 12 bytes', [
        'leave it out and the sandbox generates one (printed masked, and in full in the --json ready line)',
      ]);
    }
    options.webhookSecret = secret;
  }
  let profile: string | undefined;
  if (flags.writeProfile !== undefined) {
    profile = flags.writeProfile === true ? DEFAULT_PROFILE_NAME : flags.writeProfile.trim();
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(profile)) throw flagError('--write-profile', `${quote(profile)} is not a profile name`, ['use letters, digits, ".", "_" and "-"']);
  }
  return { options, profile, secret: chosen };
}
