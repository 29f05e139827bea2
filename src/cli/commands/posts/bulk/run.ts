// `posts schedule --from-file`: validate every row, then schedule them one by one at the pace the
// rate limit allows, journaling each step, and print what happened to every row.
import { existsSync } from 'node:fs';
import type { Context } from '../../../context.js';
import { EXIT, UsageError } from '../../../cli-error.js';
import type { Dialect } from '../../../../wire/dialects.js';
import { annotate, shownHints } from '../../../errors.js';
import { ApiError } from '../../../../client/errors.js';
import type { RetryNotice } from '../../../../client/types.js';
import { isAbortLike, Pacer } from '../../../../posts/bulk/pacer.js';
import type { StatusLine } from '../../../../output/output.js';
import { visible } from '../../../../output/terminal-safe.js';
import { appendStepSummary, markdownCell } from '../../../../output/step-summary.js';
import { formatUntil } from '../../../../output/time.js';
import { localFiles } from '../../../../posts/body.js';
import { sha256Hex } from '../../../../posts/keys.js';
import { uploadFiles } from '../../../../posts/uploads.js';
import { DRY_RUN_FIELDS, printDryRun, type PlannedRequest } from '../dry-run.js';
import { checkTopFields, checkViewFields } from '../../../../output/fields.js';
import type { BulkRow } from '../../../../posts/bulk/rows.js';
import { rowKeys } from '../../../../posts/bulk/keys.js';
import { doneKeysPath, journalPath, openJournal, readJournal, type JournalState, type JournalWriter, type RowRecord } from '../../../../posts/bulk/journal.js';
import { budgetNote, estimateBudget } from '../../../../posts/bulk/budget.js';
import { ledgerFor } from '../../../upload-ledger.js';
import { shellWord } from '../../../shell-word.js';
import { BULK_RESULT_FIELDS, bulkColumns, type BulkResult } from './results.js';
import { loadBulk } from './load.js';
import type { ScheduleFlags } from '../schedule.js';
import { planRow, scheduleBody } from '../../../../posts/bulk/plan.js';
import { summarize } from '../../../../posts/bulk/summary.js';

const rowName = (row: BulkRow) => `row ${row.index + 1} (line ${row.line})`;

export async function runBulk(ctx: Context, opts: ScheduleFlags): Promise<number> {
  // Before the file is read: found only when the first row is printed, a misspelt name would be
  // exit 2 for a row that was scheduled all the same.
  if (opts.dryRun) checkTopFields(ctx.globals.fields, DRY_RUN_FIELDS);
  else checkViewFields(ctx.globals.fields, { columns: bulkColumns('UTC', 0, 0), fields: BULK_RESULT_FIELDS });
  const loaded = await loadBulk(ctx, opts);
  const profile = await ctx.profile();
  const keys = rowKeys(loaded.rows, loaded.facts, profile.name);
  if (opts.dryRun) return printBulkDryRun(ctx, loaded, keys);

  const run = await openRun(ctx, loaded, profile, opts);
  const out = ctx.output();
  const line = out.statusLine();
  // The status line is erased before the summary: what it said last (a wait) is told again if the run stops.
  let lastStatus: string | undefined;
  const progress: StatusLine = { update: (text) => line.update((lastStatus = text)), clear: () => line.clear() };
  ctx.onExit(() => progress.clear());
  const paced = await createPacer(ctx, loaded, progress);
  const results: BulkResult[] = [];
  // Results, printed as they happen (--json: one object with the counts, at the end).
  const writer = out.listWriter<BulkResult>({
    kind: 'run',
    columns: bulkColumns(loaded.zone, loaded.rows.length, loaded.rows.reduce((n, r) => Math.max(n, r.line), 0)),
    id: (r) => r.id ?? '',
    summary: () => ({ file: loaded.src.label, journal: run.path, ...summarize(results, loaded.src.label).counts }),
  });
  const emit = async (r: BulkResult) => {
    results.push(r);
    await writer.write(r);
  };

  let stop: unknown;
  const refused = new Set<number>();
  let budgetTold = false;
  for (const row of loaded.rows) {
    const base = { row: row.index + 1, line: row.line };
    const key = keys.get(row.index);
    const prior = run.state.done.get(row.index) ?? (key !== undefined ? run.doneKeys.get(key) : undefined);
    // Once the service has reported its write budget: what the rest of the run needs, and how long that takes.
    if (!budgetTold && paced.pacer.rateInfo?.limit !== undefined) {
      budgetTold = true;
      const estimate = estimateBudget(writesLeft(loaded, row.index, run, keys), paced.pacer.rateInfo);
      if (estimate) out.info(budgetNote(estimate));
    }
    if (row.issues.length) {
      await emit({ ...base, outcome: 'invalid', id: null, status: null, scheduledAt: null, error: { code: 'INVALID_INPUT', message: row.issues.map((i) => i.message).join('; '), requestId: null, hints: row.issues.flatMap((i) => (i.fix ? [i.fix] : [])) } });
    } else if (stop) {
      // Counted and named in the summary, not printed row by row: 162 such rows buried what mattered.
      results.push({ ...base, outcome: 'not-attempted', id: null, status: null, scheduledAt: null, error: null });
    } else if (prior) {
      paced.rowDone();
      await emit({ ...base, outcome: 'already-done', id: prior.id, status: prior.status, scheduledAt: prior.scheduledAt, error: null });
    } else {
      const sent = await sendRow(row, keys.get(row.index)!, { loaded, run, paced, now: () => ctx.clock.now() });
      if (sent.stop !== undefined) stop = sent.stop;
      if (sent.refused) refused.add(base.row);
      if (sent.result.outcome === 'not-attempted') results.push({ ...base, ...sent.result });
      else await emit({ ...base, ...sent.result });
    }
  }
  progress.clear();
  // A run that stopped early (interrupted, rate limited past --max-wait, too many failures) fails:
  // its --json object is not printed whole, so a script cannot take it for the finished run.
  await (stop === undefined ? writer.end() : writer.abort());
  if (stop !== undefined && lastStatus !== undefined && out.progress) out.notice(`stopped at ${lastStatus}`);
  return finish(ctx, results, { label: loaded.src.label, resume: resumeCommand(ctx, opts, loaded.src.label) }, stop, refused);
}

/** The command that resumes this run: the same file, zone and choices (the journal skips what was done). */
function resumeCommand(ctx: Context, opts: ScheduleFlags, label: string): string {
  const parts = ['socialpub'];
  if (ctx.globals.profile !== undefined) parts.push('--profile', shellWord(ctx.globals.profile));
  parts.push('posts', 'schedule', '--from-file', label === 'stdin' ? '-' : shellWord(label));
  if (opts.tz !== undefined) parts.push('--tz', shellWord(opts.tz));
  if (opts.skipInvalid) parts.push('--skip-invalid');
  if (opts.allowMediaOutside) parts.push('--allow-media-outside');
  return `${parts.join(' ')}${label === 'stdin' ? ' < the same file' : ''}`;
}

type Loaded = Awaited<ReturnType<typeof loadBulk>>;

/** --dry-run: every valid row's requests (with its derived key), nothing sent. */
async function printBulkDryRun(ctx: Context, loaded: Loaded, keys: Map<number, string>): Promise<number> {
  const { rows, good, bad, issues, facts } = loaded;
  const requests: Array<PlannedRequest & { row: number; line: number }> = [];
  for (const row of good) {
    for (const r of planRow(row, facts, keys.get(row.index)!)) requests.push({ row: row.index + 1, line: row.line, ...r });
  }
  await printDryRun(ctx, {
    valid: bad.length === 0,
    issues,
    requests,
    notes: [`${good.length} of ${rows.length} rows would be scheduled, one request each (plus media uploads)${bad.length ? `; ${bad.length} invalid rows skipped` : ''}`],
  });
  return EXIT.ok;
}

interface Run {
  /** Where the journal is kept; null when it could not be (a read-only config folder). */
  path: string | null;
  state: JournalState;
  journal: JournalWriter;
  /** Rows done by earlier runs of any file on this service, by key. */
  doneKeys: ReadonlyMap<string, RowRecord>;
}

/** The journal: rows a previous run of this same file (same profile and service) finished. */
async function openRun(ctx: Context, loaded: Loaded, profile: { name: string; baseUrl: string; api: Dialect }, opts: ScheduleFlags): Promise<Run> {
  const { src, rows, good, now } = loaded;
  const store = await ctx.config();
  const path = journalPath(store.dir, profile.name, profile.baseUrl, sha256Hex(src.text));
  const hadJournal = existsSync(path);
  const resume = opts.resume ?? true;
  // Our keys make a re-sent row a replay; SyncPostly has none, so a row sent again posts again.
  if (!resume && hadJournal && profile.api === 'syncpostly') {
    throw new UsageError(`--no-resume: SyncPostly's API has no idempotency keys, so sending the rows of ${src.label} again would post a second time those an earlier run posted (its journal is ${path})`, [
      'leave --no-resume out: the rows already done are skipped',
      `to start over deliberately, remove the journal and run again: rm ${shellWord(path)}`,
    ]);
  }
  const state: JournalState = hadJournal && resume ? readJournal(path) : { done: new Map(), media: new Map(), failed: new Map(), runs: 0 };
  const out = ctx.output();
  let journal: JournalWriter;
  try {
    journal = openJournal(path);
  } catch (err) {
    // A config folder that cannot be written (a read-only home in some CI containers) must not stop
    // the run: the keys derived from each row keep a re-run from posting twice; the journal only
    // spares the requests.
    out.warn(`cannot keep the bulk journal ${path}: ${(err as Error).message}; going on without it: a re-run sends every row again, and the service replays the rows already done (each row's key comes from its content); set SOCIALPUB_CONFIG_DIR to a writable folder to keep one`);
    return { path: null, state, journal: { path, append() {}, close() {} }, doneKeys: new Map() };
  }
  // Done rows also go to the profile's index of done keys: an edited file resumes its unchanged rows.
  const keysPath = doneKeysPath(store.dir, profile.name, profile.baseUrl);
  const doneKeys = resume ? (readJournal(keysPath).doneByKey ?? new Map<string, RowRecord>()) : new Map<string, RowRecord>();
  const own = journal;
  const index = openJournal(keysPath);
  journal = {
    path,
    append(entry) {
      own.append(entry);
      if (entry.t === 'done') index.append(entry);
    },
    close() {
      own.close();
      index.close();
    },
  };
  ctx.onExit(() => journal.close());
  journal.append({ t: 'run', at: new Date(now).toISOString(), file: src.label, rows: rows.length, resume, v: 1 });
  const keys = rowKeys(rows, loaded.facts, profile.name);
  const previouslyDone = good.filter((r) => state.done.has(r.index) || doneKeys.has(keys.get(r.index) ?? '')).length;
  if (resume && previouslyDone) out.info(`resuming: ${previouslyDone} of ${good.length} rows were done by an earlier run (journal ${path})`);
  else if (opts.resume === true && !hadJournal) out.info('no journal for this file yet: starting with the first row');
  return { path, state, journal, doneKeys };
}

/** The client, paced: RateLimit headers go to the pacer; its waits and the client's retries show on the status line. */
async function createPacer(ctx: Context, loaded: Loaded, progress: StatusLine) {
  const { zone, good } = loaded;
  const out = ctx.output();
  let done = 0;
  const show = (text: string) => progress.update(`${done}/${good.length} · ${text}`);
  const waiting = (until: number, reason: string) => {
    show(`waiting until ${formatUntil(until, ctx.clock.now(), zone)} (${reason})`);
    if (!out.progress) out.info(`waiting until ${formatUntil(until, ctx.clock.now(), zone)} (${reason}); ${done}/${good.length} done`);
  };
  const pacer = new Pacer({
    now: () => ctx.clock.now(),
    sleep: (ms) => ctx.clock.sleep(ms, ctx.signal),
    maxWaitMs: ctx.globals.maxWaitGiven ? ctx.globals.maxWaitMs : undefined,
    onWait: waiting,
    formatTime: (t) => formatUntil(t, ctx.clock.now(), zone),
  });
  // The callbacks run only once requests are made, after `pacer` exists.
  const client = await ctx.client({
    onRateLimit: (info) => pacer.noteRateLimit(info),
    onRetry: (n: RetryNotice) => {
      show(`retrying (${n.reason}), waiting until ${formatUntil(n.until, ctx.clock.now(), zone)}`);
      if (!out.progress && n.delayMs >= 5000) out.info(`waiting until ${formatUntil(n.until, ctx.clock.now(), zone)} (${n.reason}); ${done}/${good.length} done`);
    },
  });
  return { pacer, client, show, rowDone: () => void done++, ledger: await ledgerFor(ctx) };
}

/** Writes the rows from `from` on may need: one each, and two per local file (declare, then PUT) at most. */
function writesLeft(loaded: Loaded, from: number, run: Run, keys: Map<number, string>): number {
  let writes = 0;
  for (const row of loaded.good) {
    const key = keys.get(row.index);
    if (row.index < from || run.state.done.has(row.index) || (key !== undefined && run.doneKeys.has(key))) continue;
    writes += 1 + 2 * (row.draft ? localFiles(row.draft).length : 0);
  }
  return writes;
}

type Paced = Awaited<ReturnType<typeof createPacer>>;
type RowOutcome = Omit<BulkResult, 'row' | 'line'>;
interface Sent {
  result: RowOutcome;
  /** Set when the run must stop (nothing more can be done the same way). */
  stop?: unknown;
  /** A failure the service will repeat for this row as it is (a 4xx): only a change to the row helps. */
  refused?: boolean;
}

/** One row: its media, then its schedule request under its key, journaled step by step. */
async function sendRow(row: BulkRow, key: string, at: { loaded: Loaded; run: Run; paced: Paced; now: () => number }): Promise<Sent> {
  const { loaded, run, paced } = at;
  const { pacer, client } = paced;
  const { journal, state } = run;
  paced.show(`scheduling ${rowName(row)}`);
  const sent = await pacer.attempt(async () => {
    journal.append({ t: 'send', row: row.index, key });
    const known = state.media.get(row.index);
    const urls = row.draft
      ? await uploadFiles(client, localFiles(row.draft), loaded.facts, {
          postKey: key,
          maxWaitMs: pacer.maxWaitMs,
          ...(known ? { known } : {}),
          ...(paced.ledger ? { ledger: paced.ledger } : {}),
          onUploaded: (p, url) => journal.append({ t: 'media', row: row.index, path: p, url }),
        })
      : new Map<string, string>();
    const body = scheduleBody(row, loaded.facts, (p) => urls.get(p) ?? p);
    const sentBefore = state.sent?.get(row.index);
    return client.posts.schedule(body, { idempotencyKey: key, maxWaitMs: pacer.maxWaitMs, ...(sentBefore !== undefined ? { sentBefore } : {}) });
  });
  const notAttempted: RowOutcome = { outcome: 'not-attempted', id: null, status: null, scheduledAt: null, error: null };
  const stop = pacer.tooManyFailures(sent) && sent.kind === 'failed' ? sent.error : undefined;
  switch (sent.kind) {
    case 'ok': {
      const { data: post, replayed } = sent.value;
      journal.append({ t: 'done', row: row.index, key, id: post.id, status: post.status, scheduledAt: post.scheduledAt ?? null, replayed });
      paced.rowDone();
      return { result: { outcome: replayed ? 'already-done' : 'created', id: post.id, status: post.status, scheduledAt: post.scheduledAt ?? null, error: null } };
    }
    case 'reused':
      journal.append({ t: 'done', row: row.index, key, id: null, status: null, scheduledAt: null, replayed: true });
      paced.rowDone();
      return { result: { outcome: 'already-done', id: null, status: null, scheduledAt: null, error: null } };
    case 'stop':
      return { result: notAttempted, stop: sent.error };
    case 'failed':
      journal.append({ t: 'fail', row: row.index, key, ...sent.info });
      return { result: { outcome: 'failed', id: null, status: null, scheduledAt: null, error: { ...sent.info, hints: shownHints(sent.error, at.now()) } }, refused: !sent.transient, ...(stop !== undefined ? { stop } : {}) };
  }
}

/** The summary on stderr, and the exit code (7 when a row failed or was invalid). */
function finish(ctx: Context, results: readonly BulkResult[], run: { label: string; resume: string }, stop: unknown, refused: ReadonlySet<number>): number {
  const out = ctx.output();
  const summary = summarize(results, run.label, refused);
  // The summary is plain text of ours quoting the service's error messages: every escape in it is theirs.
  out.notice(visible(summary.text));
  appendStepSummary(ctx.env, `### socialpub posts schedule --from-file ${markdownCell(run.label)}\n\n${summary.text.split('\n').map((l) => `- ${markdownCell(l.trim())}`).join('\n')}`);
  if (stop) {
    const interrupted = (stop instanceof ApiError && stop.kind === 'aborted') || isAbortLike(stop);
    out.notice(visible(`${interrupted ? 'interrupted' : 'stopped early'}: run the same command again to resume (rows done so far are skipped): ${run.resume}`));
    throw stop;
  }
  if (summary.counts.failed + summary.counts.invalid === 0) return EXIT.ok;
  annotate(ctx, summary.text, 'socialpub posts schedule --from-file: rows failed');
  return EXIT.partial;
}
