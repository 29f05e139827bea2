// The rows of a --since/--until window read through the client: with --until, paging starts at
// the offset found by seekUntil; with --since, it stops after the first page wholly older.
import type { ApiClient, IterateOptions, ResultListQuery } from '../client/types.js';
import type { PostResult } from '../wire/schemas.js';
import { seekUntil, selectWindow, type TimeWindow, type WindowOptions } from './since.js';

export interface WindowReadOptions extends IterateOptions, WindowOptions {
  /** Told how many rows newer than --until were skipped by seeking (0 when it did not seek). */
  onSeek?: (offset: number) => void;
}

export async function* windowRows(
  client: Pick<ApiClient, 'results'>,
  query: ResultListQuery,
  window: TimeWindow,
  options: WindowReadOptions = {},
): AsyncGenerator<PostResult, void, undefined> {
  const { onWindowPage, onSeek, ...iterate } = options;
  let offset = iterate.offset ?? 0;
  if (window.until !== undefined && offset === 0) {
    offset = await seekUntil(async (at) => {
      const res = await client.results.list({ ...query, offset: at, limit: 1 });
      const row = res.data.data[0];
      return { id: row?.id, createdAt: row?.created_at, total: res.data.meta.total };
    }, window.until, iterate.pageSize ?? 100);
    onSeek?.(offset);
  }
  yield* selectWindow(client.results.pages(query, { ...iterate, offset }), window, onWindowPage ? { onWindowPage } : {});
}
