// Global flags → Globals, with the environment and terminal taken into account.
import { parseDuration } from './duration.js';
import { UsageError } from './cli-error.js';
import { OUTPUT_FORMATS, type Globals, type Io, type OutputFormat } from './context.js';
import { colorEnabled } from '../output/colors.js';

export interface RawGlobalOptions {
  profile?: string;
  baseUrl?: string;
  output?: string;
  json?: boolean;
  color?: boolean;
  input?: boolean;
  timeout?: string;
  maxRetries?: string;
  maxWait?: string;
  debug?: boolean;
  quiet?: boolean;
  apiKey?: string;
}

function duration(flag: string, value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined) throw new UsageError(`${flag}: "${value}" is not a duration`, ['use a number with a unit: 500ms, 30s, 10m, 2h']);
  return ms;
}

export function resolveGlobals(raw: RawGlobalOptions, io: Io, env: Readonly<Record<string, string | undefined>>): Globals {
  if (raw.apiKey !== undefined) {
    throw new UsageError('--api-key is not accepted: a key on the command line ends up in shell history and process listings', [
      'store it with `socialpub auth login` (hidden prompt) or `printf %s "$KEY" | socialpub auth login --with-key`',
      'or set SOCIALPUB_API_KEY for one run (CI secrets)',
    ]);
  }
  let format: OutputFormat;
  let formatExplicit = true;
  if (raw.json) format = 'json';
  else if (raw.output) {
    if (!(OUTPUT_FORMATS as readonly string[]).includes(raw.output)) {
      throw new UsageError(`--output: "${raw.output}" is not a format`, [`use one of ${OUTPUT_FORMATS.join(', ')}`]);
    }
    format = raw.output as OutputFormat;
  } else {
    format = io.stdout.isTTY ? 'table' : 'tsv';
    formatExplicit = false;
  }
  const maxRetries = Number(raw.maxRetries ?? '3');
  if (!Number.isInteger(maxRetries) || maxRetries < 0 || maxRetries > 20) {
    throw new UsageError(`--max-retries: "${raw.maxRetries}" is not a whole number from 0 to 20`);
  }
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
  return {
    profile: raw.profile,
    baseUrl: raw.baseUrl,
    format,
    formatExplicit,
    color: colorEnabled({ flag: raw.color !== false, env, isTTY: Boolean(io.stdout.isTTY) }),
    interactive: raw.input !== false && !ci && Boolean(io.stdinIsTTY ?? io.stdin.isTTY) && Boolean(io.stdout.isTTY || io.stderr.isTTY),
    timeoutMs: duration('--timeout', raw.timeout ?? '30s'),
    maxRetries,
    maxWaitMs: duration('--max-wait', raw.maxWait ?? '60s'),
    debug: Boolean(raw.debug) || env.SOCIALPUB_DEBUG === '1' || env.SOCIALPUB_DEBUG === 'true',
    quiet: Boolean(raw.quiet),
  };
}
