// `posts check`, run: read the post(s) the way create and schedule read them, judge every target,
// print each rule's verdict. Builds a client only for --account (its accounts are read from the
// service); without it no profile or key is involved.
import type { CheckFlags } from './check.js';
import type { AccountsToCheck } from './check-accounts.run.js';
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { UsageError } from '../../cli-error.js';
import { COMMAND_LINE_LABELS, draftFromBody, draftFromFlags, parseTextFor, type FlagValues, type Issue } from '../../../posts/draft.js';
import { textFromFile } from '../../../posts/compose-input.js';
import { parseJsonWithLocation } from '../../../wire/json-location.js';
import { BulkReader, type BulkRow } from '../../../posts/bulk/rows.js';
import { catchTime } from '../../../posts/issues.js';
import { lazyUserZone } from '../../../posts/zone.js';
import { machineZone, parseAt, requireFuture } from '../../../posts/when.js';
import { mediaInspector } from '../../../posts/media-facts.js';
import { checkSummary, PostChecker, type CheckEntry, type CheckReport, type CheckTarget } from '../../../posts/check.js';
import type { RuleCheck, Verdict } from '../../../wire/post-rules.js';
import type { Column } from '../../../output/writers.js';
import type { Colors } from '../../../output/colors.js';
import { InvalidInputError } from '../../../wire/invalid-input.js';
import { readSource, streamSource } from './read-source.js';
import { Spools } from '../../../output/spool.js';
import { capHeapGrowth, keepYoungGenerationSmall, letYoungGenerationGrow } from '../../../output/heap.js';
import { holdOptimizingCompiler, releaseOptimizingCompiler } from '../../optimizing-compiler.js';
import { checkTopFields, columnField } from '../../../output/fields.js';
import { withPlatformList } from './payload-options.js';


interface Row {
  target: string;
  rule: string;
  item: string;
  /** A thread part's rule: its part ("part 2", the first reply), shown where no media item is named. */
  part: string;
  actual: string;
  limit: string;
  verdict: Verdict;
  note: string;
}

const MARK: Record<Verdict, string> = { pass: '✓', fail: '✗', warn: '!', unknown: '?' };
const verdictMark = (r: Row, c: Colors) => (r.verdict === 'fail' ? c.red(MARK.fail) : r.verdict === 'pass' ? c.green(MARK.pass) : c.yellow(MARK[r.verdict]));

export const CHECK_COLUMNS: Column<Row>[] = [
  // Each column keeps a useful width: a platform id and a rule (an identifier to look up,
  // --json's `rule`) whole, and no size or limit cut to a few characters ("≤ 2…"). Short of room
  // (60 columns) VERDICT and LIMIT give their columns up but not their content: the verdict
  // follows the rule ("media.size ✗") and a broken limit the actual value ("8.6 MB (≤ 5 MB)"),
  // each failure being told whole under the table too.
  { header: 'target', value: (r) => r.target, priority: 0, minWidth: 13 },
  { header: 'rule', value: (r) => r.rule, priority: 0, minWidth: 18 },
  { header: 'verdict', value: (r) => r.verdict, pretty: verdictMark, priority: 3, fold: { into: 'rule', mark: verdictMark } },
  { header: 'item', value: (r) => r.item || r.part, pretty: (r) => shortItem(r.item) || r.part, priority: 1, maxWidth: 24, minWidth: 8 },
  { header: 'actual', value: (r) => r.actual, priority: 1, minWidth: 8 },
  { header: 'limit', value: (r) => r.limit, priority: 2, minWidth: 12, fold: { into: 'actual', mark: (r) => (r.verdict !== 'pass' && r.verdict !== 'unknown' && r.limit ? `(${r.limit})` : '') } },
  { header: 'note', value: (r) => r.note, priority: 4, optional: true },
];

/** What --fields may name under --json: the report's own fields (a table or TSV has the columns). */
const REPORT_FIELDS: ReadonlyArray<keyof CheckReport> = ['accepted', 'problems', 'targets'];

/**
 * Rows judged together: the media headers of a batch are read, then its rows judged and held.
 * Few: what a batch holds outlives the young generation's collections, and the heap grows with it.
 */
const BATCH_ROWS = 8;

/**
 * Rows after which a bulk check is a long one: its heap is kept from growing with the run
 * (output/heap.ts), and V8's optimizing compiler, held until then, may work (it costs a short run
 * more than it saves: cli/optimizing-compiler.ts). Not from the first row: a file of a thousand
 * rows runs faster with the young generation V8 grows on its own.
 */
const LONG_RUN_ROWS = 1000;

/** `accountsToCheck`: given when --account names accounts (check-accounts.run.ts, loaded by the action only then). */
export async function runCheck(ctx: Context, flags: CheckFlags, accountsToCheck?: AccountsToCheck): Promise<number> {
  const out = ctx.output();
  // Before any file is read, as everywhere else.
  // The columns' names are fieldsOf('posts check') (a unit test holds them equal), taken here from
  // the columns: fields-of.ts reads the wire schemas, which a check has no other use for.
  checkTopFields(ctx.globals.fields, out.structured ? REPORT_FIELDS : CHECK_COLUMNS.map(columnField));
  const bulk = flags.fromFile !== undefined;
  const posts = await entries(ctx, flags, accountsToCheck);
  const checker = new PostChecker(mediaInspector(ctx.signal));
  // The report is printed whole at the end (whether all is accepted comes first, and the problems
  // before the passes), but made a batch at a time: a bulk file of 20,000 rows is never held.
  // --json prints the report itself; rows are made only for a table or TSV.
  const report = out.heldReport<Row>({ kind: 'table', columns: CHECK_COLUMNS }, ['problems', 'targets'], GROUPS);
  // Each failure and warning is told whole under the table, which may cut the notes: the input's
  // problems first, then the checks in file order.
  const notes = new Spools();
  const [problemNotes, checkNotes] = [notes.spool(), notes.spool()];
  // A bulk file's every passing check (a 200-row file made 1,321 lines) is left out on a
  // terminal, and -q keeps the problems alone; piped, every check is listed.
  const keep: (r: Row) => boolean = ctx.globals.quiet ? (r) => r.verdict === 'fail' : bulk && ctx.io.stdout.isTTY ? (r) => r.verdict !== 'pass' : () => true;
  let passing = 0;
  let rowCount = 0;
  const judge = async (batch: readonly CheckEntry[]) => {
    rowCount += batch.length;
    if (rowCount > LONG_RUN_ROWS) {
      keepYoungGenerationSmall();
      capHeapGrowth();
      releaseOptimizingCompiler();
    }
    const { problems, targets } = await checker.judge(batch);
    report.items('problems', problems);
    report.items('targets', targets);
    if (out.structured) return;
    const groups: Row[][] = Array.from({ length: GROUPS }, () => []);
    for (const r of rows(problems, targets)) {
      if (r.verdict === 'pass') passing++;
      if (keep(r)) groups[groupOf(r)]!.push(r);
      // A problem's message already starts with its field: it is not named twice. One line each:
      // a line break or tab in a file name is shown as TSV writes it.
      if (r.verdict !== 'fail' && !(r.verdict === 'warn' && r.note)) continue;
      const line = `${r.target}${r.item && r.rule !== 'input' ? ` ${shortItem(r.item)}` : ''}: ${r.verdict === 'warn' ? 'warning: ' : ''}${r.note}`;
      (r.rule === 'input' ? problemNotes : checkNotes).write(line.replace(/\n/g, '\\n').replace(/\t/g, '\\t') + '\n');
    }
    groups.forEach((g, i) => report.rows(i, g));
  };
  // A bulk file is a short run until it has shown itself long (see LONG_RUN_ROWS).
  if (bulk) holdOptimizingCompiler();
  try {
    for await (const batch of posts.batches) {
      // Ctrl-C stops a long file between batches (the reads between pieces let the signal in).
      ctx.signal.throwIfAborted();
      await judge(batch);
    }
    posts.done();
    await report.end({ accepted: checker.tally.accepted });
    for (const spool of [problemNotes, checkNotes]) for await (const line of spool.lines()) out.info(line);
  } finally {
    report.discard();
    notes.discard();
    releaseOptimizingCompiler();
    letYoungGenerationGrow();
  }
  if (bulk && ctx.io.stdout.isTTY && !out.structured && !ctx.globals.quiet && passing) {
    out.info(`${passing} passing check${passing === 1 ? '' : 's'} not shown: -o tsv or --json lists every check`);
  }
  out.footer(checkSummary(checker.tally, bulk ? rowCount : undefined));
  return checker.tally.accepted ? 0 : 2;
}

/**
 * The rows' print order, failures first: the input's problems, the failing checks, then warnings,
 * then rules left to the platform, then passes (each in file order).
 */
const GROUPS = 5;
const groupOf = (r: Row) => (r.verdict === 'fail' ? (r.rule === 'input' ? 0 : 1) : r.verdict === 'warn' ? 2 : r.verdict === 'unknown' ? 3 : 4);

/** A post without a time to check: --tz there would be ignored in silence. */
const tzAlone = () => new UsageError('--tz only applies to a time (--at, the scheduledAt of --file, or a --from-file)', ['leave --tz out to check a post without a time, or give its time with --at']);

/** Problems first (target "input"), then each target's checks; a failing check's note is its message and fix. */
function* rows(problems: readonly Issue[], targets: readonly CheckTarget[]): Generator<Row> {
  for (const p of problems) yield { target: 'input', rule: 'input', item: p.field, part: '', actual: '', limit: '', verdict: 'fail', note: `${p.message}${p.fix ? ` (fix: ${p.fix})` : ''}` };
  for (const t of targets) {
    const target = `${t.line !== undefined ? `line ${t.line} ` : ''}${t.platform}`;
    for (const c of t.checks) yield { target, rule: c.rule, item: c.item ?? '', part: c.part === undefined ? '' : `part ${c.part + 2}`, actual: c.actual, limit: c.limit, verdict: c.verdict, note: note(c) };
  }
}

/**
 * A media item in a narrow column: its file name, not the flag and folder ("clip.mp4"). A
 * backslash that starts a `\u001b` escape (a control character made visible) is not a separator.
 */
const shortItem = (label: string) => label.replace(/^--media /, '').replace(/^.*(?:\/|\\(?!u[0-9a-f]{4}))(?=.)/, '');

const note = (c: RuleCheck) => (c.message ? `${c.message}${c.fix ? ` (fix: ${c.fix})` : ''}` : '');

interface Entries {
  /** The posts, a batch at a time. */
  batches: AsyncIterable<CheckEntry[]> | Iterable<CheckEntry[]>;
  /** Once every batch was read: throws what spoils the whole file, tells what was not judged. */
  done(): void;
}

async function entries(ctx: Context, given: CheckFlags, accountsToCheck: AccountsToCheck | undefined): Promise<Entries> {
  let flags = given;
  const payload = (['platform', 'text', 'textFile', 'textFor', 'media', 'title', 'thread', 'firstComment', 'alt', 'option'] as const).filter((k) => flags[k] !== undefined);
  const sources = [flags.file !== undefined && '--file', flags.fromFile !== undefined && '--from-file'].filter(Boolean);
  if (sources.length > 1 || (sources.length && payload.length)) {
    throw new UsageError(`${sources.join(' and ')} cannot be combined with ${sources.length > 1 ? 'each other' : 'the payload options'}`, ['give the post as options, as a JSON body (--file), or as a bulk file (--from-file)']);
  }
  if (flags.allowMediaOutside && flags.fromFile === undefined) throw new UsageError('--allow-media-outside only applies with --from-file');
  if (flags.tz !== undefined && flags.fromFile === undefined && flags.at === undefined && flags.file === undefined) {
    throw tzAlone();
  }
  if (flags.at !== undefined && flags.fromFile !== undefined) throw new UsageError('--at cannot be combined with --from-file', ["each row of the file has its own time (the `at` column or scheduledAt)"]);
  if (flags.account !== undefined && flags.fromFile !== undefined) throw new UsageError('--account cannot be combined with --from-file', ["a bulk file names each row's accounts in its account column"]);
  const issues: Issue[] = [];
  const zone = catchTime(issues, () => lazyUserZone(ctx.env, flags.tz)) ?? machineZone;
  if (issues.length) throw new InvalidInputError(issues);
  // The one read from the service, after every mistake the flags alone show: --account.
  const accounts = await accountsToCheck?.(ctx, flags);
  if (accounts) flags = accounts.flags;
  const single = (entry: CheckEntry): Entries => ({ batches: [[accounts ? accounts.onto(entry) : entry]], done: () => {} });
  // Judged as `posts schedule` judges it: a time that has passed would be refused there.
  const judgeTime = (input: string, field: string) => {
    const now = ctx.clock.now();
    catchTime(issues, () => requireFuture(parseAt(input, { now, zone, field }), now, field, input.trim()));
  };
  if (flags.fromFile !== undefined) return bulkEntries(ctx, flags, zone);
  if (flags.file !== undefined) {
    const src = await readSource(ctx, flags.file, '--file');
    const parsed = parseJsonWithLocation(src.text);
    if (!parsed.ok) {
      const { line, column, message } = parsed.problem;
      throw new UsageError(`--file ${src.label}: invalid JSON at line ${line}, column ${column}: ${message}`, ['fix the JSON (a validator or `jq . file` shows the spot), then run again']);
    }
    const body = draftFromBody(parsed.value, `${src.label}: `, (p) => resolve(src.baseDir, p), issues, { schedule: true });
    if (!body.draft && body.postId) throw new UsageError(`--file ${src.label}: postId names a draft on the service; posts check judges payloads`, ['give the payloads, or check the draft before creating it']);
    if (flags.at !== undefined) judgeTime(flags.at, '--at');
    else if (body.scheduledAt !== undefined) judgeTime(body.scheduledAt, `${src.label}: scheduledAt`);
    else if (flags.tz !== undefined) throw tzAlone();
    return single({ draft: body.draft, issues });
  }
  if (flags.platform === undefined && flags.textFor === undefined) throw new UsageError('missing --platform', ['name the targets: --platform twitter-x,instagram (or give --file / --from-file)'], 'MISSING_VALUE');
  if (flags.text !== undefined && flags.textFile !== undefined) {
    throw new UsageError('--text-file cannot be combined with --text', ['give the text one way: --text "…" for a line, --text-file <file|-> for a file or stdin']);
  }
  const values: FlagValues = withPlatformList(flags);
  let labels = COMMAND_LINE_LABELS;
  if (flags.textFile !== undefined) {
    // Read as posts create reads it, and named so in the messages.
    const src = await readSource(ctx, flags.textFile, '--text-file');
    values.text = textFromFile(src.text);
    labels = { ...COMMAND_LINE_LABELS, text: `--text-file ${src.label}` };
  }
  // A malformed --text-for is the problem to report, not the text it failed to give.
  const syntax: Issue[] = [];
  parseTextFor(values.textFor ?? [], syntax);
  if (syntax.length) throw new InvalidInputError(syntax);
  const draft = draftFromFlags(values, (p) => resolve(process.cwd(), p), issues, labels);
  if (flags.at !== undefined) judgeTime(flags.at, '--at');
  return single({ draft, issues });
}


/**
 * A bulk file read as `posts schedule --from-file` reads it, a piece at a time. A time that has
 * passed is a problem, as `posts schedule --from-file` finds it: `check && schedule` holds.
 */
async function bulkEntries(ctx: Context, flags: CheckFlags, zone: string | (() => string)): Promise<Entries> {
  const src = await streamSource(ctx, flags.fromFile!, '--from-file');
  const reader = new BulkReader({ label: src.label, baseDir: src.baseDir, zone, now: ctx.clock.now(), allowMediaOutside: flags.allowMediaOutside === true });
  // A row that schedules a draft by id has no payloads here: said, so "0 targets" is not a mystery.
  const byId: number[] = [];
  let byIdCount = 0;
  async function* batches(): AsyncGenerator<CheckEntry[]> {
    let batch: CheckEntry[] = [];
    const take = function* (rows: Iterable<BulkRow>): Generator<CheckEntry[]> {
      for (const row of rows) {
        if (row.postId !== undefined && byIdCount++ < 6) byId.push(row.line);
        batch.push(row);
        if (batch.length === BATCH_ROWS) {
          yield batch;
          batch = [];
        }
      }
    };
    for await (const piece of src.pieces) yield* take(reader.push(piece));
    yield* take(reader.end());
    if (batch.length) yield batch;
  }
  return {
    batches: batches(),
    done() {
      if (reader.fileIssues.length) throw new InvalidInputError(reader.fileIssues, { what: src.label });
      if (byIdCount) ctx.output().info(`${byIdCount === 1 ? '1 row names a draft' : `${byIdCount} rows name drafts`} on the service by postId (line ${byId.slice(0, 5).join(', ')}${byIdCount > 5 ? ', …' : ''}): ${byIdCount === 1 ? 'its payloads are' : 'theirs are'} not judged here`);
    },
  };
}
