// How a post result reads in a table (terminal) and in TSV (scripts). Every optional field may
// be missing or null (CONTRACT: the client must not require platform or created_at), so each
// cell falls back to an empty value instead of failing.
import type { Colors } from '../../../output/colors.js';
import type { Column } from '../../../output/writers.js';
import { formatRelative } from '../../../output/time.js';
import type { PostResult } from '../../../wire/schemas.js';

type Row = PostResult;

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function username(row: Row): string {
  return str(row.platform_data?.username);
}

/** `CODE: message` for a failure; the live URL (or nothing) for a success. */
export function outcomeText(row: Row): string {
  if (row.success) return str(row.platform_data?.url);
  const err = row.error;
  if (!err) return 'no error details';
  const code = str(err.code);
  const message = str(err.message);
  return code && message ? `${code}: ${message}` : code || message || 'no error details';
}

export function resultColumns(now: () => number): Column<Row>[] {
  return [
    {
      header: '',
      value: (r) => (r.success ? 'success' : 'failure'),
      pretty: (r, c) => (r.success ? c.green('✓') : c.red('✗')),
    },
    { header: 'id', value: (r) => r.id },
    { header: 'post', value: (r) => r.post_id },
    { header: 'platform', value: (r) => str(r.platform), pretty: (r, c) => str(r.platform) || c.dim('—') },
    {
      header: 'account',
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
      value: (r) => str(r.created_at),
      pretty: (r, c) => (r.created_at ? formatRelative(r.created_at, now()) : c.dim('—')),
    },
    {
      header: 'url / error',
      value: outcomeText,
      pretty: (r, c) => prettyOutcome(r, c),
    },
  ];
}

function prettyOutcome(r: Row, c: Colors): string {
  if (r.success) return str(r.platform_data?.url) || c.dim('no URL');
  const code = str(r.error?.code);
  const message = str(r.error?.message);
  if (code && message) return `${c.red(code)}: ${message}`;
  return c.red(outcomeText(r));
}
