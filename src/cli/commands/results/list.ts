// `socialpub results list`: page through post results with filters, or stream them all.
import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../action.js';
import type { PostResult } from '../../../wire/schemas.js';
import type { OutcomeFilter } from '../../results/footer.js';

export const DEFAULT_LIMIT = 20;
/** Pages in flight once the total is known: hides ~10 ms of latency per page (P3) and stays a
 * handful, well inside the read rate limit; the client drops to one when few requests remain. */
export const DEFAULT_CONCURRENCY = 6;
export const MAX_CONCURRENCY = 8;

interface ListFlags {
  post: string[];
  platform: string[];
  failed?: boolean;
  succeeded?: boolean;
  offset?: string;
  limit?: string;
  all?: boolean;
  concurrency?: string;
}

const collect = (value: string, previous: string[]) => [...previous, value];

export function register(results: Command, ctx: Context): void {
  results
    .command('list')
    .summary('list post results, newest first, with filters')
    .description(
      `Lists post results in the service's order (newest first). --post and --platform filter on the service; --failed and --succeeded filter while paging, so --failed --limit 20 keeps reading until it has 20 failures or the list ends. --limit counts printed rows (default ${DEFAULT_LIMIT}); --all streams every row in constant memory with a few pages in flight, in order and without duplicates even while new results arrive.`,
    )
    .option('--post <id>', 'only results of this post (repeatable)', collect, [])
    .option('--platform <id>', 'only results for this platform (repeatable)', collect, [])
    .addOption(new Option('--failed', 'only failures').conflicts('succeeded'))
    .addOption(new Option('--succeeded', 'only successes').conflicts('failed'))
    .option('--offset <n>', 'start at this row of the list (default 0)')
    .option('--limit <n>', `rows to print (default ${DEFAULT_LIMIT})`)
    .addOption(new Option('--all', 'every row, streamed').conflicts('limit'))
    .option('--concurrency <n>', `pages in flight with --all or a filter (1–${MAX_CONCURRENCY}, default ${DEFAULT_CONCURRENCY})`)
    .addHelpText(
      'after',
      `
Examples:
  socialpub results list --post post_01HZX2
  socialpub results list --failed --platform instagram --platform tiktok --limit 50
  socialpub results list --all -o ndjson > results.ndjson
  socialpub results list --offset 20`,
    )
    .action(action(ctx, (flags: ListFlags) => runList(ctx, flags)));
}

export async function runList(ctx: Context, flags: ListFlags): Promise<number> {
  const [{ parsePlatformFlags, splitList }, { parseWholeNumber }, { PAGE }, { UsageError }] = await Promise.all([
    import('../../results/platform-flag.js'),
    import('../../results/numbers.js'),
    import('../../../wire/headers.js'),
    import('../../cli-error.js'),
  ]);
  const platform = parsePlatformFlags(flags.platform);
  const postId = splitList(flags.post);
  // An empty value (an unset shell variable) must not silently widen the listing to everything.
  if (flags.post.length > 0 && postId.length === 0) throw new UsageError('--post: give a post id');
  if (flags.platform.length > 0 && platform.length === 0) throw new UsageError('--platform: give a platform id');
  const offset = parseWholeNumber('--offset', flags.offset) ?? 0;
  const limit = parseWholeNumber('--limit', flags.limit, { min: 1 }) ?? DEFAULT_LIMIT;
  const concurrency = parseWholeNumber('--concurrency', flags.concurrency, { min: 1, max: MAX_CONCURRENCY }) ?? DEFAULT_CONCURRENCY;
  const filter: OutcomeFilter = flags.failed ? 'failed' : flags.succeeded ? 'succeeded' : undefined;
  const all = Boolean(flags.all);

  // Unfiltered with a limit: ask for just the rows needed, and no pages beyond them.
  const bounded = !all && !filter;
  const pageSize = bounded ? Math.min(limit, PAGE.maxLimit) : PAGE.maxLimit;
  const pagesNeeded = bounded ? Math.ceil(limit / pageSize) : Infinity;
  const inFlight = Math.max(1, Math.min(concurrency, pagesNeeded - 1));

  if (all) (await import('../../results/heap.js')).capHeapGrowth();
  const client = await ctx.client();
  const [{ BatchingSink }, writers, { resultColumns }, { createProgress }, { footerText }] = await Promise.all([
    import('../../results/batching-sink.js'),
    import('../../../output/writers.js'),
    import('../../results/columns.js'),
    import('../../results/progress.js'),
    import('../../results/footer.js'),
  ]);
  const out = ctx.output();
  const sink = new BatchingSink(ctx.io.stdout);
  const columns = resultColumns(() => ctx.clock.now());
  const writer =
    out.format === 'json'
      ? writers.jsonArrayWriter<PostResult>(sink)
      : out.format === 'ndjson'
        ? writers.ndjsonWriter<PostResult>(sink)
        : out.format === 'tsv'
          ? writers.tsvWriter(sink, columns)
          : writers.tableWriter(sink, columns, out.colors, ctx.io.stdout.columns ?? 120);

  const showProgress = all && !out.quiet && Boolean(ctx.io.stderr.isTTY) && !ctx.io.stdout.isTTY;
  const progress = createProgress(ctx.io.stderr, showProgress, () => ctx.clock.now());
  let total: number | undefined;
  let scanned = 0;
  let shown = 0;
  let failedShown = 0;
  const keep = (row: PostResult) => (filter === 'failed' ? !row.success : filter === 'succeeded' ? row.success : true);

  const rows = client.results.iterate(
    { ...(postId.length ? { postId } : {}), ...(platform.length ? { platform } : {}) },
    {
      offset,
      pageSize,
      concurrency: inFlight,
      onTotal: (t) => (total = t),
      onPage: (p) => {
        total = p.total;
        progress.update(offset + scanned, p.total);
      },
    },
  );
  try {
    for await (const row of rows) {
      scanned++;
      if (!keep(row)) continue;
      await writer.write(row);
      shown++;
      if (!row.success) failedShown++;
      if (!all && shown >= limit) break;
    }
    await writer.end();
  } finally {
    progress.done();
    await sink.end();
  }

  if (out.format === 'table' && !out.quiet) {
    ctx.io.stderr.write(out.colors.dim(footerText({ offset, shown, scanned, total, failedShown, filter, all })) + '\n');
  }
  return 0;
}
