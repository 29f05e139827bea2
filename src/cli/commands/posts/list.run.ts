// `posts list`, run: pages through GET /v1/posts (newest first) and hands the rows to output.
import type { Context } from '../../context.js';
import { UsageError } from '../../cli-error.js';
import { FLAG_DEFAULTS } from '../../flags/index.js';
import { optionalWholeNumber } from '../../flags/number.js';
import { statuses as parseStatuses } from '../../flags/choice.js';
import { userZone } from '../../../posts/zone.js';
import { listFooter, postView } from './list-columns.js';
import { cutByLimitText } from '../../../output/cut-notice.js';
import type { ListFlags } from './list.js';
import { rememberPostIds } from '../../post-id-cache.js';
import { splitList } from '../../flags/text.js';

/**
 * --status: our four, and SyncPostly's `processing` (publishing under way, which our API has no
 * word for) where the profile speaks SyncPostly's API; elsewhere it is refused as any unknown status.
 */
async function listStatuses(ctx: Context, given: string[] | undefined): Promise<string[]> {
  const values = splitList(given);
  const isProcessing = (v: string) => v.trim().toLowerCase() === 'processing';
  if (!values.some(isProcessing) || (await ctx.profile()).api !== 'syncpostly') return parseStatuses('--status', given);
  return [...parseStatuses('--status', values.filter((v) => !isProcessing(v))), 'processing'];
}

export async function runList(ctx: Context, opts: ListFlags): Promise<number> {
  const statuses = await listStatuses(ctx, opts.status);
  if (opts.all && opts.limit !== undefined) throw new UsageError('--all and --limit cannot be combined', ['--all prints every post; --limit N prints N']);
  const limit = opts.all ? Infinity : (optionalWholeNumber('--limit', opts.limit, { min: 1 }) ?? FLAG_DEFAULTS.limit);
  const offset = optionalWholeNumber('--offset', opts.offset) ?? 0;
  // Checked before any request: a zone typo is a usage error, not a half-printed table.
  const zone = userZone(ctx.env, opts.tz);

  const client = await ctx.client();
  const out = ctx.output();
  let total: number | undefined;
  const rows = client.posts.iterate(
    { ...(statuses.length ? { status: statuses } : {}) },
    {
      offset,
      pageSize: Math.min(100, limit),
      // With --limit, only as many pages in flight as the rows still wanted need.
      ...(Number.isFinite(limit) ? { concurrency: Math.max(1, Math.min(4, Math.ceil(limit / 100) - 1)) } : {}),
      onTotal: (t) => (total = t),
    },
  );
  // The first ids printed are remembered for shell completion (no request is made at Tab).
  const shown: string[] = [];
  async function* limited() {
    let n = 0;
    for await (const row of rows) {
      if (shown.length < 100) shown.push(row.id);
      yield row;
      if (++n >= limit) return;
    }
  }
  const count = await out.list(limited(), postView(ctx.clock.now(), zone, statuses));
  await rememberPostIds(ctx, shown);
  out.footer(listFooter(offset, count, total, statuses));
  const cut = count < limit ? undefined : cutByLimitText({ shown: count, total, offset, scanned: count });
  if (cut) out.cut(cut);
  return 0;
}
