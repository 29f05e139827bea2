// What startListener accepts: defaults, checks of the caller's options, and the error for a
// listener that cannot start. Checked before anything is bound, so a bad option binds nothing.
import { MAX_BODY_BYTES } from '../wire/protocol.js';
import { listenerClock, type ListenerClock } from './clock.js';
import type { ListenerOptions } from './types.js';
import { isWebhookSecret } from '../wire/webhook-signing.js';

export const LISTENER_DEFAULTS = {
  port: 4567,
  host: '127.0.0.1',
  path: '/webhooks',
  forwardTimeoutMs: 10_000,
  forwardRetries: 2,
  forwardBackoffMs: 500,
  forwardConcurrency: 4,
  forwardQueueLimit: 10_000,
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 10_000,
  dedupeWindow: 100_000,
} as const;

/** Bad options or a port that cannot be bound. `code` is EINVAL or the system's (EADDRINUSE…). */
export class ListenerStartError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'ListenerStartError';
  }
}

/** A secret is usable when, without its whsec_ prefix, it is non-empty standard base64. */
export function isUsableSecret(secret: string): boolean {
  return isWebhookSecret(secret, { requirePrefix: false });
}

/** The options with every default filled in and every value checked. */
export interface ListenerSettings {
  port: number;
  host: string;
  path: string;
  secret: string | undefined;
  forwardUrl: URL | undefined;
  forwardTimeoutMs: number;
  forwardRetries: number;
  forwardBackoffMs: number;
  forwardConcurrency: number;
  forwardQueueLimit: number;
  clock: ListenerClock;
  maxBodyBytes: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  platforms: ReadonlySet<string> | undefined;
  statuses: ReadonlySet<string> | undefined;
  dedupeWindow: number;
}

/** Throws ListenerStartError (EINVAL) naming the option that is wrong. */
export function resolveOptions(options: ListenerOptions): ListenerSettings {
  const port = options.port ?? LISTENER_DEFAULTS.port;
  const path = options.path ?? LISTENER_DEFAULTS.path;
  const secret = options.secret === '' ? undefined : options.secret;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ListenerStartError(`port ${port} is not a whole number from 0 to 65535`, 'EINVAL');
  if (!path.startsWith('/')) throw new ListenerStartError(`path "${path}" must start with /`, 'EINVAL');
  if (secret !== undefined && !isUsableSecret(secret)) {
    throw new ListenerStartError('the webhook secret is not a whsec_ secret (base64 after the prefix)', 'EINVAL');
  }
  return {
    port,
    host: options.host ?? LISTENER_DEFAULTS.host,
    path,
    secret,
    forwardUrl: options.forwardTo === undefined ? undefined : forwardUrl(options.forwardTo),
    forwardTimeoutMs: options.forwardTimeoutMs ?? LISTENER_DEFAULTS.forwardTimeoutMs,
    forwardRetries: options.forwardRetries ?? LISTENER_DEFAULTS.forwardRetries,
    forwardBackoffMs: options.forwardBackoffMs ?? LISTENER_DEFAULTS.forwardBackoffMs,
    forwardConcurrency: options.forwardConcurrency ?? LISTENER_DEFAULTS.forwardConcurrency,
    forwardQueueLimit: options.forwardQueueLimit ?? LISTENER_DEFAULTS.forwardQueueLimit,
    clock: listenerClock(options.clock),
    maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
    headersTimeoutMs: options.headersTimeoutMs ?? LISTENER_DEFAULTS.headersTimeoutMs,
    bodyTimeoutMs: options.bodyTimeoutMs ?? LISTENER_DEFAULTS.bodyTimeoutMs,
    platforms: options.platforms?.length ? new Set(options.platforms) : undefined,
    statuses: options.statuses?.length ? new Set(options.statuses) : undefined,
    dedupeWindow: options.dedupeWindow ?? LISTENER_DEFAULTS.dedupeWindow,
  };
}

function forwardUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ListenerStartError(`forward URL "${text}" is not a URL`, 'EINVAL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ListenerStartError(`forward URL "${text}" must be http:// or https://`, 'EINVAL');
  return url;
}
