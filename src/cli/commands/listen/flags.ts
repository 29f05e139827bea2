// `listen` flags → engine options and the command's own stop conditions, every bad value a
// usage error (exit 2) naming its flag.
import type { ListenerOptions } from '../../../listen/types.js';
import { chooseWebhookSecret, duration, flagError, httpUrl, nonEmpty, optionalDuration, optionalWholeNumber, platforms, quote, statuses, wholeNumber, type ChosenSecret } from '../../flags/index.js';
import type { ListenFlags } from './index.js';

export interface ListenPlan {
  listener: ListenerOptions;
  /** Where the secret came from (for the ready message), and the warning when it was on the command line. */
  secret: ChosenSecret;
  maxEvents: number | undefined;
  timeoutMs: number | undefined;
  logFile: string | undefined;
}

export function planListen(flags: ListenFlags, env: Readonly<Record<string, string | undefined>>): ListenPlan {
  const port = wholeNumber('--port', flags.port, { max: 65535 });
  if (!flags.path.startsWith('/')) throw flagError('--path', `${quote(flags.path)} must start with /`, ['for example --path /webhooks']);
  nonEmpty('--host', flags.host, 'an address');

  const chosen = chooseWebhookSecret({ flag: '--secret', value: flags.secret, fileFlag: '--secret-file', file: flags.secretFile }, env);
  const secret = chosen.secret;
  if (flags.forwardTo !== undefined) httpUrl('--forward-to', flags.forwardTo, 'http://localhost:3000/webhooks');

  return {
    listener: {
      port,
      host: flags.host,
      path: flags.path,
      ...(secret !== undefined ? { secret } : {}),
      ...(flags.forwardTo !== undefined ? { forwardTo: flags.forwardTo } : {}),
      forwardTimeoutMs: duration('--forward-timeout', flags.forwardTimeout),
      forwardRetries: wholeNumber('--forward-retries', flags.forwardRetries, { max: 10 }),
      platforms: platforms('--platform', flags.platform),
      statuses: statuses('--status', flags.status),
    },
    secret: chosen,
    maxEvents: optionalWholeNumber('--max-events', flags.maxEvents, { min: 1 }),
    timeoutMs: optionalDuration('--timeout', flags.timeout),
    logFile: flags.log,
  };
}
