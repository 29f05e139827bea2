// `posts schedule --from-file`: validate every row, then schedule them one by one at the pace the
// rate limit allows, journaling each step, and print what happened to every row.
import { existsSync } from 'node:fs';
import type { Context } from '../../../context.js';
import { EXIT } from '../../../cli-error.js';
import { ApiError, RateLimitError } from '../../../../client/errors.js';
import type { ApiClient, RateLimitInfo, RetryNotice } from '../../../../client/types.js';
import type { StatusLine } from '../../../../output/output.js';
import { formatClock } from '../../../../output/time.js';
import { localFiles } from '../../../../posts/body.js';
import { sha256Hex } from '../../../../posts/keys.js';
import { uploadFiles } from '../../../../posts/uploads.js';
import { printDryRun, type PlannedRequest } from '../dry-run.js';
import type { BulkRow } from '../../../../posts/bulk/rows.js';
import { rowKeys } from '../../../../posts/bulk/keys.js';
import { journalPath, openJournal, readJournal, type JournalState } from '../../../../posts/bulk/journal.js';
import { bulkColumns, type BulkResult } from './results.js';
import { loadBulk, type BulkOptions } from './load.js';
import { planRow, scheduleBody } from '../../../../posts/bulk/plan.js';
import { summarize } from '../../../../posts/bulk/summary.js';

export type { BulkOptions };

/** Without --max-wait the run waits as long as the rate limit asks (a week is "as long as needed"). */
const PATIENT_MS = 7 * 24 * 3_600_000;
/** Transient failures in a row before the run stops instead of failing every remaining row. */
const MAX_CONSECUTIVE_TRANSIENT = 5;

const rowName = (row: BulkRow) => `row ${row.index + 1} (line ${row.line})`;

export async function runBulk(ctx: Context, opts: BulkOptions): Promise<number> {
  const loaded = await loadBulk(ctx, opts);
  const profile = await ctx.profile();
  const keys = rowKeys(loaded.rows, loaded.facts, profile.name);
  if (opts.dryRun) return printBulkDryRun(ctx, loaded, keys);

  const run = await openRun(ctx, loaded, profile, opts);
  const out = ctx.output();
  const progress = out.statusLine();
  ctx.onExit(() => progress.clear());
  const pacer = await createPacer(ctx, loaded, progress);
  const results: BulkResult[] = [];
  // Results, printed as they happen (--json: one object with the counts, at the end).
  const writer = out.listWriter<BulkResult>({
    columns: bulkColumns(loaded.zone, loaded.rows.length, loaded.rows.reduce((n, r) => Math.max(n, r.line), 0)),
    id: (r) => r.id ?? '',
    stream: true,
    envelope: { key: 'rows', extra: () => ({ file: loaded.src.label, journal: run.path, ...summarize(results, loaded.src.label).counts }) },
  });
  const emit = async (r: BulkResult) => {
    results.push(r);
    await writer.write(r);
  };

  let stop: unknown;
  let transientRun = 0;
  for (const row of loaded.rows) {
    const base = { row: row.index + 1, line: row.line };
    const prior = run.state.done.get(row.index);
    if (row.issues.length) {
      await emit({ ...base, outcome: 'invalid', id: null, status: null, scheduledAt: null, error: { code: 'INVALID_INPUT', message: row.issues.map((i) => i.message).join('; '), requestId: null } });
    } else if (stop) {
      await emit({ ...base, outcome: 'not-attempted', id: null, status: null, scheduledAt: null, error: null });
    } else if (prior) {
      pacer.done++;
      await emit({ ...base, outcome: 'already-done', id: prior.id, status: prior.status, scheduledAt: prior.scheduledAt, error: null });
    } else {
      const sent = await sendRow(ctx, row, keys.get(row.index)!, { loaded, run, pacer });
      if (sent.stop !== undefined) stop = sent.stop;
      if (sent.result.outcome === 'failed' && sent.transient && ++transientRun >= MAX_CONSECUTIVE_TRANSIENT) stop = sent.error;
      else if (sent.result.outcome !== 'failed') transientRun = 0;
      await emit({ ...base, ...sent.result });
    }
  }
  progress.clear();
  await writer.end();
  return finish(ctx, results, loaded.src.label, stop);
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
  path: string;
  state: JournalState;
  journal: ReturnType<typeof openJournal>;
}

/** The journal: rows a previous run of this same file (same profile and service) finished. */
async function openRun(ctx: Context, loaded: Loaded, profile: { name: string; baseUrl: string }, opts: BulkOptions): Promise<Run> {
  const { src, rows, good, now } = loaded;
  const store = await ctx.config();
  const path = journalPath(store.dir, profile.name, profile.baseUrl, sha256Hex(src.text));
  const hadJournal = existsSync(path);
  const resume = opts.resume ?? true;
  const state: JournalState = hadJournal && resume ? readJournal(path) : { done: new Map(), media: new Map(), failed: new Map(), runs: 0 };
  const journal = openJournal(path);
  ctx.onExit(() => journal.close());
  journal.append({ t: 'run', at: new Date(now).toISOString(), file: src.label, rows: rows.length, resume, v: 1 });
  const out = ctx.output();
  const previouslyDone = good.filter((r) => state.done.has(r.index)).length;
  if (hadJournal && resume && previouslyDone) out.info(`resuming: ${previouslyDone} of ${good.length} rows were done by an earlier run (journal ${path})`);
  else if (opts.resume === true && !hadJournal) out.info('no journal for this file yet: starting with the first row');
  return { path, state, journal };
}

interface Pacer {
  client: ApiClient;
  /** Rows done so far (for the status line). */
  done: number;
  maxWaitMs: number;
  show(text: string): void;
  /** Waits out a rate-limit window the last response announced as used up. */
  respectWindow(): Promise<void>;
  /** Waits until then, or fails beyond --max-wait. */
  waitUntil(until: number, reason: string): Promise<void>;
  /** When the service said to come back, from a 429 or the last window. */
  retryAt(err: RateLimitError): number;
}

/** Pacing: the RateLimit headers of the last response, and the client's retry waits. */
async function createPacer(ctx: Context, loaded: Loaded, progress: StatusLine): Promise<Pacer> {
  const { zone, good } = loaded;
  const out = ctx.output();
  let rate: { info: RateLimitInfo; at: number } | undefined;
  // The callbacks run only once requests are made, after `pacer` exists.
  const client = await ctx.client({
    onRateLimit: (info) => (rate = { info, at: ctx.clock.now() }),
    onRetry: (n: RetryNotice) => {
      pacer.show(`retrying (${n.reason}), waiting until ${formatClock(n.until, zone)}`);
      if (!out.progress && n.delayMs >= 5000) out.info(`waiting until ${formatClock(n.until, zone)} (${n.reason}); ${pacer.done}/${good.length} done`);
    },
  });
  const pacer: Pacer = {
    client,
    done: 0,
    maxWaitMs: ctx.globals.maxWaitGiven ? ctx.globals.maxWaitMs : PATIENT_MS,
    show: (text) => progress.update(`${pacer.done}/${good.length} · ${text}`),
    async respectWindow() {
      if (!rate || rate.info.remaining !== 0 || !rate.info.resetSeconds) return;
      const until = rate.at + rate.info.resetSeconds * 1000;
      rate = undefined;
      await pacer.waitUntil(until, 'rate limit: no writes left in this window');
    },
    async waitUntil(until, reason) {
      const ms = until - ctx.clock.now();
      if (ms <= 0) return;
      if (ctx.globals.maxWaitGiven && ms > ctx.globals.maxWaitMs) {
        throw new RateLimitError(`rate limited: the next write is allowed at ${formatClock(until, zone)}, beyond --max-wait`, { retryAt: until });
      }
      pacer.show(`waiting until ${formatClock(until, zone)} (${reason})`);
      if (!out.progress) out.info(`waiting until ${formatClock(until, zone)} (${reason}); ${pacer.done}/${good.length} done`);
      await ctx.clock.sleep(ms, ctx.signal);
    },
    retryAt: (err) => err.retryAt ?? ctx.clock.now() + (rate?.info.resetSeconds ?? 60) * 1000,
  };
  return pacer;
}

type RowOutcome = Omit<BulkResult, 'row' | 'line'>;
interface Sent {
  result: RowOutcome;
  /** Set when the run must stop (nothing more can be done the same way). */
  stop?: unknown;
  /** A failure worth counting towards "too many transient failures in a row". */
  transient?: boolean;
  error?: unknown;
}

/** One row: its media, then its schedule request under its key, journaled step by step. */
async function sendRow(ctx: Context, row: BulkRow, key: string, at: { loaded: Loaded; run: Run; pacer: Pacer }): Promise<Sent> {
  const { loaded, run, pacer } = at;
  const { journal, state } = run;
  const notAttempted: RowOutcome = { outcome: 'not-attempted', id: null, status: null, scheduledAt: null, error: null };
  pacer.show(`scheduling ${rowName(row)}`);
  for (;;) {
    try {
      await pacer.respectWindow();
      journal.append({ t: 'send', row: row.index, key });
      const known = state.media.get(row.index);
      const urls = row.draft
        ? await uploadFiles(pacer.client, localFiles(row.draft), loaded.facts, {
            postKey: key,
            maxWaitMs: pacer.maxWaitMs,
            ...(known ? { known } : {}),
            onUploaded: (p, url) => journal.append({ t: 'media', row: row.index, path: p, url }),
          })
        : new Map<string, string>();
      const body = scheduleBody(row, loaded.facts, (p) => urls.get(p) ?? p);
      const res = await pacer.client.posts.schedule(body, { idempotencyKey: key, maxWaitMs: pacer.maxWaitMs });
      const post = res.data;
      journal.append({ t: 'done', row: row.index, key, id: post.id, status: post.status, scheduledAt: post.scheduledAt ?? null, replayed: res.replayed });
      pacer.done++;
      return { result: { outcome: res.replayed ? 'already-done' : 'created', id: post.id, status: post.status, scheduledAt: post.scheduledAt ?? null, error: null } };
    } catch (err) {
      if (err instanceof RateLimitError) {
        try {
          await pacer.waitUntil(pacer.retryAt(err), 'rate limit: Retry-After');
          continue;
        } catch (waitErr) {
          return { result: notAttempted, stop: waitErr };
        }
      }
      if (err instanceof ApiError && err.kind === 'idempotency-key-reused') {
        // The key was used for this row already, with other bytes (its media was uploaded again
        // after the journal was lost): the row's post exists, so it is done.
        journal.append({ t: 'done', row: row.index, key, id: null, status: null, scheduledAt: null, replayed: true });
        pacer.done++;
        return { result: { outcome: 'already-done', id: null, status: null, scheduledAt: null, error: null } };
      }
      if (isFatal(err)) return { result: notAttempted, stop: err };
      const info = describeError(err);
      journal.append({ t: 'fail', row: row.index, key, ...info });
      return { result: { outcome: 'failed', id: null, status: null, scheduledAt: null, error: info }, transient: isTransient(err), error: err };
    }
  }
}

/** The summary on stderr, and the exit code (7 when a row failed or was invalid). */
function finish(ctx: Context, results: readonly BulkResult[], label: string, stop: unknown): number {
  const out = ctx.output();
  const summary = summarize(results, label);
  out.notice(summary.text);
  if (stop) {
    if (!(stop instanceof ApiError && stop.kind === 'aborted') && !isAbortLike(stop)) {
      out.notice('stopped early: run the same command again to resume (rows done so far are skipped)');
    }
    throw stop;
  }
  return summary.counts.failed + summary.counts.invalid > 0 ? EXIT.partial : EXIT.ok;
}

function isAbortLike(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'AbortedError');
}

/** Errors that would fail every remaining row the same way: stop and say so. */
function isFatal(err: unknown): boolean {
  if (isAbortLike(err)) return true;
  return err instanceof ApiError && (err.kind === 'auth' || err.kind === 'addon-required' || err.kind === 'aborted');
}

function isTransient(err: unknown): boolean {
  return !(err instanceof ApiError) || ['network', 'timeout', 'server', 'conflict', 'response-shape'].includes(err.kind);
}

function describeError(err: unknown): { code: string; message: string; requestId: string | null } {
  if (err instanceof ApiError) {
    const issues = err.issues.map((i) => `${i.path}: ${i.message}`).join('; ');
    return { code: err.code ?? err.kind.toUpperCase().replace(/-/g, '_'), message: issues ? `${err.message} (${issues})` : err.message, requestId: err.requestId ?? null };
  }
  return { code: 'ERROR', message: err instanceof Error ? err.message : String(err), requestId: null };
}
