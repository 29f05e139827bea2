// How an account reads in `accounts list` (and the header of `accounts view`): handle, status,
// default, token expiry and the last outcomes; plain RFC 3339 values for scripts.
import type { Colors } from '../../../output/colors.js';
import type { TableView } from '../../../output/output.js';
import type { Column } from '../../../output/writers.js';
import { formatRelative, formatRelativeShort } from '../../../output/time.js';
import type { AccountWithHealth } from '../../../accounts/health.js';
import { handleOf } from '../../../accounts/label.js';
import { fieldsOf } from '../../../output/fields-of.js';

type Row = AccountWithHealth;

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function statusText(status: string | null | undefined, c: Colors): string {
  // Not known (a SyncPostly account with no recent result, or accounts derived from results): said
  // so, not left blank, so that it does not read as "fine".
  if (!status) return c.dim('unknown');
  if (status === 'connected') return c.green(status);
  if (status === 'expired') return c.red(status);
  return c.yellow(status);
}

const when = (iso: string | null | undefined, now: number, c: Colors) => (iso ? formatRelative(iso, now) : c.dim('—'));

export function lastFailureText(r: Row): string {
  const f = r.health.lastFailure;
  return f ? `${f.code ?? 'failed'} ${f.at ?? ''}`.trim() : '';
}

/**
 * What the service told of its accounts: SyncPostly's (and those derived from results) carry no
 * status or default. Such a column, all dashes, gives way first on a narrow terminal, before the
 * last outcomes, which are known; with room it is still there, empty, as in every format.
 */
export interface KnownFields {
  status: boolean;
  isDefault: boolean;
}

export const knownFields = (rows: readonly Pick<Row, 'status' | 'isDefault'>[]): KnownFields => ({
  status: rows.some((r) => !!r.status),
  isDefault: rows.some((r) => typeof r.isDefault === 'boolean'),
});

const unknownGivesWay = (known: boolean) => (known ? {} : { priority: 9, optional: true });

export function accountColumns(now: () => number, known: KnownFields = { status: true, isDefault: true }): Column<Row>[] {
  return [
    { header: 'id', field: 'id', value: (r) => r.id, priority: 7, optional: true, shrink: 'never' },
    { header: 'platform', field: 'platform', value: (r) => r.platform, priority: 2, shrink: 'never' },
    { header: 'handle', field: 'username', value: (r) => str(r.username), pretty: (r) => handleOf(r), priority: 0, maxWidth: 32, shrink: 'never' },
    { header: 'name', field: 'displayName', value: (r) => str(r.displayName), pretty: (r, c) => str(r.displayName) || c.dim('—'), priority: 8, optional: true, maxWidth: 28 },
    // What needs attention is read first: never cut to "conne…".
    { header: 'status', field: 'status', value: (r) => str(r.status), pretty: (r, c) => statusText(r.status, c), priority: 1, shrink: 'never', ...unknownGivesWay(known.status) },
    {
      header: 'default',
      field: 'isDefault',
      value: (r) => (r.isDefault === true ? 'true' : r.isDefault === false ? 'false' : ''),
      pretty: (r, c) => (r.isDefault === true ? c.green('✓') : r.isDefault === false ? '' : c.dim('—')),
      priority: 4,
      // Which of two LinkedIn pages posts go to is why the column exists: with no room for it
      // (60 or 80 columns), the default's ✓ follows its handle.
      fold: { into: 'handle', mark: (r, c) => (r.isDefault === true ? c.green('✓') : ''), legend: '✓ default' },
      ...unknownGivesWay(known.isDefault),
    },
    {
      header: 'token expires',
      field: 'tokenExpiresAt',
      value: (r) => str(r.tokenExpiresAt),
      pretty: (r, c) => {
        if (!r.tokenExpiresAt) return c.dim('—');
        const text = formatRelative(r.tokenExpiresAt, now());
        return Date.parse(r.tokenExpiresAt) <= now() ? c.red(text) : text;
      },
      priority: 6,
      optional: true,
    },
    {
      header: 'last success',
      field: 'health.lastSuccess.at',
      value: (r) => str(r.health.lastSuccess?.at),
      // A success without a time (SyncPostly's rows carry none) is still a success: ✓, not "—".
      pretty: (r, c) => (r.health.lastSuccess && !r.health.lastSuccess.at ? c.green('✓') : when(r.health.lastSuccess?.at, now(), c)),
      compact: (r, c) => (r.health.lastSuccess?.at ? formatRelativeShort(r.health.lastSuccess.at, now()) : r.health.lastSuccess ? c.green('✓') : c.dim('—')),
      priority: 5,
    },
    {
      header: 'last failure',
      field: 'health.lastFailure',
      value: lastFailureText,
      pretty: (r, c) => {
        const f = r.health.lastFailure;
        return f ? `${c.red(f.code ?? 'failed')} ${f.at ? formatRelative(f.at, now()) : ''}`.trim() : c.dim('—');
      },
      // "API_RATE_LIMIT 3h" where "… 3 hours ago" does not fit.
      compact: (r, c) => {
        const f = r.health.lastFailure;
        return f ? `${c.red(f.code ?? 'failed')} ${f.at ? formatRelativeShort(f.at, now()) : ''}`.trim() : c.dim('—');
      },
      lead: (r) => r.health.lastFailure?.code ?? '',
      priority: 3,
    },
  ];
}

export function accountView(now: () => number, known?: KnownFields): TableView<Row> {
  return { kind: 'table', columns: accountColumns(now, known), id: (r) => r.id, fields: fieldsOf('accounts list') };
}
