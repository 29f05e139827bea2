// The commander program: global flags, the nouns, and parse errors thrown as usage errors (exit 2).
import { Command, Help, Option, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from './context.js';
import type { FlagsOf } from './action.js';
import { defineCommands } from './commands/index.js';
import { FLAG_DEFAULTS } from './flags/index.js';
import { FORMATS } from '../output/formats.js';
import { UsageError } from './cli-error.js';
import { refuseAsUsage } from './commander-refusal.js';
import { wrapHelp, wrapText } from '../output/wrap.js';

/** Commands people reach for that go by another name here, and what to run instead. */
const OTHER_NAMES: ReadonlyArray<{ words: [string, string]; use: string; why: string }> = [
  { words: ['posts', 'bulk'], use: 'socialpub posts schedule --from-file FILE', why: 'bulk scheduling is `posts schedule --from-file` (NDJSON or CSV, safe to re-run)' },
];

/** A usage error for a command that goes by another name here (`posts bulk`), before parsing. */
export function otherNameError(argv: readonly string[]): UsageError | undefined {
  const end = argv.indexOf('--');
  const words = (end < 0 ? argv : argv.slice(0, end)).filter((a) => !a.startsWith('-'));
  for (const { words: [noun, verb], use, why } of OTHER_NAMES) {
    const at = words.indexOf(noun);
    if (at >= 0 && words[at + 1] === verb) return new UsageError(`there is no \`${noun} ${verb}\`: ${why}`, [`run \`${use}\``]);
  }
  return undefined;
}

const collectArg = (value: string, previous: string[] = []): string[] => previous.concat(value);

/**
 * `--arg NAME VALUE` takes two words, as jq's does; commander options take one, so the pair is
 * joined as `NAME=VALUE` first (a jq name has no `=`, so the first `=` splits it again; the name
 * itself is checked with the other global flags).
 */
export function joinArgPairs(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return out.concat(argv.slice(i));
    out.push(word);
    const name = argv[i + 1];
    if (word === '--arg' && name !== undefined && !name.includes('=')) {
      if (argv[i + 2] === undefined) throw new UsageError(`--arg ${name}: give a value too (--arg NAME VALUE)`);
      out.push(`${name}=${argv[i + 2]}`);
      i += 2;
    }
  }
  return out;
}

/** The global flags as commander parses them (inferred from the options below); resolveGlobals reads them. */
export type GlobalFlags = FlagsOf<typeof globalOptions>;

function globalOptions(ctx: Context) {
  return new Command('socialpub')
    .description('Draft, schedule and inspect social posts from the shell, against the Social Publishing Service or its local sandbox.')
    .version(ctx.version, '-V, --version', 'print the version')
    .option('-p, --profile <name>', 'workspace profile (env SOCIALPUB_PROFILE; default: the current profile, else "default")')
    .option('--base-url <url>', "override the profile's base URL (env SOCIALPUB_BASE_URL)")
    .addOption(new Option('-o, --output <format>', 'output format (default: table on a terminal, tsv when piped)').choices(FORMATS))
    .option('--json', 'same as --output json')
    .option('--no-color', 'no colour (also NO_COLOR=1)')
    .option('--no-input', 'never prompt; a missing value is an error naming the flag (also CI=1)')
    // No commander defaults: Globals records whether these were given, and fills FLAG_DEFAULTS.
    .option('--timeout <duration>', `per-request timeout (default: ${FLAG_DEFAULTS.timeout})`)
    .option('--max-retries <n>', `retries on network errors, 408/409/429 and 5xx (default: ${FLAG_DEFAULTS.maxRetries} for reads; writes keep retrying for up to ${FLAG_DEFAULTS.writeRetry})`)
    .option('--max-wait <duration>', `longest Retry-After to sleep through before giving up with exit 5 (default: ${FLAG_DEFAULTS.maxWait})`)
    .option('--max-requests <n>', 'send at most this many requests in this run, retries included; it also allows the last tenth of the rate limit')
    .option('--spend-budget', 'let a large read use more than half of what the rate limit has left, and its last tenth')
    .option('--debug', 'HTTP trace on stderr, secrets redacted (also SOCIALPUB_DEBUG=1)')
    .option('-q, --quiet', 'only ids and essential output')
    .option('--fields <list>', 'keep only these fields, in this order: dotted paths (id,status,error.code) in JSON rows, columns in TSV and tables')
    .option('--jq <expr>', 'a jq filter over the JSON output (implies --json unless -o ndjson): once over the whole list with --json, once per row with -o ndjson')
    .option('--arg <name>', "for --jq: `--arg NAME VALUE` makes $NAME the string VALUE (repeatable), as jq's own --arg", collectArg)
    .option('--no-pager', 'do not page long tables on a terminal (also SOCIALPUB_PAGER= or PAGER=cat)')
    .addOption(new Option('--api-key <key>').hideHelp());
}

/** Where a description goes when the flag column leaves it too little room beside it. */
const UNDER_INDENT = '      ';

/**
 * An option, argument or command and its description. Beside the flag column, as commander lays
 * it out, while that leaves the description 20 columns or more; else (a 40-column terminal) the
 * description goes on the lines under the flag, indented, so that it never runs back under the
 * flags at the left margin.
 */
function formatHelpItem(this: Help, term: string, termWidth: number, description: string, helper: Help): string {
  const width = this.helpWidth ?? 80;
  if (!description || width - termWidth - 4 >= 20 || helper.preformatted(description)) {
    return Help.prototype.formatItem.call(this, term, termWidth, description, helper);
  }
  return [`  ${term}`, ...wrapText(description, width - UNDER_INDENT.length).map((l) => UNDER_INDENT + l)].join('\n');
}

/** The program; given argv, only the nouns it names are defined in full (see nounsToDefine). */
export async function buildProgram(ctx: Context, argv?: readonly string[]): Promise<CommandUnknownOpts> {
  const width = (stream: { isTTY?: boolean; columns?: number }) => (stream.isTTY && stream.columns ? stream.columns : 80);
  const helpWidth = () => width(ctx.io.stdout);
  // A bare noun (`socialpub auth`) prints its help on stderr: wrapped to that terminal's width.
  const errHelpWidth = () => width(ctx.io.stderr);
  const program = globalOptions(ctx)
    .showSuggestionAfterError(true)
    .configureOutput({
      // Commander wraps options and descriptions, not the usage line or the sections after them
      // (examples, topics): those wrap here, under their own column, commands to copy kept whole.
      // At 80 columns, help is the same on a terminal and in a pipe, so the binary can print it
      // pre-rendered.
      writeOut: (s) => void ctx.io.stdout.write(wrapHelp(s, helpWidth())),
      writeErr: (s) => void ctx.io.stderr.write(wrapHelp(s, errHelpWidth())),
      // Every refusal is thrown instead (refuseAsUsage) and printed as our errors are.
      outputError: () => undefined,
      // Wrap help to the streams we were given (not whatever process.stdout happens to be).
      getOutHelpWidth: () => helpWidth(),
      getErrHelpWidth: () => errHelpWidth(),
    })
    // Commander leaves option descriptions unwrapped when their column is under 40 wide, so at
    // 60 columns every description ran past the edge; 20 wraps them there too.
    .configureHelp({ minWidthToWrap: 20, formatItem: formatHelpItem });
  program.exitOverride(refuseAsUsage(program));
  await defineCommands(program, ctx, argv);
  // Parse errors and help of every subcommand go through the same override and output.
  const inherit = (cmd: CommandUnknownOpts) => {
    for (const sub of cmd.commands) {
      sub.exitOverride(refuseAsUsage(sub)).configureOutput(program.configureOutput()).configureHelp(program.configureHelp()).showSuggestionAfterError(true);
      inherit(sub);
    }
  };
  inherit(program);
  return program;
}
