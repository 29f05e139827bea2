// How `listen` shows the engine's events: data lines (terminal, TSV, NDJSON) for stdout and
// the --log file, and one-line notes for stderr. Pure functions, so they are tested directly.
import { isAscii } from 'node:buffer';
import type { Colors } from '../../../output/colors.js';
import { terminalJson } from '../../../output/terminal-safe.js';
import { cutToWidth, displayWidth, padToWidth } from '../../../output/width.js';
import type { Column } from '../../../output/writers.js';
import type { LogView } from '../../../output/output.js';
import type { DeliveryEvent, ForwardedEvent, ForwardFailedEvent, ForwardSubject, ListenerStats, RejectedEvent, RejectReason } from '../../../listen/types.js';
import { REJECT_LABEL } from '../../../listen/index.js';

/** The NDJSON object: the payload unchanged plus where and how it arrived. */
export function eventRecord(e: DeliveryEvent): Record<string, unknown> {
  return { ...e.payload, webhookId: e.webhookId, receivedAt: e.receivedAt, verified: e.verified };
}

/**
 * The NDJSON line, built from the raw body text: the payload stays byte for byte as sent (big
 * numbers and key order included) and the three fields are appended before its closing brace.
 * In valid JSON a raw CR or LF can only be whitespace between tokens, so turning them into
 * spaces keeps the value and makes it one line. (Re-serialising a spread copy instead costs
 * several microseconds per event, which shows under load.) Our fields come last, so a payload
 * field of the same name is overridden, as with a spread.
 */
export function ndjsonLine(e: DeliveryEvent): string {
  return ndjsonText(e) + '\n';
}

/** The NDJSON line without its newline, exact (the --log file). */
function ndjsonText(e: DeliveryEvent): string {
  return jsonLineOf(e, false);
}

/**
 * The NDJSON line as stdout shows it: DEL, C1 and bidirectional controls inside strings written as
 * \u escapes (terminalJson), which a JSON reader reads back to the same text. A body of plain
 * ASCII below DEL has none, and its bytes say so at once (a native check), so the usual line is
 * not scanned again as text.
 */
function shownJsonText(e: DeliveryEvent): string {
  return jsonLineOf(e, true);
}

function jsonLineOf(e: DeliveryEvent, shown: boolean): string {
  let text = e.text ?? e.raw.toString('utf8');
  // Trimmed only when needed: a body usually starts and ends with its braces.
  if (text.charCodeAt(0) !== 0x7b || text.charCodeAt(text.length - 1) !== 0x7d) text = text.trim();
  if (!text.endsWith('}')) {
    const whole = JSON.stringify(eventRecord(e));
    return shown ? terminalJson(whole) : whole;
  }
  if (text.includes('\n') || text.includes('\r')) text = text.replace(/[\r\n]+/g, ' ');
  const inner = text.slice(0, -1).trimEnd();
  const body = shown && !plainAscii(e.raw) ? terminalJson(inner) : inner;
  const id = e.webhookId;
  // The usual id (printable ASCII, nothing JSON escapes) is quoted as it is: no JSON.stringify,
  // no pass of the terminal escapes over it.
  const quoted = id === null ? 'null' : plainIdText(id) ? `"${id}"` : shown ? terminalJson(JSON.stringify(id)) : JSON.stringify(id);
  return `${body}${inner.endsWith('{') ? '' : ','}"webhookId":${quoted},"receivedAt":"${e.receivedAt}","verified":${e.verified}}`;
}

/** Printable ASCII without a quote or a backslash: written in JSON as it is. */
function plainIdText(id: string): boolean {
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

/** Bytes below DEL only: no control character a terminal could act on beyond what JSON escapes. */
function plainAscii(bytes: Buffer): boolean {
  return isAscii(bytes) && bytes.indexOf(0x7f) === -1;
}

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Payload text shown on a terminal: control characters (escape sequences) and line breaks removed. */
function safe(value: unknown): string {
  return text(value).replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ');
}

/** What a line shows of a delivery. */
interface Shown {
  platform: string;
  status: string;
  postId: string;
  code: string;
  message: string;
  resultId: string;
}

function shown(e: DeliveryEvent): Shown {
  const d = e.delivery;
  if (d) return { platform: d.platform, status: d.status, postId: d.postId, code: d.error?.code ?? '', message: d.error?.message ?? '', resultId: d.resultId ?? '' };
  // A body of another shape (another sender, a test): whatever its fields hold, as text.
  const p = e.payload;
  const err: unknown = p.error;
  const errorObject = err !== null && typeof err === 'object';
  return {
    platform: text(p.platform),
    status: text(p.status),
    postId: text(p.postId),
    code: errorObject ? text(Reflect.get(err, 'code')) : '',
    message: errorObject ? text(Reflect.get(err, 'message')) : text(err),
    resultId: text(p.resultId),
  };
}

const clockFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });

/** The status column is as wide as its widest usual value, so the ids line up below each other. */
const STATUS_WIDTH = '✓ published'.length;
/** As wide as the longest platform id (facebook-page). */
const PLATFORM_WIDTH = 13;
/**
 * Terminal widths from which a line shows the time and the result id beside the post id
 * (narrower, the post id alone names the delivery: it is the one the user scheduled), and from which platform and status
 * are padded to line up and the status is spelt out (narrower, ✓ or ✗ alone, and the code and
 * message get those columns). Chosen by width alone, so
 * every line on one terminal has the same shape.
 */
const FULL_FROM = 100;
const ALIGNED_FROM = 72;

function statusMark(status: string, colors: Colors, aligned: boolean): string {
  const mark = status === 'published' ? '✓' : status === 'failed' ? '✗' : '•';
  // Narrow, ✓ and ✗ say it alone, and the error code after the ids keeps the room ("failed" took
  // it, and cut "PLATFORM_UNAVAILABLE" at 60 columns); any other status is still spelt out.
  const cell = aligned ? `${mark} ${padToWidth(status, STATUS_WIDTH - 2)}` : mark === '•' ? `${mark} ${status}` : mark;
  // Padding goes inside the colour: escape codes have no width, so they must not count.
  return status === 'published' ? colors.green(cell) : status === 'failed' ? colors.red(cell) : colors.yellow(cell);
}

export interface LineOptions {
  /** Terminal columns the line must fit in (unknown: not cut). */
  width?: number;
  timeZone?: string;
}

/**
 * One delivery as one terminal line that fits the width: the message, last, is cut (with …,
 * between graphemes) rather than the line wrapped.
 */
export function terminalLine(e: DeliveryEvent, colors: Colors, options: LineOptions = {}): string {
  const f = shown(e);
  const width = options.width !== undefined && options.width > 0 ? options.width : Infinity;
  const full = width >= FULL_FROM;
  const aligned = width >= ALIGNED_FROM;
  const parts: string[] = [];
  if (full) {
    const time = options.timeZone
      ? new Intl.DateTimeFormat('en-GB', { timeZone: options.timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(new Date(e.receivedAt))
      : clockFormat.format(new Date(e.receivedAt));
    parts.push(colors.dim(time));
  }
  const platform = safe(f.platform) || '?';
  parts.push(aligned ? padToWidth(platform, PLATFORM_WIDTH) : platform, statusMark(safe(f.status) || '?', colors, aligned));
  // Narrow, the post names the delivery (the one a manager knows); wide, its result id follows.
  if (full) parts.push(safe(f.postId) || '?', ...(f.resultId ? [safe(f.resultId)] : []));
  else if (f.postId || f.resultId) parts.push(safe(f.postId) || safe(f.resultId));
  if (f.code) parts.push(colors.bold(safe(f.code)));
  const message = safe(f.message);
  if (message) parts.push(message);
  const line = parts.join('  ');
  const tail = e.verified ? '' : `  ${colors.yellow('(unverified)')}`;
  if (width === Infinity) return `${line}${tail}\n`;
  // Cut from the end: the message first, then ids or a code too long for the width; the mark stays.
  const room = width - displayWidth(tail);
  return room > 0 ? `${cutToWidth(line, room)}${tail}\n` : `${cutToWidth(line + tail, width)}\n`;
}

/** How events are printed through output: a line each on a terminal, TSV piped, NDJSON for --json. */
export function eventView(): LogView<DeliveryEvent> {
  const field = (header: string, pick: (f: Shown) => string): Column<DeliveryEvent> => ({ header, value: (e) => pick(shown(e)) });
  return {
    kind: 'log',
    columns: [
      { header: 'received_at', value: (e) => e.receivedAt },
      field('platform', (f) => f.platform),
      field('status', (f) => f.status),
      field('post', (f) => f.postId),
      field('code', (f) => f.code),
      field('message', (f) => f.message),
      field('result', (f) => f.resultId),
      { header: 'webhook_id', value: (e) => e.webhookId ?? '' },
    ],
    line: (e, colors, width) => terminalLine(e, colors, { width }).trimEnd(),
    jsonLine: shownJsonText,
    json: eventRecord,
  };
}

/** Longest webhook-id shown on a terminal; NDJSON and TSV keep it whole. */
export const SHOWN_ID_MAX = 64;

/** A webhook-id as shown in notes: one line, cut with … when a sender made it huge. */
export function shownId(webhookId: string): string {
  const clean = safe(webhookId);
  return clean.length > SHOWN_ID_MAX ? `${clean.slice(0, SHOWN_ID_MAX - 1)}…` : clean;
}

/** Which delivery a forward note is about: post and platform when known, and its webhook-id. */
function forwardSubject(f: ForwardSubject): string {
  const id = f.webhookId === null ? 'event without webhook-id' : shownId(f.webhookId);
  if (f.postId === undefined) return id;
  const post = `${safe(f.postId)}${f.platform === undefined ? '' : ` on ${safe(f.platform)}`}`;
  return f.webhookId === null ? post : `${post} (${id})`;
}

export function rejectedLine(r: RejectedEvent, colors: Colors): string {
  const who = r.webhookId === null ? '' : ` [${shownId(r.webhookId)}]`;
  return `${colors.red('rejected')} ${r.status} ${REJECT_LABEL[r.reason]}: ${r.detail}${who}\n`;
}

export function duplicateLine(webhookId: string, colors: Colors): string {
  return colors.dim(`duplicate delivery ${shownId(webhookId)} answered 204, not shown again`) + '\n';
}

export function forwardedLine(f: ForwardedEvent, colors: Colors): string {
  const ok = f.status >= 200 && f.status < 300;
  const status = ok ? colors.green(String(f.status)) : colors.red(String(f.status));
  const tries = f.attempts > 1 ? `, ${f.attempts} attempts` : '';
  return `  ${ok ? '→' : colors.red('✗')} forwarded ${forwardSubject(f)}: app answered ${status} (${f.ms} ms${tries})\n`;
}

export function forwardFailedLine(f: ForwardFailedEvent, colors: Colors): string {
  const tries = f.attempts === 1 ? '1 attempt' : `${f.attempts} attempts`;
  return `  ${colors.red('✗')} forward of ${forwardSubject(f)} failed after ${tries}: ${f.error}\n`;
}

export function rejectedBreakdown(rejected: Partial<Record<RejectReason, number>>): string {
  return Object.entries(rejected)
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
    .map(([reason, n]) => `${REJECT_LABEL[reason as RejectReason]} ${n}`)
    .join(', ');
}

export function summaryLine(stats: ListenerStats, printed: number, forwarding: boolean): string {
  const parts = [`received ${stats.received}`, `printed ${printed}`, `duplicates ${stats.duplicates}`];
  if (stats.filtered > 0) parts.push(`filtered out ${stats.filtered}`);
  const notPrinted = stats.events - printed;
  if (notPrinted > 0) parts.push(`arrived after --max-events ${notPrinted}`);
  const breakdown = rejectedBreakdown(stats.rejected);
  parts.push(`rejected ${stats.rejectedTotal}${breakdown ? ` (${breakdown})` : ''}`);
  if (forwarding) parts.push(`forwarded ${stats.forwarded}`, `forward failures ${stats.forwardFailed}`);
  return `summary: ${parts.join(' · ')}\n`;
}
