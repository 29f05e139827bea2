// `socialpub posts list`: posts by status, newest first; a table on a terminal, TSV when piped,
// the API's rows unchanged under --json / --output ndjson. --all streams in constant memory.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../action.js';
import { UsageError } from '../../cli-error.js';
import { collect } from './payload-options.js';

interface ListOptions {
  status?: string[];
  limit?: string;
  offset?: string;
  all?: boolean;
}

export function registerList(posts: Command, ctx: Context): void {
  posts
    .command('list')
    .summary('list posts, filtered by status')
    .description(
      'List posts newest first. --limit is how many rows to print (default 20); pages of up to 100 are fetched as ' +
        'needed. --all streams every post in constant memory. On a terminal: a table with coloured statuses and ' +
        'relative times, and a footer on stderr with the next --offset; piped: TSV with RFC 3339 times.',
    )
    .option('--status <status>', 'draft, scheduled, published or failed (repeatable)', collect)
    .option('--limit <n>', 'rows to print', undefined)
    .option('--offset <n>', 'rows to skip first', undefined)
    .option('--all', 'every post (streams)')
    .addHelpText(
      'after',
      `
Examples:
  socialpub posts list
  socialpub posts list --status failed --status published --limit 50
  socialpub posts list --status scheduled --all --output ndjson > scheduled.ndjson
  socialpub posts list --offset 20`,
    )
    .action(action(ctx, async (opts: ListOptions) => run(ctx, opts)));
}

function wholeNumber(flag: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min) {
    throw new UsageError(`${flag}: "${value}" is not a whole number${min > 0 ? ` of at least ${min}` : ''}`, [`e.g. ${flag} ${min > 0 ? 20 : 40}`]);
  }
  return n;
}

async function run(ctx: Context, opts: ListOptions): Promise<number> {
  const [{ POST_STATUSES, isPostStatus }, { nearest }] = await Promise.all([import('../../../wire/platforms.js'), import('../../posts/suggest.js')]);
  const statuses = (opts.status ?? []).flatMap((s) => s.split(',')).map((s) => s.trim().toLowerCase()).filter(Boolean);
  for (const s of statuses) {
    if (!isPostStatus(s)) {
      const near = nearest(s, POST_STATUSES);
      throw new UsageError(`--status: "${s}" is not a post status`, [`${near ? `did you mean "${near}"? ` : ''}statuses: ${POST_STATUSES.join(', ')}`]);
    }
  }
  if (opts.all && opts.limit !== undefined) throw new UsageError('--all and --limit cannot be combined', ['--all prints every post; --limit N prints N']);
  const limit = opts.all ? Infinity : (wholeNumber('--limit', opts.limit, 1) ?? 20);
  const offset = wholeNumber('--offset', opts.offset, 0) ?? 0;

  const [{ postColumns }, { userZone }] = await Promise.all([import('../../posts/list-columns.js'), import('../../posts/zone.js')]);
  const client = await ctx.client();
  const out = ctx.output();
  let total: number | undefined;
  const rows = client.posts.iterate(
    { ...(statuses.length ? { status: [...new Set(statuses)] } : {}) },
    {
      offset,
      pageSize: Math.min(100, limit),
      // With --limit, only as many pages in flight as the rows still wanted need.
      ...(Number.isFinite(limit) ? { concurrency: Math.max(1, Math.min(4, Math.ceil(limit / 100) - 1)) } : {}),
      onTotal: (t) => (total = t),
    },
  );
  const limited = async function* () {
    if (limit <= 0) return;
    let n = 0;
    for await (const row of rows) {
      yield row;
      if (++n >= limit) return;
    }
  };
  let count = 0;
  if (out.quiet && (out.format === 'tsv' || out.format === 'table')) {
    // -q: the ids alone, one per line (for xargs and loops).
    for await (const post of limited()) {
      await out.data(post.id);
      count++;
    }
  } else count = await out.list(limited(), postColumns(ctx.clock.now(), userZone(ctx, undefined)));
  if (out.format === 'table' && ctx.io.stderr.isTTY && !out.quiet) {
    const { listFooter } = await import('../../posts/list-columns.js');
    ctx.io.stderr.write(listFooter(offset, count, total, statuses) + '\n');
  }
  return 0;
}
