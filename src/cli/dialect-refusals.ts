// Flags the profile's API cannot carry, refused before any request (exit 2), naming the dialect
// and the fix. The profile is only resolved when such a flag was given.
import type { Context } from './context.js';
import { refuseInDialect, type SpLack } from '../wire/syncpostly/unsupported.js';

export interface DialectCheck {
  /** The flag (or column) was given. */
  given: boolean;
  lack: SpLack;
  field: string;
  fix: string;
}

export async function refuseUnsupported(ctx: Context, checks: readonly DialectCheck[]): Promise<void> {
  const asked = checks.filter((c) => c.given);
  if (!asked.length) return;
  const { api } = await ctx.profile();
  for (const c of asked) refuseInDialect(api, true, c.lack, c.field, c.fix);
}

/** Whether the profile's API has post titles (SyncPostly's has none: YouTube's need of one is its own). */
export async function takesTitles(ctx: Context): Promise<boolean> {
  return (await ctx.profile()).api !== 'syncpostly';
}

/** Whether the profile's API gives result rows their event time (SyncPostly's rows carry none). */
export async function resultsHaveTime(ctx: Context): Promise<boolean> {
  return (await ctx.profile()).api !== 'syncpostly';
}

/** Said wherever a title is refused: YouTube's own rule wants one, which this API cannot send. */
export const TITLE_FIX = "leave the title out (SyncPostly decides a YouTube video's title)";

/** --title and --idempotency-key, as posts create, schedule and edit take them. */
export function postWriteChecks(opts: { title?: string | undefined; idempotencyKey?: string | undefined }): DialectCheck[] {
  return [{ given: opts.title !== undefined, lack: 'title', field: '--title', fix: TITLE_FIX }, idempotencyCheck(opts.idempotencyKey)];
}

export function idempotencyCheck(key: string | undefined): DialectCheck {
  return {
    given: key !== undefined,
    lack: 'idempotencyKey',
    field: '--idempotency-key',
    fix: 'leave --idempotency-key out: a create whose answer is lost is looked for before it is sent again, but a second run sends a second post',
  };
}

/** --since/--until (and --by day): a window over result rows' event time, which the dialect lacks. */
export function windowChecks(flags: { since?: string | undefined; until?: string | undefined; by?: string | undefined }): DialectCheck[] {
  const fix = 'leave it out and narrow by --post or --platform instead (the service filters those)';
  return [
    { given: flags.since !== undefined, lack: 'eventTime', field: '--since', fix },
    { given: flags.until !== undefined, lack: 'eventTime', field: '--until', fix },
    { given: /\bday\b/i.test(flags.by ?? ''), lack: 'eventTime', field: '--by day', fix: 'group by platform, code, account or post instead' },
  ];
}
