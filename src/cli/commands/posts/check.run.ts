// `posts check`, run: read the post(s) the way create and schedule read them, judge every target,
// print each rule's verdict. Never builds a client: no profile or key is involved.
import type { CheckFlags } from './check.js';
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { UsageError } from '../../cli-error.js';
import { COMMAND_LINE_LABELS, draftFromBody, draftFromFlags, parseTextFor, type FlagValues, type Issue } from '../../../posts/draft.js';
import { textFromFile } from '../../../posts/compose-input.js';
import { parseJsonWithLocation } from '../../../wire/json-location.js';
import { parseBulk } from '../../../posts/bulk/rows.js';
import { catchTime } from '../../../posts/issues.js';
import { lazyUserZone } from '../../../posts/zone.js';
import { machineZone, parseAt, requireFuture } from '../../../posts/when.js';
import { mediaInspector } from '../../../posts/media-facts.js';
import { checkPosts, checkSummary, type CheckEntry, type CheckReport } from '../../../posts/check.js';
import type { RuleCheck, Verdict } from '../../../wire/post-rules.js';
import type { Column } from '../../../output/writers.js';
import { InvalidInputError } from '../../../wire/invalid-input.js';
import { splitList } from '../../flags/text.js';
import { readSource } from './read-source.js';
import { checkTopFields } from '../../../output/fields.js';
import { fieldsOf } from '../../../output/fields-of.js';


interface Row {
  target: string;
  rule: string;
  item: string;
  actual: string;
  limit: string;
  verdict: Verdict;
  note: string;
}

const MARK: Record<Verdict, string> = { pass: '✓', fail: '✗', warn: '!', unknown: '?' };

export const CHECK_COLUMNS: Column<Row>[] = [
  // Each column keeps a useful width, so that short of room (60 columns) LIMIT is dropped whole,
  // each failure being told with its limit under the table, rather than every column cut to
  // fragments: a platform id and a rule (an identifier to look up, --json's `rule`) whole, and
  // no size or limit cut to a few characters, where "≤ 280" would read "≤ 2…".
  { header: 'target', value: (r) => r.target, priority: 0, minWidth: 13 },
  { header: 'rule', value: (r) => r.rule, priority: 0, minWidth: 16 },
  { header: 'verdict', value: (r) => r.verdict, pretty: (r, c) => (r.verdict === 'fail' ? c.red(MARK.fail) : r.verdict === 'pass' ? c.green(MARK.pass) : c.yellow(MARK[r.verdict])), priority: 0 },
  { header: 'item', value: (r) => r.item, pretty: (r) => shortItem(r.item), priority: 1, maxWidth: 24, minWidth: 8 },
  { header: 'actual', value: (r) => r.actual, priority: 1, minWidth: 8 },
  { header: 'limit', value: (r) => r.limit, priority: 2, minWidth: 12 },
  { header: 'note', value: (r) => r.note, priority: 3, optional: true },
];

/** What --fields may name under --json: the report's own fields (a table or TSV has the columns). */
const REPORT_FIELDS: ReadonlyArray<keyof CheckReport> = ['accepted', 'problems', 'targets'];

export async function runCheck(ctx: Context, flags: CheckFlags): Promise<number> {
  const out = ctx.output();
  // Before any file is read, as everywhere else.
  checkTopFields(ctx.globals.fields, out.structured ? REPORT_FIELDS : fieldsOf('posts check'));
  const checked = await entries(ctx, flags);
  const report = await checkPosts(checked, mediaInspector(ctx.signal));
  const bulk = flags.fromFile !== undefined;
  // Problems first. A bulk file's every passing check (a 200-row file made 1,321 lines) is left
  // out on a terminal, and -q keeps the problems alone; piped, every check is listed.
  const keep: (r: Row) => boolean = ctx.globals.quiet ? (r) => r.verdict === 'fail' : bulk && ctx.io.stdout.isTTY ? (r) => r.verdict !== 'pass' : () => true;
  // Rows are made only for a table or TSV (a generator): --json prints the report itself.
  await out.report(report, problemsFirst(rows(report), keep), { kind: 'table', columns: CHECK_COLUMNS });
  // The table may cut the notes: each failure and each warning is told whole under it, with its
  // fix. (A report is refused exactly when some row fails: an accepted one without warnings is not
  // walked again.) A problem's message already starts with its field: it is not named twice.
  if (!out.structured && (!report.accepted || report.targets.some((t) => t.checks.some((c) => c.verdict === 'warn')))) {
    for (const r of rows(report)) {
      if (r.verdict !== 'fail' && !(r.verdict === 'warn' && r.note)) continue;
      // One line each: a line break or tab in a file name is shown as TSV writes it.
      const line = `${r.target}${r.item && r.rule !== 'input' ? ` ${shortItem(r.item)}` : ''}: ${r.verdict === 'warn' ? 'warning: ' : ''}${r.note}`;
      out.info(line.replace(/\n/g, '\\n').replace(/\t/g, '\\t'));
    }
  }
  if (bulk && ctx.io.stdout.isTTY && !out.structured && !ctx.globals.quiet) {
    const passing = [...rows(report)].filter((r) => r.verdict === 'pass').length;
    if (passing) out.info(`${passing} passing check${passing === 1 ? '' : 's'} not shown: -o tsv or --json lists every check`);
  }
  out.footer(checkSummary(report, bulk ? checked.length : undefined));
  return report.accepted ? 0 : 2;
}

/** The rows kept, failures first, then warnings and rules left to the platform, then passes (each in file order). */
function* problemsFirst(all: Iterable<Row>, keep: (r: Row) => boolean): Generator<Row> {
  const later: Row[][] = [[], [], []];
  for (const r of all) {
    if (!keep(r)) continue;
    if (r.verdict === 'fail') yield r;
    else later[r.verdict === 'pass' ? 2 : r.verdict === 'warn' ? 0 : 1]!.push(r);
  }
  for (const group of later) yield* group;
}

/** A post without a time to check: --tz there would be ignored in silence. */
const tzAlone = () => new UsageError('--tz only applies to a time (--at, the scheduledAt of --file, or a --from-file)', ['leave --tz out to check a post without a time, or give its time with --at']);

/** Problems first (target "input"), then each target's checks; a failing check's note is its message and fix. */
function* rows(report: CheckReport): Generator<Row> {
  for (const p of report.problems) yield { target: 'input', rule: 'input', item: p.field, actual: '', limit: '', verdict: 'fail', note: `${p.message}${p.fix ? ` (fix: ${p.fix})` : ''}` };
  for (const t of report.targets) {
    const target = `${t.line !== undefined ? `line ${t.line} ` : ''}${t.platform}`;
    for (const c of t.checks) yield { target, rule: c.rule, item: c.item ?? '', actual: c.actual, limit: c.limit, verdict: c.verdict, note: note(c) };
  }
}

/**
 * A media item in a narrow column: its file name, not the flag and folder ("clip.mp4"). A
 * backslash that starts a `\u001b` escape (a control character made visible) is not a separator.
 */
const shortItem = (label: string) => label.replace(/^--media /, '').replace(/^.*(?:\/|\\(?!u[0-9a-f]{4}))(?=.)/, '');

const note = (c: RuleCheck) => (c.message ? `${c.message}${c.fix ? ` (fix: ${c.fix})` : ''}` : '');

async function entries(ctx: Context, flags: CheckFlags): Promise<CheckEntry[]> {
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
  const issues: Issue[] = [];
  const zone = catchTime(issues, () => lazyUserZone(ctx.env, flags.tz)) ?? machineZone;
  if (issues.length) throw new InvalidInputError(issues);
  // Judged as `posts schedule` judges it: a time that has passed would be refused there.
  const judgeTime = (input: string, field: string) => {
    const now = ctx.clock.now();
    catchTime(issues, () => requireFuture(parseAt(input, { now, zone, field }), now, field, input.trim()));
  };
  if (flags.fromFile !== undefined) {
    const src = await readSource(ctx, flags.fromFile, '--from-file');
    const parsed = parseBulk(src.text, { label: src.label, baseDir: src.baseDir, zone, now: ctx.clock.now(), allowMediaOutside: flags.allowMediaOutside === true });
    if (parsed.fileIssues.length) throw new InvalidInputError(parsed.fileIssues, { what: src.label });
    // A row that schedules a draft by id has no payloads here: said, so "0 targets" is not a mystery.
    const byId = parsed.rows.filter((r) => r.postId !== undefined);
    if (byId.length) ctx.output().info(`${byId.length === 1 ? '1 row names a draft' : `${byId.length} rows name drafts`} on the service by postId (line ${byId.slice(0, 5).map((r) => r.line).join(', ')}${byId.length > 5 ? ', …' : ''}): ${byId.length === 1 ? 'its payloads are' : 'theirs are'} not judged here`);
    // A time that has passed is a problem, as `posts schedule --from-file` finds it: `check && schedule` holds.
    return parsed.rows.map((r) => ({ draft: r.draft, issues: r.issues, line: r.line }));
  }
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
    return [{ draft: body.draft, issues }];
  }
  if (!payload.includes('platform') && !payload.includes('textFor')) throw new UsageError('missing --platform', ['name the targets: --platform twitter-x,instagram (or give --file / --from-file)'], 'MISSING_VALUE');
  if (flags.text !== undefined && flags.textFile !== undefined) {
    throw new UsageError('--text-file cannot be combined with --text', ['give the text one way: --text "…" for a line, --text-file <file|-> for a file or stdin']);
  }
  const values: FlagValues = { ...flags, ...(flags.platform ? { platform: splitList(flags.platform) } : {}) };
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
  return [{ draft, issues }];
}
