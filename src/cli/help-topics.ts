// Help topics beyond the command tree: `socialpub help environment`, `socialpub help exit-codes`
// (and `socialpub help reference`, which help/index.ts renders from the tree itself).
import { EXIT_CODE_HELP } from './cli-error.js';
import { MCP_HELP } from './help-mcp.js';
import { COLOR_PRECEDENCE } from '../output/colors.js';
import { PLATFORMS } from '../wire/platforms.js';
import { allowedText, PLATFORM_EXTRAS } from '../wire/post-extras.js';

/** Every platform's settings, what each takes, and where threads, first comments and alt text go. */
function optionsHelp(): string {
  const rows: Array<[string, string]> = PLATFORMS.flatMap((p) => PLATFORM_EXTRAS[p].options.map((o): [string, string] => [`${p}.${o.key}`, `${o.describe}: ${allowedText(o)}`]));
  const where = (what: string, test: (p: (typeof PLATFORMS)[number]) => boolean) => `  ${what}: ${PLATFORMS.filter(test).join(', ')}`;
  return [
    'Platform settings (--option PLATFORM.KEY=VALUE, a bulk column option.PLATFORM.KEY, payloads.<platform>.options)',
    '',
    table(rows),
    '',
    'What goes where',
    where('--thread (a thread of replies)', (p) => PLATFORM_EXTRAS[p].thread !== undefined),
    where('--first-comment', (p) => PLATFORM_EXTRAS[p].firstComment !== undefined),
    where('--alt (alt text per image)', (p) => PLATFORM_EXTRAS[p].alt !== undefined),
    '',
    'Examples:',
    '  socialpub posts create --platform youtube --title Launch --media a.mp4 --text "…" --option youtube.privacy=unlisted --option youtube.tags=launch,demo',
    '  socialpub posts create --platform instagram --media a.jpg --alt "Our team on stage" --text "…" --first-comment "#launch #team"',
    '  socialpub posts create --platform bluesky,twitter-x --text-file announcement.txt --thread',
    '',
  ].join('\n');
}

export const ENVIRONMENT: ReadonlyArray<[string, string]> = [
  ['SOCIALPUB_API_KEY', 'API key for this run; wins over the stored key and is never written to disk (CI secrets)'],
  ['SOCIALPUB_PROFILE', 'workspace profile to use (same as --profile)'],
  ['SOCIALPUB_BASE_URL', "service base URL for this run (same as --base-url); never written"],
  ['SOCIALPUB_API', "the API the service speaks for this run: socialpub, or syncpostly (SyncPostly's published API; experimental); wins over the profile's; never written"],
  ['SOCIALPUB_CONFIG_DIR', 'folder for profiles and bulk journals (default: ~/.config/socialpub, or the platform\'s config folder)'],
  ['SOCIALPUB_WEBHOOK_SECRET', 'whsec_… secret that `socialpub listen` verifies deliveries with and `socialpub sandbox` signs them with (instead of --secret-file / --webhook-secret-file)'],
  ['SOCIALPUB_DEBUG', '1 turns on the HTTP trace on stderr, secrets redacted (same as --debug)'],
  ['NO_COLOR', 'any non-empty value turns colour off (same as --no-color)'],
  ['FORCE_COLOR', 'colour even when not on a terminal (0 turns it off)'],
  ['CLICOLOR_FORCE', '1: colour even when not on a terminal, like FORCE_COLOR'],
  ['CLICOLOR', '0: no colour on a terminal'],
  ['TERM', 'dumb: no colour, no links, no progress redraws'],
  ['SOCIALPUB_PAGER', 'the pager for long tables on a terminal (default: PAGER, else less -FRX); empty or cat: none (same as --no-pager)'],
  ['PAGER', 'the pager when SOCIALPUB_PAGER is not set'],
  ['SOCIALPUB_BROWSER', 'the program `results get --web` opens live posts with (default: BROWSER; %s marks where the URL goes)'],
  ['BROWSER', 'the browser when SOCIALPUB_BROWSER is not set; without either, the URL is printed'],
  ['FORCE_HYPERLINK', '1: clickable links (OSC 8) even where the terminal is not known to show them; 0: never'],
  ['CI', 'set by CI systems: never prompt (same as --no-input)'],
  ['GITHUB_ACTIONS', 'true (set by GitHub Actions): errors and failed targets are also ::error title=…:: annotations'],
  ['GITHUB_STEP_SUMMARY', 'a file (set by GitHub Actions): `results wait` and bulk runs append a Markdown summary to it'],
  ['XDG_CONFIG_HOME', 'on Linux, profiles live in $XDG_CONFIG_HOME/socialpub (default: ~/.config/socialpub) unless SOCIALPUB_CONFIG_DIR is set'],
  ['XDG_CACHE_HOME', "compiled code is kept between runs in $XDG_CACHE_HOME/socialpub/compile-cache (default: ~/.cache/socialpub, or the platform's cache folder)"],
  ['NODE_DISABLE_COMPILE_CACHE', "1: keep no compiled code between runs (Node's own switch)"],
];

function table(rows: ReadonlyArray<readonly [string | number, string]>): string {
  const width = Math.max(...rows.map(([k]) => String(k).length));
  return rows.map(([k, v]) => `  ${String(k).padEnd(width)}  ${v}`).join('\n');
}

export const HELP_TOPICS: Record<string, { summary: string; text: () => string }> = {
  environment: {
    summary: 'environment variables socialpub reads',
    text: () =>
      `Environment variables\n\n${table(ENVIRONMENT)}\n\nPrecedence: a flag beats the environment, which beats the profile, which beats\nthe default.\n\n${COLOR_PRECEDENCE.trimEnd()}\n`,
  },
  'exit-codes': {
    summary: 'what each exit code means',
    text: () =>
      `Exit codes\n\n${table(EXIT_CODE_HELP)}\n\nExit codes, command names, flags, environment variables and the fields of --json\nand NDJSON output are a public interface: within a major version they only grow.\n`,
  },
  mcp: { summary: 'the MCP server: its tools and how to set it up', text: () => MCP_HELP },
  options: { summary: "each platform's --option settings, and threads", text: optionsHelp },
};

/** Topics rendered from the command tree by the help command (see commands/help/index.ts). */
export const TREE_TOPICS: Record<string, string> = {
  reference: 'every command, flags, examples (--man: a man page)',
};

/** Every topic `socialpub help` accepts, in the order its help lists them (help, its errors, completion). */
export function helpTopicNames(): string[] {
  return [...Object.keys(HELP_TOPICS), ...Object.keys(TREE_TOPICS)];
}
