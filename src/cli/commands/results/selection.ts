// The rows a results command reads: the service's filters (--post, --platform), and with
// --since/--until the window over event times, which stops paging at the first page wholly older
// than --since (results come newest first). Shared by list and stats.
import type { Context } from '../../context.js';
import type { ApiClient, IterateOptions, ResultListQuery } from '../../../client/types.js';
import type { PostResult } from '../../../wire/schemas.js';
import { parseWindow, type TimeWindow } from '../../../results/since.js';
import { windowRows } from '../../../results/window-pages.js';
import { userZone } from '../../../posts/zone.js';
import type { ListFlags } from './list.js';

/** --since, --until and --tz, as `results list` and `results stats` both define them. */
export type WindowFlags = Pick<ListFlags, 'since' | 'until' | 'tz'>;

export interface SelectionOptions extends IterateOptions {
  query: ResultListQuery;
}

/** --since/--until read before anything is sent (undefined when neither is given). */
export function windowOf(ctx: Context, flags: WindowFlags): TimeWindow | undefined {
  if (flags.since === undefined && flags.until === undefined) return undefined;
  return parseWindow({ since: flags.since, until: flags.until, now: ctx.clock.now(), zone: userZone(ctx.env, flags.tz) });
}

export function selectedResults(ctx: Context, client: ApiClient, window: TimeWindow | undefined, options: SelectionOptions): AsyncIterable<PostResult> {
  const { query, ...paging } = options;
  if (!window) return client.results.iterate(query, paging);
  let pages = 0;
  return windowRows(client, query, window, {
    ...paging,
    onSeek: (offset) => ctx.debug(`--until: started at row ${offset} (found by single-row probes)`),
    onWindowPage: (page) => {
      pages++;
      if (page.stop) ctx.debug(`--since: stopped after ${pages} page(s): the last one is wholly older than the window`);
    },
  });
}
