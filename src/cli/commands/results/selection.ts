// The selection flags of `results list` and `results stats` (--post, --platform, --code,
// --failed, --succeeded, --since, --until, --tz), read before anything is sent; what they select
// is src/results/selection.ts.
import type { Context } from '../../context.js';
import type { ApiClient, IterateOptions } from '../../../client/types.js';
import { BudgetError, LARGE_READ_SHARE } from '../../../client/budget.js';
import { PAGE } from '../../../wire/protocol.js';
import { parseWindow, type TimeWindow } from '../../../results/since.js';
import { rowFilterOf, type RowFilter } from '../../../results/selection.js';
import { checkPostId } from '../../../posts/find.js';
import { userZone } from '../../../posts/zone.js';
import { platforms as parsePlatforms } from '../../flags/choice.js';
import { flagError, givenList } from '../../flags/text.js';
import type { ListFlags } from './list.js';
import { refuseAccountRefsOffPlatforms } from '../accounts/select.js';

/** --since, --until and --tz, as `results list` and `results stats` both define them. */
export type WindowFlags = Pick<ListFlags, 'since' | 'until' | 'tz'>;

/** The filters of `results list` and `results stats`: on the service (--post, --platform) or while paging. */
export interface FilterFlags {
  post?: string[];
  platform?: string[];
  account?: string[];
  code?: string[];
  failed?: boolean;
  succeeded?: boolean;
}

/** The filter flags read before anything is sent; an empty value (an unset shell variable) is refused. */
export function rowFilter(flags: FilterFlags): RowFilter {
  const platform = parsePlatforms('--platform', flags.platform);
  refuseAccountRefsOffPlatforms(flags.account, platform);
  const postId = givenList('--post', flags.post, 'a post id').map((id) => checkPostId(id, '--post'));
  const codes = givenList('--code', flags.code, 'an error code, e.g. --code MEDIA_REJECTED').map((c) => c.toUpperCase());
  if (codes.length > 0 && flags.succeeded) throw flagError('--code', 'an error code selects failures: it cannot be combined with --succeeded');
  return rowFilterOf({ postId, platform, codes, failed: flags.failed, succeeded: flags.succeeded });
}

/** --since/--until read before anything is sent (undefined when neither is given). */
export function windowOf(ctx: Context, flags: WindowFlags): TimeWindow | undefined {
  if (flags.since === undefined && flags.until === undefined) return undefined;
  return parseWindow({ since: flags.since, until: flags.until, now: ctx.clock.now(), zone: userZone(ctx.env, flags.tz) });
}

/**
 * The read budget of a results scan. `everyPage` (--all, stats without --since): once the first
 * page gives the total, the pages still to read are weighed against what the read limit has left
 * and a read that would use more than half of it is not started (on a terminal, the user is asked).
 * A scan filtered while paging (--failed, --code) may stop anywhere, so it is weighed as it goes:
 * it stops once it has used half of what was left when it began, saying so and how to narrow it.
 */
export function readBudgetGuard(
  ctx: Context,
  client: ApiClient,
  scan: { offset: number; everyPage: boolean; filtered: boolean; what: string },
): Pick<IterateOptions, 'onTotal' | 'onPage'> {
  const budget = client.budget;
  if (!budget) return {};
  const cuts = ['--since DUR (e.g. --since 24h) reads only the recent pages', '--post ID or --platform P are filtered by the service, not while paging'];
  let startLeft: number | undefined;
  let pages = 0;
  return {
    async onTotal(total) {
      startLeft = budget.readsUsable();
      if (!scan.everyPage) return;
      const more = Math.max(0, Math.ceil((total - scan.offset) / PAGE.maxLimit) - 1);
      try {
        budget.checkLargeRead(more, scan.what, cuts);
      } catch (err) {
        if (!ctx.globals.interactive || !(err instanceof BudgetError)) throw err;
        if (!(await ctx.prompter().confirm({ message: `${err.message}. Read every page anyway?`, default: false }))) throw err;
      }
    },
    onPage() {
      pages++;
      if (!scan.filtered || scan.everyPage || startLeft === undefined || pages <= startLeft * LARGE_READ_SHARE) return;
      throw new BudgetError(`stopped after ${pages} pages: ${scan.what} filtered while paging has used half of the ${startLeft} reads the read limit had left for this workspace`, {
        code: 'READ_BUDGET',
        cuts: [...cuts, '--spend-budget to scan on anyway, or --max-requests N to cap the cost'],
      });
    },
  };
}
