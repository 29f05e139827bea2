// How `listen` shows the engine's events: data lines (terminal, TSV, NDJSON) for stdout and
// the --log file, and one-line notes for stderr. Pure functions, so they are tested directly.
import type { Colors } from '../../../output/colors.js';
import { tsvCell } from '../../../output/writers.js';
import type { DeliveryEvent, ForwardedEvent, ForwardFailedEvent, ListenerStats, RejectedEvent, RejectReason } from '../../../listen/types.js';
import { REJECT_LABEL } from '../../../listen/reasons.js';

export type LineFormat = 'terminal' | 'tsv' | 'ndjson';

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
  let text = e.raw.toString('utf8').trim();
  if (!text.endsWith('}')) return JSON.stringify(eventRecord(e)) + '\n';
  if (text.includes('\n') || text.includes('\r')) text = text.replace(/[\r\n]+/g, ' ');
  const inner = text.slice(0, -1).trimEnd();
  const sep = inner.endsWith('{') ? '' : ',';
  return `${inner}${sep}"webhookId":${e.webhookId === null ? 'null' : JSON.stringify(e.webhookId)},"receivedAt":"${e.receivedAt}","verified":${e.verified}}\n`;
}

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Payload text shown on a terminal: control characters (escape sequences) and line breaks removed. */
function safe(value: unknown): string {
  // eslint-disable-next-line no-control-regex
  return text(value).replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ');
}

function errorOf(payload: Record<string, unknown>): { code: string; message: string } {
  const err = payload.error;
  if (err === null || err === undefined) return { code: '', message: '' };
  if (typeof err !== 'object') return { code: '', message: text(err) };
  const e = err as Record<string, unknown>;
  return { code: text(e.code), message: text(e.message) };
}

export function tsvLine(e: DeliveryEvent): string {
  const p = e.payload;
  const err = errorOf(p);
  return [e.receivedAt, text(p.platform), text(p.status), text(p.postId), err.code, err.message, text(p.resultId), e.webhookId ?? '']
    .map((v) => tsvCell(v))
    .join('\t')
    .concat('\n');
}

const clockFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });

export function terminalLine(e: DeliveryEvent, colors: Colors, timeZone?: string): string {
  const p = e.payload;
  const time = timeZone
    ? new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(new Date(e.receivedAt))
    : clockFormat.format(new Date(e.receivedAt));
  const status = safe(p.status) || '?';
  const mark =
    status === 'published' ? colors.green(`✓ ${status}`) : status === 'failed' ? colors.red(`✗ ${status}`) : colors.yellow(`• ${status}`);
  const parts = [colors.dim(time), (safe(p.platform) || '?').padEnd(13), mark, safe(p.postId) || '?'];
  const err = errorOf(p);
  if (err.code) parts.push(colors.bold(safe(err.code)));
  if (err.message) parts.push(safe(err.message));
  if (!e.verified) parts.push(colors.yellow('(unverified)'));
  return parts.join('  ') + '\n';
}

export function eventLine(format: LineFormat, e: DeliveryEvent, colors: Colors): string {
  return format === 'ndjson' ? ndjsonLine(e) : format === 'tsv' ? tsvLine(e) : terminalLine(e, colors);
}

const id = (webhookId: string | null) => (webhookId === null ? 'event without webhook-id' : webhookId);

export function rejectedLine(r: RejectedEvent, colors: Colors): string {
  const who = r.webhookId === null ? '' : ` [${r.webhookId}]`;
  return `${colors.red('rejected')} ${r.status} ${REJECT_LABEL[r.reason]}: ${r.detail}${who}\n`;
}

export function duplicateLine(webhookId: string, colors: Colors): string {
  return colors.dim(`duplicate delivery ${webhookId} answered 204, not shown again`) + '\n';
}

export function forwardedLine(f: ForwardedEvent, colors: Colors): string {
  const ok = f.status >= 200 && f.status < 300;
  const status = ok ? colors.green(String(f.status)) : colors.red(String(f.status));
  const tries = f.attempts > 1 ? `, ${f.attempts} attempts` : '';
  return `  ${ok ? '→' : colors.red('✗')} forwarded ${id(f.webhookId)}: app answered ${status} (${f.ms} ms${tries})\n`;
}

export function forwardFailedLine(f: ForwardFailedEvent, colors: Colors): string {
  const tries = f.attempts === 1 ? '1 attempt' : `${f.attempts} attempts`;
  return `  ${colors.red('✗')} forward of ${id(f.webhookId)} failed after ${tries}: ${f.error}\n`;
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
