// Text from a server (post texts, usernames, error messages, request ids) must not drive the
// user's terminal: an OSC 52 sequence writes the clipboard, OSC 0 retitles the window, CSI 2J
// clears the screen, an OSC 8 link shows one URL and opens another. Before such text reaches a
// terminal or a text format (table, TSV, CSV, calendar, log lines, messages on stderr), every
// control character is made visible as its JSON escape: ESC prints as `\u001b`, so
// `\u001b[2J` is what the reader sees, and nothing happens. Controlled characters: C0 (U+0000 to
// U+001F) except tab and line feed (a carriage return only as part of CRLF), DEL and C1 (U+0080
// to U+009F, which some terminals read as ESC sequences too), and the bidirectional controls
// (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), which reorder what is shown:
// "invoice\u202Egnp.exe" would read "invoiceexe.png". Formats then treat tab and line feed their
// own way. JSON keeps the data exact; only its C1, DEL and bidirectional characters are written as
// \u escapes, which a JSON reader turns back into the same string.
import { asEscape } from '../wire/hidden-characters.js';

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;
const HAS_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/;


// A line that starts with `::` (after blanks: the runner trims them) is a command to a GitHub
// Actions runner (`::add-mask::`, `::warning::`, `::stop-commands::`). Service text never starts
// one: a `::` at its start or after a line break in it shows its first colon as `\u003a`.
const COMMAND_START = /(^|[\r\n])([ \t]*):(?=:)/g;
const HAS_COMMAND_START = /(?:^|[\r\n])[ \t]*::/;
const mayStartCommand = (text: string) => text.includes('::') && HAS_COMMAND_START.test(text);
/** The text with the first colon of each line that would start a runner's command shown as `\u003a`. */
const defuseCommands = (text: string) => (mayStartCommand(text) ? text.replace(COMMAND_START, '$1$2\\u003a') : text);

/** The text with every control character a terminal would act on shown as `\uXXXX`. */
function showControls(text: string): string {
  return HAS_CONTROL.test(text) ? text.replace(CONTROL, asEscape) : text;
}

/**
 * The text with every control character a terminal would act on shown as `\uXXXX`, and no line
 * of it starting a CI runner's command.
 */
export function visible(text: string): string {
  return defuseCommands(showControls(text));
}

/**
 * `visible`, and line breaks shown as `\n`: the service's words kept on one line of ours, so none
 * of them starts a line (a line starting with `::` is a command to a GitHub Actions runner).
 */
export function visibleLine(text: string): string {
  const line = showControls(text.replace(/\r?\n/g, '\\n'));
  // On one line nothing can start a command: a value `visible` already went over shows its `::` again.
  return line.includes('\\u003a') ? line.replace(/\\n([ \t]*)\\u003a:/g, '\\n$1::') : line;
}

/**
 * The value with `visible` applied to every string in it. Plain objects and arrays are copied
 * only where something changes (most rows have nothing to show, and a million rows stream through
 * here), other objects, a Buffer for one, are kept as they are.
 */
export function safeValue<T>(value: T): T {
  return hasControl(value) ? (copySafe(value) as T) : value;
}

const isPlain = (v: object): boolean => Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype;

/**
 * `safeValue` for rows written one line each, their line breaks escaped (TSV): no line of service
 * text can start a line there, so only control characters are shown; a `::` stays as it came.
 */
export function safeOneLineValue<T>(value: T): T {
  return hasControl(value, false) ? (mapStrings(value, showControls) as T) : value;
}

/** Whether any string in the value needs `visible` (a walk that allocates nothing). */
function hasControl(value: unknown, commands = true): boolean {
  if (typeof value === 'string') return HAS_CONTROL.test(value) || (commands && mayStartCommand(value));
  if (value === null || typeof value !== 'object' || !isPlain(value)) return false;
  if (Array.isArray(value)) return value.some((v) => hasControl(v, commands));
  const record = value as Record<string, unknown>;
  for (const key in record) if (hasControl(record[key], commands)) return true;
  return false;
}

function copySafe(value: unknown): unknown {
  return mapStrings(value, visible);
}

function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (value === null || typeof value !== 'object' || !isPlain(value)) return value;
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
}

/**
 * The value with every string exact but for a line of it that would start a CI runner's command
 * (its first colon shown as `\u003a`): for data kept exact (CSV) that a runner reads as its log.
 */
export function withoutCommandStarts<T>(value: T): T {
  return mapStrings(value, defuseCommands) as T;
}

/** JSON text as JSON.stringify writes it, with DEL and C1 escaped too (the same data). */
export function jsonText(value: unknown, indent?: number): string {
  return terminalJson(JSON.stringify(value, null, indent));
}

const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const HAS_JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** JSON text with DEL, C1 and bidirectional controls written as \u escapes (they can only stand inside strings). */
export function terminalJson(text: string): string {
  return HAS_JSON_UNSAFE.test(text) ? text.replace(JSON_UNSAFE, asEscape) : text;
}

/**
 * Whether UTF-8 bytes hold a character terminalJson escapes: DEL (7f), C1 (c2 80-9f), ALM (d8 9c),
 * LRM and RLM (e2 80 8e-8f), LRE-RLO (e2 80 aa-ae), LRI-PDI (e2 81 a6-a9). Each lead byte is found
 * by the bytes' own search: a bulk check's report, encoded anyway, is scanned for a third of what
 * the pattern costs on its text.
 */
export function hasJsonUnsafeBytes(b: Buffer): boolean {
  if (b.indexOf(0x7f) !== -1) return true;
  for (let i = b.indexOf(0xc2); i !== -1; i = b.indexOf(0xc2, i + 1)) if (b[i + 1]! >= 0x80 && b[i + 1]! <= 0x9f) return true;
  for (let i = b.indexOf(0xd8); i !== -1; i = b.indexOf(0xd8, i + 1)) if (b[i + 1] === 0x9c) return true;
  for (let i = b.indexOf(0xe2); i !== -1; i = b.indexOf(0xe2, i + 1)) {
    const c = b[i + 1]!;
    const d = b[i + 2]!;
    if (c === 0x80 ? d === 0x8e || d === 0x8f || (d >= 0xaa && d <= 0xae) : c === 0x81 && d >= 0xa6 && d <= 0xa9) return true;
  }
  return false;
}

/**
 * The colour sequences our palette (chalk at 16 colours) writes: bold, dim, red, green, yellow,
 * magenta, cyan, gray and their resets. In a line of ours, only these and links we made pass.
 */
const OUR_SGR = new Set(['1', '2', '22', '31', '32', '33', '35', '36', '39', '90'].map((n) => `\u001b[${n}m`));
const SEQUENCE = /\u001b\[[0-9;]*m|\u001b\]8;;[^\u0007\u001b]*\u0007/g;
const LINK_END = '\u001b]8;;\u0007';

/**
 * A message line of ours that may hold server text (stderr notes, warnings, a rendered object):
 * our own colours and links stay, every other control character is made visible. `ownLinks`
 * holds the link openings output wrote (`ESC ] 8 ; ; URL BEL`).
 */
export function safeLine(line: string, ownLinks: ReadonlySet<string>): string {
  if (!HAS_CONTROL.test(line)) return mayStartCommand(line) ? visible(line) : line;
  let out = '';
  let last = 0;
  // A link's end is ours only when it closes a link of ours.
  let linkOpen = false;
  for (const m of line.matchAll(SEQUENCE)) {
    const seq = m[0];
    const ours = OUR_SGR.has(seq) || (seq === LINK_END ? linkOpen : ownLinks.has(seq));
    if (!ours) continue;
    if (seq === LINK_END || ownLinks.has(seq)) linkOpen = seq !== LINK_END;
    out += visible(line.slice(last, m.index)) + seq;
    last = m.index + seq.length;
  }
  return out + visible(line.slice(last));
}
