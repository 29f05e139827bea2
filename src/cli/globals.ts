// Global flags → Globals, with the environment and terminal taken into account.
import { UsageError } from './cli-error.js';
import { choice, duration, flagError, FLAG_DEFAULTS, wholeNumber } from './flags/index.js';
import { FieldsError, parseFields } from '../output/fields.js';
import { OUTPUT_FORMATS, type Globals, type Io, type OutputFormat } from './context.js';
import { colorEnabled } from '../output/colors.js';
import type { GlobalFlags } from './program.js';

export function resolveGlobals(raw: Partial<GlobalFlags>, io: Io, env: Readonly<Record<string, string | undefined>>): Globals {
  if (raw.apiKey !== undefined) {
    throw new UsageError('--api-key is not accepted: a key on the command line ends up in shell history and process listings', [
      'store it with `socialpub auth login` (hidden prompt) or `printf %s "$KEY" | socialpub auth login --with-key`',
      'or set SOCIALPUB_API_KEY for one run (CI secrets)',
    ]);
  }
  // An empty -p is an unset shell variable: going on with the current profile would act on the
  // wrong workspace. (An empty SOCIALPUB_PROFILE means unset, as for every other variable.)
  if (raw.profile !== undefined && raw.profile.trim() === '') {
    throw flagError('--profile', 'the name is empty (an unset shell variable?), which would act on the current profile instead of the one meant', [
      'give a profile name (`socialpub profile list` names them), or leave -p/--profile out to use the current profile',
    ]);
  }
  let format: OutputFormat;
  let formatExplicit = true;
  if (raw.jq !== undefined && raw.output !== undefined && raw.output !== 'json' && raw.output !== 'ndjson') {
    throw flagError('--jq', `works on JSON, not on -o ${raw.output}`, ['leave -o out (--jq implies --json), or use -o ndjson to run the filter once per row']);
  }
  if (raw.json) format = 'json';
  else if (raw.output) format = choice<OutputFormat>('--output', raw.output, OUTPUT_FORMATS, { noun: 'format', listLabel: 'formats' });
  else if (raw.jq !== undefined) format = 'json';
  else {
    format = io.stdout.isTTY ? 'table' : 'tsv';
    formatExplicit = false;
  }
  const maxRetries = raw.maxRetries === undefined ? FLAG_DEFAULTS.maxRetries : wholeNumber('--max-retries', raw.maxRetries, { min: 0, max: 20 });
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
  return {
    profile: raw.profile,
    baseUrl: raw.baseUrl,
    format,
    formatExplicit,
    color: colorEnabled({ flag: raw.color !== false, env, isTTY: Boolean(io.stdout.isTTY) }),
    // stdin is asked last: telling whether it is a terminal loads tty, which piped runs never need.
    interactive: raw.input !== false && !ci && Boolean(io.stdout.isTTY || io.stderr.isTTY) && Boolean(io.stdinIsTTY ?? io.stdin.isTTY),
    timeoutMs: duration('--timeout', raw.timeout ?? FLAG_DEFAULTS.timeout),
    timeoutGiven: raw.timeout !== undefined,
    maxRetries,
    maxRetriesGiven: raw.maxRetries !== undefined,
    maxRequests: raw.maxRequests === undefined ? undefined : wholeNumber('--max-requests', raw.maxRequests, { min: 1, max: 10_000_000 }),
    spendBudget: Boolean(raw.spendBudget),
    maxWaitMs: duration('--max-wait', raw.maxWait ?? FLAG_DEFAULTS.maxWait, { allowZero: true }),
    maxWaitGiven: raw.maxWait !== undefined,
    debug: Boolean(raw.debug) || env.SOCIALPUB_DEBUG === '1' || env.SOCIALPUB_DEBUG === 'true',
    quiet: Boolean(raw.quiet),
    fields: raw.fields === undefined ? undefined : fieldList(raw.fields),
    jq: raw.jq,
    jqArgs: jqArgs(raw.arg ?? [], raw.jq !== undefined),
    pager: raw.pager !== false,
  };
}

/**
 * Commands that print no data on stdout (a message on stderr, a script, a server's protocol):
 * --fields or --jq there would be ignored, so they are refused instead, as a misspelt flag is.
 */
const PRINTS_NO_DATA = new Set(['auth logout', 'profile use', 'profile remove', 'completion', 'demo', 'mcp', 'sandbox', 'help']);

export function refuseShapingOfNothing(path: string, globals: Pick<Globals, 'fields' | 'jq'>): void {
  if (!PRINTS_NO_DATA.has(path)) return;
  const flag = globals.fields !== undefined ? '--fields' : globals.jq !== undefined ? '--jq' : undefined;
  if (flag) throw flagError(flag, `\`socialpub ${path}\` has no output that ${flag} shapes; leave ${flag} out`);
}

function fieldList(text: string): string[] {
  try {
    return parseFields(text);
  } catch (err) {
    if (err instanceof FieldsError) throw new UsageError(err.message, ['e.g. --fields id,status,error.code']);
    throw err;
  }
}

function jqArgs(pairs: readonly string[], hasJq: boolean): Record<string, string> {
  if (pairs.length > 0 && !hasJq) throw flagError('--arg', 'gives a value to a --jq filter; there is no --jq', ['e.g. --arg post post_01 --jq \'select(.post_id == $post)\'']);
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const name = at < 0 ? pair : pair.slice(0, at);
    if (at < 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw flagError('--arg', `${JSON.stringify(name)} is not a usable name: give --arg NAME VALUE, NAME a jq variable name (letters, digits, _)`);
    out[name] = pair.slice(at + 1);
  }
  return out;
}
