// `sandbox` flags → startSandbox() options, every bad value a usage error (exit 2) naming its flag.
import { UsageError } from '../../cli-error.js';
import { parseDuration } from '../../flags/duration.js';
import type { SandboxOptions } from '../../../sandbox/types.js';

export interface SandboxFlags {
  port: string;
  host: string;
  writeProfile?: string | boolean;
  data?: string;
  seed?: string;
  failureRate: string;
  writeLimit: string;
  readLimit: string;
  webhookUrl?: string;
  webhookSecret?: string;
  fixtures: string;
  latency: string;
  chaos: string;
  chaosSlow: string;
}

export interface SandboxPlan {
  options: SandboxOptions;
  /** Profile to write with the demo workspace's key, if any. */
  profile: string | undefined;
  /** Where the webhook secret came from. */
  secretSource: 'flag' | 'env' | undefined;
}

export const DEFAULT_PROFILE_NAME = 'sandbox';

function whole(flag: string, value: string, min: number, max: number): number {
  const clean = value.replace(/[_,]/g, '').trim();
  const n = Number(clean);
  if (!/^\d+$/.test(clean) || n < min || n > max) throw new UsageError(`${flag}: "${value}" is not a whole number from ${min} to ${max.toLocaleString('en-US')}`);
  return n;
}

function share(flag: string, value: string): number {
  const percent = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(value);
  const n = percent ? Number(percent[1]) / 100 : Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`${flag}: "${value}" is not a share from 0 to 1`, ['for example 0.2 or 20%']);
  return n;
}

function duration(flag: string, value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined) throw new UsageError(`${flag}: "${value}" is not a duration`, ['use a number with a unit: 0ms, 50ms, 2s']);
  return ms;
}

export function planSandbox(flags: SandboxFlags, env: Readonly<Record<string, string | undefined>>): SandboxPlan {
  if (flags.host.trim() === '') throw new UsageError('--host: empty address');
  const options: SandboxOptions = {
    port: whole('--port', flags.port, 0, 65535),
    host: flags.host.trim(),
    failureRate: share('--failure-rate', flags.failureRate),
    writeLimit: whole('--write-limit', flags.writeLimit, 1, 1e12),
    readLimit: whole('--read-limit', flags.readLimit, 1, 1e12),
    fixtures: whole('--fixtures', flags.fixtures, 0, 20_000_000),
    latencyMs: duration('--latency', flags.latency),
    chaos: share('--chaos', flags.chaos),
    chaosSlowMs: duration('--chaos-slow', flags.chaosSlow),
  };
  if (flags.seed !== undefined) {
    if (!/^-?\d{1,15}$/.test(flags.seed.trim())) throw new UsageError(`--seed: "${flags.seed}" is not a whole number`);
    options.seed = Number(flags.seed.trim());
  }
  if (flags.data !== undefined) {
    if (flags.data.trim() === '') throw new UsageError('--data: empty file name');
    options.dataFile = flags.data;
  }
  if (flags.webhookUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(flags.webhookUrl);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new UsageError(`--webhook-url: "${flags.webhookUrl}" is not an http(s) URL`, ['for example --webhook-url http://127.0.0.1:4567/webhooks (see `socialpub listen`)']);
    }
    options.webhookUrl = flags.webhookUrl;
  }
  const envSecret = env.SOCIALPUB_WEBHOOK_SECRET ? env.SOCIALPUB_WEBHOOK_SECRET : undefined;
  const secret = flags.webhookSecret ?? envSecret;
  if (secret !== undefined) {
    if (!/^whsec_[A-Za-z0-9+/]{16,}={0,2}$/.test(secret)) {
      throw new UsageError(`${flags.webhookSecret !== undefined ? '--webhook-secret' : 'SOCIALPUB_WEBHOOK_SECRET'}: not a whsec_<base64> secret of at least 12 bytes`, [
        'leave it out and the sandbox generates one (printed masked, and in full in the --json ready line)',
      ]);
    }
    options.webhookSecret = secret;
  }
  let profile: string | undefined;
  if (flags.writeProfile !== undefined && flags.writeProfile !== false) {
    profile = flags.writeProfile === true ? DEFAULT_PROFILE_NAME : flags.writeProfile.trim();
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(profile)) throw new UsageError(`--write-profile: "${flags.writeProfile}" is not a profile name`, ['use letters, digits, ".", "_" and "-"']);
  }
  return { options, profile, secretSource: flags.webhookSecret !== undefined ? 'flag' : envSecret !== undefined ? 'env' : undefined };
}
