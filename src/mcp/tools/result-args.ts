// The filter arguments of list_results and results_stats, read once: the service-side query, the
// window (resolved now, or carried by a cursor) and the client-side failed_only.
import { checkZone } from '../../posts/when.js';
import { InvalidInputError } from '../../wire/invalid-input.js';
import { decodeCursor, type CursorState } from '../cursor.js';
import { windowFromArgs, type ResultQuery } from '../result-pages.js';
import { postIdArg, str, strs } from './fields.js';

export interface ResultArgs {
  query: ResultQuery;
  failedOnly: boolean;
  /** What a cursor is bound to. */
  filters: Record<string, unknown>;
  start: CursorState;
}

export function readResultArgs(args: Record<string, unknown>, now: number, extra: Record<string, unknown> = {}): ResultArgs {
  // Checked as every post_id is: a result id here would quietly match nothing.
  const postId = strs(args.post_ids)?.map((s, i) => postIdArg(s, `post_ids[${i}]`));
  const platform = strs(args.platforms);
  const failedOnly = args.failed_only === true;
  const query: ResultQuery = { ...(postId ? { postId } : {}), ...(platform ? { platform } : {}) };
  const filters = { post_ids: postId ?? null, platforms: platform ?? null, failed_only: failedOnly, ...extra };
  const cursor = str(args.cursor);
  if (cursor !== undefined) return { query, failedOnly, filters, start: decodeCursor(cursor, filters) };
  const zone = str(args.time_zone) ?? 'UTC';
  try {
    checkZone(zone);
  } catch {
    throw new InvalidInputError([{ field: 'time_zone', message: `time_zone: "${zone}" is not a known time zone`, fix: 'use an IANA name such as Europe/Paris, America/New_York or UTC' }]);
  }
  const window = windowFromArgs(str(args.since), str(args.until), now, zone);
  return { query, failedOnly, filters, start: { offset: 0, ...window } };
}
