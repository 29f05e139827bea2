// How a post result reads in a table (terminal) and in TSV (scripts). Every optional field may
// be missing or null (the service API promises neither platform nor created_at), so each
// cell falls back to an empty value instead of failing.
import type { Colors } from './colors.js';
import type { Column } from './writers.js';
import type { TableView } from './output.js';
import { fieldsOf } from './fields-of.js';
import { checkTopFields, columnField } from './fields.js';
import { formatRelative, formatRelativeShort } from './time.js';
import type { PostResult } from '../wire/schemas.js';

type Row = PostResult;

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function username(row: Row): string {
  return str(row.platform_data?.username);
}

/** The handle of the account a result went to ("@acme"), or undefined when the row names none. */
export function resultHandle(row: Row): string | undefined {
  const name = row.platform_data?.username;
  return name ? `@${String(name).replace(/^@/, '')}` : undefined;
}

/** `CODE: message` for a failure; the live URL (or nothing) for a success. */
export function resultLinkOrError(row: Row): string {
  if (row.success) return str(row.platform_data?.url);
  const err = row.error;
  if (!err) return 'no error details';
  const code = str(err.code);
  const message = str(err.message);
  return code && message ? `${code}: ${message}` : code || message || 'no error details';
}

export interface ResultColumnOptions {
  /** Rows of several posts (`results wait --post A --post B`): which post a row belongs to is kept. */
  severalPosts?: boolean;
  /**
   * The rows carry no event time (SyncPostly's API): WHEN would be a column of dashes, so it gives
   * way first where room is short; with room it is still there, empty, as in every format.
   */
  timeless?: boolean;
}

export function resultColumns(now: () => number, options: ResultColumnOptions = {}): Column<Row>[] {
  return [
    // priority: lower is more important; the widest low-priority columns shrink, then drop, first.
    {
      header: '',
      field: 'success',
      value: (r) => (r.success ? 'success' : 'failure'),
      csv: (r) => String(r.success === true),
      pretty: (r, c) => (r.success ? c.green('✓') : c.red('✗')),
      priority: 0,
    },
    // Over several posts, short of room, the post and the outcome stay before the result's id
    // (each failure's id is told under the table, with the command that shows it).
    { header: 'id', field: 'id', value: (r) => r.id, priority: options.severalPosts ? 5 : 1, shrink: 'never' },
    options.severalPosts
      ? { header: 'post', field: 'post_id', value: (r) => r.post_id, priority: 1, shrink: 'never' }
      : { header: 'post', field: 'post_id', value: (r) => r.post_id, priority: 6, optional: true },
    { header: 'platform', field: 'platform', value: (r) => str(r.platform), pretty: (r, c) => str(r.platform) || c.dim('—'), priority: 2 },
    {
      header: 'account',
      field: 'platform_data.username',
      priority: 5,
      optional: true,
      minWidth: 8,
      value: username,
      pretty: (r, c) => {
        const u = username(r);
        if (u) return u.startsWith('@') ? u : `@${u}`;
        return c.dim(r.social_account_id ? r.social_account_id : '—');
      },
      maxWidth: 32,
    },
    {
      header: 'when',
      field: 'created_at',
      // Not optional: when it happened is what triage reads first, so at 80 columns the
      // url / error text is cut for it rather than the time dropped.
      priority: 4,
      value: (r) => str(r.created_at),
      pretty: (r, c) => (r.created_at ? formatRelative(r.created_at, now()) : c.dim('—')),
      // "3h" rather than "3 h…" where "3 hours ago" does not fit.
      compact: (r, c) => (r.created_at ? formatRelativeShort(r.created_at, now()) : c.dim('—')),
      ...(options.timeless ? { priority: 9, optional: true } : {}),
    },
    {
      header: 'url / error',
      field: 'outcome',
      value: resultLinkOrError,
      // A live URL is copied and opened: optional columns give way for it; error texts may be cut.
      whole: (r) => r.success,
      // The error code is what support reads first: other columns are cut before it is ("MEDIA_REJ…").
      lead: (r) => (!r.success && str(r.error?.code) ? `${str(r.error?.code)}:` : ''),
      pretty: (r, c) => prettyOutcome(r, c),
      priority: 3,
      minWidth: 20,
    },
  ];
}

function prettyOutcome(r: Row, c: Colors): string {
  if (r.success) {
    const url = str(r.platform_data?.url);
    return url ? (c.link ? c.link(url) : url) : c.dim('no URL');
  }
  const code = str(r.error?.code);
  const message = str(r.error?.message);
  if (code && message) return `${c.red(code)}: ${message}`;
  return c.red(resultLinkOrError(r));
}

/** How result rows are printed (list, wait): the columns, ids for -q, the fields for --fields. */
export function resultView(now: () => number, options: ResultColumnOptions = {}): TableView<Row> {
  return { kind: 'table', columns: resultColumns(now, options), id: (r) => r.id, fields: fieldsOf('results list') };
}

/**
 * --fields checked before any request against the fields result rows have (a list that comes
 * back empty is no excuse for a misspelt name): a top-level name must be one of them or a column;
 * a nested path inside one (`error.context.limit`, `platform_data.extra`) is data, told by the rows.
 */
export function checkResultFields(fields: readonly string[] | undefined, columns: readonly { field?: string; header: string }[]): void {
  checkTopFields(fields, [...new Set([...columns.map(columnField), ...fieldsOf('results list')])]);
}
