// Walks commander's command tree into a plain model that the shell script generators share.
import type { CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import { DIALECTS } from '../../wire/dialects.js';
import { PLATFORMS, POST_STATUSES } from '../../wire/platforms.js';
import { PLATFORM_EXTRAS } from '../../wire/post-extras.js';
import { fieldsOf } from '../../output/fields-of.js';
import { ACCOUNT_STATUSES } from '../../wire/account-status.js';
import { helpTopicNames } from '../help-topics.js';

/**
 * Where the values of a flag or argument come from. `zones` are the IANA zones (one list per
 * script); `fields` is a comma-separated list of these names (the part after the last comma is
 * completed).
 */
export type ValueSource =
  | { kind: 'words'; words: string[] }
  | { kind: 'files' }
  | { kind: 'profiles' }
  /** Post ids the last `posts list`/`posts create` printed (a local cache; no request at Tab). */
  | { kind: 'posts' }
  /** Account handles the last accounts lookup saw (a local cache; no request at Tab). */
  | { kind: 'accounts' }
  | { kind: 'zones' }
  /** A comma-separated list of these names (--fields, --platform a,b): `label` names one in zsh. */
  | { kind: 'fields'; fields: string[]; label?: string }
  | { kind: 'none' };

export interface FlagSpec {
  names: string[];
  description: string;
  takesValue: boolean;
  values: ValueSource;
  /** A program-wide flag, accepted after any command. */
  global: boolean;
}

export interface CommandSpec {
  /** Words from the root: [] for socialpub itself, ['posts', 'create'], … */
  path: string[];
  description: string;
  subcommands: { name: string; description: string }[];
  flags: FlagSpec[];
  /** Values of the first positional argument, when they are known. */
  argument: ValueSource;
}

/** Commands whose first argument is a post id. */
const POST_ID_COMMANDS = new Set(['posts view', 'posts edit', 'posts schedule', 'posts unschedule', 'posts delete']);

const FILE_FLAGS = new Set(['--file', '--input', '--media', '--log', '--data', '--from-file', '--secret-file', '--webhook-secret-file']);

function flagValues(option: Option, path: string[]): ValueSource {
  if (option.argChoices?.length) return { kind: 'words', words: [...option.argChoices] };
  const long = option.long ?? '';
  // Comma lists as everywhere: `--platform instagram,th<Tab>` completes threads.
  if (long === '--platform' || long === '--remove-platform') return { kind: 'fields', fields: [...PLATFORMS], label: 'platform' };
  // Every setting: platform.key=value for each value a setting has, platform.key= for the others.
  if (long === '--option') return { kind: 'words', words: optionWords() };
  if (long === '--profile') return { kind: 'profiles' };
  if (long === '--api') return { kind: 'words', words: [...DIALECTS] };
  if (long === '--tz') return { kind: 'zones' };
  if (long === '--post' && path.join(' ') === 'results wait') return { kind: 'posts' };
  if (long === '--account') return { kind: 'accounts' };
  // Per command, wherever the option is defined (the program-wide one included).
  if (long === '--fields') return { kind: 'fields', fields: fieldsOf(path.join(' ')) };
  if (long === '--status') return { kind: 'fields', fields: path[0] === 'listen' ? ['published', 'failed'] : path[0] === 'accounts' ? [...ACCOUNT_STATUSES] : [...POST_STATUSES], label: 'status' };
  if (FILE_FLAGS.has(long)) return { kind: 'files' };
  return { kind: 'none' };
}

function optionWords(): string[] {
  return PLATFORMS.flatMap((p) =>
    PLATFORM_EXTRAS[p].options.flatMap((o) => (o.kind === 'enum' ? o.values.map((v) => `${p}.${o.key}=${v}`) : o.kind === 'boolean' ? [`${p}.${o.key}=true`, `${p}.${o.key}=false`] : [`${p}.${o.key}=`])),
  );
}

function argumentValues(cmd: CommandUnknownOpts, path: string[]): ValueSource {
  const first = cmd.registeredArguments[0];
  if (!first) return { kind: 'none' };
  if (first.argChoices?.length) return { kind: 'words', words: [...first.argChoices] };
  const key = path.join(' ');
  if (key === 'profile use' || key === 'profile show' || key === 'profile remove') return { kind: 'profiles' };
  if (POST_ID_COMMANDS.has(key)) return { kind: 'posts' };
  if (key === 'accounts view') return { kind: 'accounts' };
  // `help <topic>` or `help <command>`: the topics first, from the one list `help` reads; `mcp`
  // is both, and offered once.
  if (key === 'help') return { kind: 'words', words: [...new Set([...helpTopicNames(), ...helpableCommands(cmd)])] };
  return { kind: 'none' };
}

function helpableCommands(help: CommandUnknownOpts): string[] {
  return (help.parent ? visibleSubcommands(help.parent) : []).filter((c) => c !== help).map((c) => c.name());
}

/**
 * The subcommands `--help` lists: commander's Help knows which are hidden. It also lists an
 * implicit `help` command, which is not in cmd.commands and is left out here.
 */
export function visibleSubcommands(cmd: CommandUnknownOpts): CommandUnknownOpts[] {
  return cmd
    .createHelp()
    .visibleCommands(cmd)
    .filter((c) => cmd.commands.includes(c));
}

/**
 * Current names of zones that were renamed: some ICU versions list only the old name
 * (Asia/Calcutta, Europe/Kiev), and people type the new one. Both are accepted by Intl.
 */
const RENAMED: Readonly<Record<string, string>> = {
  'Asia/Calcutta': 'Asia/Kolkata',
  'Europe/Kiev': 'Europe/Kyiv',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Dacca': 'Asia/Dhaka',
  'Asia/Thimbu': 'Asia/Thimphu',
  'Asia/Ulan_Bator': 'Asia/Ulaanbaatar',
  'America/Godthab': 'America/Nuuk',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Truk': 'Pacific/Chuuk',
  'Pacific/Ponape': 'Pacific/Pohnpei',
};

/** Every IANA zone this Node knows, the current names of renamed ones, and UTC (which Intl does not list as a canonical zone). */
export function timeZones(): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  const current = zones.flatMap((z) => (RENAMED[z] && !zones.includes(RENAMED[z]) ? [RENAMED[z]] : []));
  return [...zones, ...current, ...(zones.includes('UTC') ? [] : ['UTC'])].sort();
}

function visibleOptions(cmd: CommandUnknownOpts): Option[] {
  return cmd.options.filter((o) => !o.hidden);
}

export function commandTree(root: CommandUnknownOpts): CommandSpec[] {
  const out: CommandSpec[] = [];
  const globals = visibleOptions(root);
  const walk = (cmd: CommandUnknownOpts, path: string[]) => {
    const subs = visibleSubcommands(cmd);
    const own = path.length === 0 ? globals : [...visibleOptions(cmd), ...globals];
    const flags: FlagSpec[] = own.map((o) => ({
      names: [o.short, o.long].filter((n): n is string => Boolean(n)),
      description: o.description,
      takesValue: o.required || o.optional,
      values: o.required || o.optional ? flagValues(o, path) : { kind: 'none' },
      global: globals.includes(o),
    }));
    flags.push({ names: ['-h', '--help'], description: 'show help', takesValue: false, values: { kind: 'none' }, global: true });
    out.push({
      path,
      description: cmd.summary() || cmd.description(),
      subcommands: subs.map((c) => ({ name: c.name(), description: c.summary() || c.description() })),
      flags,
      argument: argumentValues(cmd, path),
    });
    for (const sub of subs) walk(sub, [...path, sub.name()]);
  };
  walk(root, []);
  return out;
}
