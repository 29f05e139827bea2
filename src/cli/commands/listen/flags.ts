// `listen` flags → engine options and the command's own stop conditions, every bad value a
// usage error (exit 2) naming its flag.
import { PLATFORMS, POST_STATUSES, isPlatform, isPostStatus } from '../../../wire/platforms.js';
import { UsageError } from '../../cli-error.js';
import { parseDuration } from '../../flags/duration.js';
import type { ListenerOptions } from '../../../listen/types.js';

export interface ListenFlags {
  port: string;
  host: string;
  path: string;
  secret?: string;
  forwardTo?: string;
  forwardTimeout: string;
  forwardRetries: string;
  platform?: string[];
  status?: string[];
  maxEvents?: string;
  timeout?: string;
  log?: string;
}

export interface ListenPlan {
  listener: ListenerOptions;
  /** Where the secret came from, for the ready message. */
  secretSource: 'flag' | 'env' | undefined;
  maxEvents: number | undefined;
  timeoutMs: number | undefined;
  logFile: string | undefined;
}

function wholeNumber(flag: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag}: "${value}" is not a whole number from ${min} to ${max}`);
  }
  return n;
}

function duration(flag: string, value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined || ms <= 0) throw new UsageError(`${flag}: "${value}" is not a duration`, ['use a number with a unit: 500ms, 30s, 10m, 2h']);
  return ms;
}

export function planListen(flags: ListenFlags, env: Readonly<Record<string, string | undefined>>): ListenPlan {
  const port = wholeNumber('--port', flags.port, 0, 65535);
  if (!flags.path.startsWith('/')) throw new UsageError(`--path: "${flags.path}" must start with /`);
  if (flags.host.trim() === '') throw new UsageError('--host: empty address');

  const envSecret = env.SOCIALPUB_WEBHOOK_SECRET;
  const secret = flags.secret ?? (envSecret ? envSecret : undefined);
  const secretSource = flags.secret !== undefined ? 'flag' : secret !== undefined ? 'env' : undefined;
  if (flags.secret !== undefined && flags.secret === '') throw new UsageError('--secret: empty secret');

  if (flags.forwardTo !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(flags.forwardTo);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new UsageError(`--forward-to: "${flags.forwardTo}" is not an http(s) URL`, ['for example --forward-to http://localhost:3000/webhooks']);
    }
  }
  const platforms = flags.platform ?? [];
  const statuses = flags.status ?? [];
  for (const p of platforms) {
    if (!isPlatform(p)) throw new UsageError(`--platform: "${p}" is not a platform`, [`use one of ${PLATFORMS.join(', ')}`]);
  }
  for (const s of statuses) {
    if (!isPostStatus(s)) throw new UsageError(`--status: "${s}" is not a status`, [`use one of ${POST_STATUSES.join(', ')} (deliveries carry published or failed)`]);
  }

  return {
    listener: {
      port,
      host: flags.host,
      path: flags.path,
      ...(secret !== undefined ? { secret } : {}),
      ...(flags.forwardTo !== undefined ? { forwardTo: flags.forwardTo } : {}),
      forwardTimeoutMs: duration('--forward-timeout', flags.forwardTimeout),
      forwardRetries: wholeNumber('--forward-retries', flags.forwardRetries, 0, 10),
      platforms,
      statuses,
    },
    secretSource,
    maxEvents: flags.maxEvents === undefined ? undefined : wholeNumber('--max-events', flags.maxEvents, 1, Number.MAX_SAFE_INTEGER),
    timeoutMs: flags.timeout === undefined ? undefined : duration('--timeout', flags.timeout),
    logFile: flags.log,
  };
}
