// The detail view of one post result (`results get`): every field, the known ones named and
// formatted, anything else the service added shown as it came.
import type { Colors } from './colors.js';
import { formatLocal, formatRelative } from './time.js';
import type { PostResult } from '../wire/schemas.js';
import { indentedBlock as block } from './fields.js';
import { visibleLine } from './terminal-safe.js';

const KNOWN_TOP = new Set(['id', 'post_id', 'success', 'social_account_id', 'platform_data', 'error', 'platform', 'created_at']);
const KNOWN_PLATFORM_DATA = new Set(['id', 'url', 'username']);
const KNOWN_ERROR = new Set(['code', 'message', 'context']);

function scalar(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

// The service's words never start a line of this view: a value of one line broken in two reads as
// two fields, and a GitHub Actions runner reads a line of a job's log that starts with `::` as a
// command. Values of one line show their breaks as \n; blocks (a message quoting an upstream page)
// keep their lines, all but a break before `::` (see indentedBlock).
const oneLine = visibleLine;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `zone`: the user's time zone, shown beside UTC (none, or UTC: UTC alone). */
export function renderResult(row: PostResult, c: Colors, now: number, zone?: string): string {
  const label = 18;
  const indent = ' '.repeat(label + 2);
  const lines: string[] = [];
  const field = (name: string, value: string) => lines.push(`  ${c.dim(oneLine(name).padEnd(label))}${value}`);

  const id = oneLine(row.id);
  lines.push(row.success ? `${c.green('✓')} ${c.bold('succeeded')}  ${id}` : `${c.red('✗')} ${c.bold('failed')}  ${id}`);
  field('id', id);
  field('post', oneLine(row.post_id));
  field('platform', typeof row.platform === 'string' ? oneLine(row.platform) : c.dim('(not given)'));
  const pd = isObject(row.platform_data) ? row.platform_data : undefined;
  const user = typeof pd?.username === 'string' && pd.username ? `@${oneLine(pd.username.replace(/^@/, ''))}` : '';
  const account = row.social_account_id ? oneLine(row.social_account_id) : undefined;
  if (account) field('account', user ? `${account} (${user})` : account);
  else field('account', `${c.dim('not tied to a connected account')}${user ? ` (${user})` : ''}`);
  if (pd && typeof pd.id === 'string') field('platform post id', oneLine(pd.id));
  // Shown in full (never cut), and clickable where the terminal supports links.
  const url = typeof pd?.url === 'string' ? oneLine(pd.url) : '';
  if (row.success) field('url', url ? (c.link ? c.link(url) : url) : c.dim('(the platform gave none)'));
  if (typeof row.created_at === 'string') {
    const rel = formatRelative(row.created_at, now);
    field('created', rel ? `${oneLine(row.created_at)} (${rel})` : oneLine(row.created_at));
    // The user's own clock beside UTC, read the way `posts view` shows a post's time.
    const local = zone && zone !== 'UTC' && !Number.isNaN(Date.parse(row.created_at)) ? formatLocal(row.created_at, zone) : undefined;
    if (local) lines.push(`${indent}${local}${local.endsWith(` ${zone}`) ? '' : ` (${zone})`}`);
  }
  if (pd) for (const [k, v] of Object.entries(pd)) if (!KNOWN_PLATFORM_DATA.has(k)) field(`platform_data.${k}`, block(v, indent));

  const err = isObject(row.error) ? row.error : undefined;
  if (err) {
    field('error code', c.red(oneLine(scalar(err.code))));
    // A message of several lines (an upstream page quoted) continues under the value column, so
    // that none of its lines can pass for a field of its own.
    const message = scalar(err.message).replace(/\r\n/g, '\n');
    field('error message', message.trim() ? block(message, indent) : c.dim('(none)'));
    if (err.context !== undefined && err.context !== null) field('context', block(err.context, indent));
    for (const [k, v] of Object.entries(err)) if (!KNOWN_ERROR.has(k)) field(`error.${k}`, block(v, indent));
  } else if (!row.success) field('error', c.dim('(the service gave no details)'));

  for (const [k, v] of Object.entries(row)) if (!KNOWN_TOP.has(k)) field(k, block(v, indent));
  return lines.join('\n');
}

/** `results get --fields a,b` on a terminal or piped: only those fields, one per line, in order. */
