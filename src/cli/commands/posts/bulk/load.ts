// A bulk file, read and checked before anything is sent: the flags that make sense with it, the
// zone, every row parsed and validated (media facts included). A file with bad rows is refused
// with every bad row and field listed, unless --skip-invalid.
import type { Context } from '../../../context.js';
import { UsageError } from '../../../cli-error.js';
import { buildBody, collectFacts } from '../../../../posts/body.js';
import type { Issue, MediaSource } from '../../../../posts/draft.js';
import { mediaInspector, type MediaFacts } from '../../../../posts/media-facts.js';
import { validateDraft } from '../../../../posts/validate.js';
import { catchTime } from '../../../../posts/issues.js';
import type { ScheduleFlags } from '../schedule.js';
import { userZone } from '../../../../posts/zone.js';
import { readSource, type Source } from '../read-source.js';
import { printInvalidDryRun } from '../dry-run.js';
import { InvalidInputError } from '../../../../wire/invalid-input.js';
import { machineZone } from '../../../../posts/when.js';
import { atLine, parseBulk, type BulkRow } from '../../../../posts/bulk/rows.js';
import { loadAccounts } from '../../../../accounts/catalog.js';
import { attachAccounts, resolveAccounts } from '../../../../accounts/resolve.js';
import { derivedNotice } from '../../accounts/select.js';
import { warnUnhealthy } from '../accounts.js';
import { DIALECT_HINT, dialectIssue } from '../../../../wire/syncpostly/unsupported.js';
import { AccountChoiceError, someCandidates } from '../../../../wire/syncpostly/account-choice.js';
import { TITLE_FIX, takesTitles } from '../../../dialect-refusals.js';
import { shellWord } from '../../../shell-word.js';

/** Problems of a refused file shown on stderr; the rest are counted, with the command that lists them. */
const SHOWN_PROBLEMS = 50;

export interface LoadedBulk {
  src: Source;
  zone: string;
  /** Epoch ms the times were checked against. */
  now: number;
  rows: BulkRow[];
  good: BulkRow[];
  bad: BulkRow[];
  issues: Issue[];
  facts: Map<MediaSource, MediaFacts>;
}

// Every flag that says something about one post: the rows say it themselves, so each is refused
// rather than dropped (--account once scheduled the rows to their own accounts without a word).
const ROW_FLAGS = [
  ['platform', '--platform'],
  ['text', '--text'],
  ['textFile', '--text-file'],
  ['textFor', '--text-for'],
  ['media', '--media'],
  ['alt', '--alt'],
  ['title', '--title'],
  ['thread', '--thread'],
  ['firstComment', '--first-comment'],
  ['option', '--option'],
  ['file', '--file'],
  ['at', '--at'],
  ['account', '--account'],
  ['idempotencyKey', '--idempotency-key'],
] as const satisfies ReadonlyArray<readonly [keyof ScheduleFlags, string]>;

function conflictingFlags(opts: ScheduleFlags): string[] {
  return ROW_FLAGS.filter(([key]) => opts[key] !== undefined).map(([, flag]) => flag);
}

/** The `account` column: one accounts lookup for the whole file, each row's references resolved onto its payloads. */
async function rowAccounts(ctx: Context, rows: BulkRow[]): Promise<void> {
  const named = rows.filter((r) => r.accounts?.length && r.draft);
  if (!named.length) return;
  const client = await ctx.client();
  const catalog = await loadAccounts(client);
  if (catalog.derived) ctx.output().notice(derivedNotice(catalog));
  // The rows naming each account, to tell an expired or disconnected one once with its lines.
  const linesOf = new Map<string, number[]>();
  for (const row of named) {
    const field = `line ${row.line}: account`;
    try {
      const accounts = resolveAccounts(row.accounts!, catalog.accounts, { field, derived: catalog.derived });
      row.issues.push(...attachAccounts(row.draft!.platforms, accounts, field));
      for (const a of accounts) linesOf.set(a.id, [...(linesOf.get(a.id) ?? []), row.line]);
    } catch (err) {
      if (!(err instanceof InvalidInputError)) throw err;
      row.issues.push(...err.issues);
    }
  }
  await warnUnhealthy(ctx, client, catalog.accounts.filter((a) => linesOf.has(a.id)), linesOf);
}

/**
 * What the profile's API would refuse of a row otherwise good (SyncPostly: a platform with several
 * accounts and no `account` column), found before anything is sent: the row is bad like any other,
 * rather than failing mid-run after the rows before it were created.
 */
async function serviceRefusals(ctx: Context, rows: BulkRow[], facts: Map<MediaSource, MediaFacts>): Promise<void> {
  if ((await ctx.profile()).api !== 'syncpostly') return;
  const pending = rows.filter((r) => r.draft && !r.issues.length);
  if (!pending.length) return;
  const { posts } = await ctx.client();
  if (!posts.check) return;
  for (const row of pending) {
    try {
      await posts.check(buildBody(row.draft!, facts, (p) => p));
    } catch (err) {
      if (!(err instanceof InvalidInputError)) throw err;
      // The file's way to name an account is its account column, not the --account flag.
      const issues = err instanceof AccountChoiceError && err.candidates.length > 0 ? err.issues.map((i) => ({ ...i, field: 'account', fix: `fill the row's account column with one of: ${someCandidates(err.platform, err.candidates, (c) => c.id)}` })) : [...err.issues];
      row.issues.push(...atLine(row.line, issues));
    }
  }
}

export async function loadBulk(ctx: Context, opts: ScheduleFlags): Promise<LoadedBulk> {
  const conflicts = conflictingFlags(opts);
  if (conflicts.length) {
    throw new UsageError(`--from-file cannot be combined with ${conflicts.join(', ')}`, [
      'each row of the file carries its own payload, time and accounts (its account column), and gets an idempotency key derived from its content; only --tz applies to every row',
    ]);
  }
  const zoneIssues: Issue[] = [];
  const zone = catchTime(zoneIssues, () => userZone(ctx.env, opts.tz)) ?? machineZone();
  if (zoneIssues.length) throw new InvalidInputError(zoneIssues);

  const src = await readSource(ctx, opts.fromFile!, '--from-file');
  const now = ctx.clock.now();
  const parsed = parseBulk(src.text, { label: src.label, baseDir: src.baseDir, zone, now, allowMediaOutside: opts.allowMediaOutside === true });
  if (parsed.fileIssues.length) {
    throw new InvalidInputError(parsed.fileIssues, { what: src.label });
  }
  const { rows } = parsed;
  const facts = await collectFacts(
    rows.flatMap((r) => (r.draft ? [r.draft] : [])),
    mediaInspector(ctx.signal),
  );
  const titleRequired = await takesTitles(ctx);
  for (const row of rows) if (row.draft) row.issues.push(...atLine(row.line, validateDraft(row.draft, (m) => facts.get(m), { platformRules: opts.localChecks !== false, titleRequired })));
  // A title column the profile's API cannot carry: the row is refused as any bad row is.
  const titled = titleRequired ? [] : rows.filter((r) => r.draft?.title !== undefined);
  for (const row of titled) row.issues.push(dialectIssue('title', `line ${row.line}: title`, TITLE_FIX));
  await rowAccounts(ctx, rows);
  sendPassedRows(ctx, rows);
  await serviceRefusals(ctx, rows, facts);
  const bad = rows.filter((r) => r.issues.length);
  const allIssues = bad.flatMap((r) => r.issues);
  if (bad.length && !opts.skipInvalid) {
    const e = new InvalidInputError(allIssues, {
      headline: `${bad.length} of ${rows.length} rows in ${src.label} are invalid`,
      showAtMost: SHOWN_PROBLEMS,
      listAll: `socialpub posts check --from-file ${shellWord(opts.fromFile!)} -o tsv`,
      hints: ['fix those rows and run again, or add --skip-invalid to schedule the valid rows now', ...(titled.length ? [DIALECT_HINT] : [])],
    });
    if (opts.dryRun) await printInvalidDryRun(ctx, e);
    throw e;
  }
  const good = rows.filter((r) => !r.issues.length);
  if (good.length === 0) throw new UsageError(`no valid rows in ${src.label}`);

  return { src, zone, now, rows, good, bad, issues: allIssues, facts };
}

/**
 * A re-run without its journal (a CI job run again later): when the only problem of some rows is a time that
 * has passed, and nothing else in the file is wrong, those rows are sent. Their keys derive from
 * their content, so the service replays the posts an earlier run created (counted as done) and
 * refuses, row by row, what it never saw. A file with other problems is refused whole, as before.
 */
function sendPassedRows(ctx: Context, rows: BulkRow[]): void {
  const passedOnly = (r: BulkRow) => r.passed === true && r.issues.length === 1;
  const late = rows.filter(passedOnly);
  if (late.length === 0 || rows.some((r) => r.issues.length && !passedOnly(r))) return;
  for (const r of late) r.issues = [];
  ctx.output().warn(
    `${late.length} row${late.length === 1 ? '' : 's'} (line ${late.map((r) => r.line).join(', ')}) ha${late.length === 1 ? 's a time that has' : 've times that have'} passed: sending anyway, so a re-run replays what an earlier run created; the service refuses rows it never scheduled`,
  );
}
