// The selection flags of `results list` and `results stats` (--post, --platform, --code,
// --failed, --succeeded, --since, --until, --tz), read before anything is sent; what they select
// is src/results/selection.ts.
import type { Context } from '../../context.js';
import { parseWindow, type TimeWindow } from '../../../results/since.js';
import { rowFilterOf, type RowFilter } from '../../../results/selection.js';
import { checkPostId } from '../../../posts/find.js';
import { userZone } from '../../../posts/zone.js';
import { platforms as parsePlatforms } from '../../flags/choice.js';
import { flagError, splitList } from '../../flags/text.js';
import type { ListFlags } from './list.js';

/** --since, --until and --tz, as `results list` and `results stats` both define them. */
export type WindowFlags = Pick<ListFlags, 'since' | 'until' | 'tz'>;

/** The filters of `results list` and `results stats`: on the service (--post, --platform) or while paging. */
export interface FilterFlags {
  post?: string[];
  platform?: string[];
  code?: string[];
  failed?: boolean;
  succeeded?: boolean;
}

/** The filter flags read before anything is sent; an empty value (an unset shell variable) is refused. */
export function rowFilter(flags: FilterFlags): RowFilter {
  const platform = parsePlatforms('--platform', flags.platform);
  const postId = splitList(flags.post).map((id) => checkPostId(id, '--post'));
  const codes = splitList(flags.code).map((c) => c.toUpperCase());
  if ((flags.post ?? []).length > 0 && postId.length === 0) throw flagError('--post', 'give a post id');
  if ((flags.platform ?? []).length > 0 && platform.length === 0) throw flagError('--platform', 'give a platform id');
  if ((flags.code?.length ?? 0) > 0 && codes.length === 0) throw flagError('--code', 'give an error code, e.g. --code MEDIA_TOO_LARGE');
  if (codes.length > 0 && flags.succeeded) throw flagError('--code', 'an error code selects failures: it cannot be combined with --succeeded');
  return rowFilterOf({ postId, platform, codes, failed: flags.failed, succeeded: flags.succeeded });
}

/** --since/--until read before anything is sent (undefined when neither is given). */
export function windowOf(ctx: Context, flags: WindowFlags): TimeWindow | undefined {
  if (flags.since === undefined && flags.until === undefined) return undefined;
  return parseWindow({ since: flags.since, until: flags.until, now: ctx.clock.now(), zone: userZone(ctx.env, flags.tz) });
}
