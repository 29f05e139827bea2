// A bulk file → rows, each with its draft (or draft id), its time and its problems. NDJSON rows
// are the contract's schedule bodies; CSV rows use the documented columns.
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { draftFromBody, draftFromFlags, type FlagLabels, type Issue, type PostDraft } from '../draft.js';
import { parseJsonWithLocation } from '../../wire/json-location.js';
import { catchTime } from '../issues.js';
import { parseAt, requireFuture, type ResolvedAt } from '../when.js';
import { nearest, suggestPlatform } from '../../wire/suggest.js';
import { isPlatform, PLATFORMS } from '../../wire/platforms.js';
import { CsvReader, CsvSyntaxError, detectDelimiter, type CsvRecord } from './csv.js';

export type BulkFormat = 'ndjson' | 'csv';

export interface BulkRow {
  /** 0-based position among the file's rows. */
  index: number;
  /** Line the row starts on. */
  line: number;
  draft: PostDraft | undefined;
  postId: string | undefined;
  at: ResolvedAt | undefined;
  issues: Issue[];
  /** Its (absolute) time has passed: its last issue says so. */
  passed?: boolean;
  /** CSV `account` column: the accounts to publish to (id, @handle or platform:@handle), resolved by the caller. */
  accounts?: string[];
}

export interface ParsedBulk {
  format: BulkFormat;
  rows: BulkRow[];
  /** Problems with the file as a whole (header, syntax): nothing can be scheduled. */
  fileIssues: Issue[];
}

export interface BulkParseOptions {
  label: string;
  /** The bulk file's folder: relative media paths start here, and must stay inside it. */
  baseDir: string;
  /** The zone of local times; a function when finding it should wait for a row that has one. */
  zone: string | (() => string);
  now: number;
  /** Media files may be anywhere on disk (--allow-media-outside). */
  allowMediaOutside?: boolean;
}

export function detectFormat(label: string, text: string): BulkFormat {
  return detectFormatByName(label) ?? (text.trimStart().startsWith('{') ? 'ndjson' : 'csv');
}

function detectFormatByName(label: string): BulkFormat | undefined {
  const lower = label.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (/\.(ndjson|jsonl|json)$/.test(lower)) return 'ndjson';
  return undefined;
}

export function parseBulk(text: string, options: BulkParseOptions): ParsedBulk {
  const reader = new BulkReader(options);
  const rows = [...reader.push(text), ...reader.end()];
  // A file refused whole (its header, its syntax) has no rows to schedule.
  return { format: reader.format!, rows: reader.fileIssues.length ? [] : rows, fileIssues: reader.fileIssues };
}

/**
 * A bulk file read a piece at a time (posts check reads 20,000 rows in the memory of a few):
 * each push answers the rows it completed, each with its problems and its media folder judged.
 * A problem with the file as a whole (its header, a quote never closed, no rows) is in
 * fileIssues; once there is one, no more rows come, and the rows already given are void.
 */
export class BulkReader {
  format: BulkFormat | undefined;
  readonly fileIssues: Issue[] = [];
  private csv: CsvReader | undefined;
  private csvRow: ((rec: CsvRecord) => BulkRow) | undefined;
  /** The text held until the format is known, or (NDJSON) the text after the last line break. */
  private rest = '';
  private line = 1;
  private count = 0;
  private readonly folder: string | undefined;
  /** A row's media path made absolute in the file's folder. */
  private readonly mediaPath: (p: string) => string;

  constructor(private readonly options: BulkParseOptions) {
    this.folder = options.allowMediaOutside ? undefined : real(resolve(options.baseDir));
    this.mediaPath = pathsUnder(options.baseDir);
  }

  /** The rows the text completes, made as they are taken (read them all before the next push). */
  push(text: string): Generator<BulkRow> {
    return this.read(text, false);
  }

  *end(): Generator<BulkRow> {
    yield* this.read('', true);
    if (this.fileIssues.length === 0 && this.count === 0) {
      this.fileIssues.push({ field: this.options.label, message: `${this.options.label}: no rows`, fix: this.format === 'csv' ? 'add rows under the header' : 'add one JSON body per line' });
    }
  }

  private *read(text: string, final: boolean): Generator<BulkRow> {
    if (this.fileIssues.length) return;
    if (this.format === undefined) {
      // The format waits for the first character, and a CSV's delimiter for the whole first line.
      const start = this.rest + text;
      const known = detectFormatByName(this.options.label);
      if (!final && (!/[\r\n]/.test(start) || (known === undefined && !/\S/.test(start)))) {
        this.rest = start;
        return;
      }
      this.rest = '';
      this.format = known ?? detectFormat(this.options.label, start);
      if (this.format === 'csv') this.csv = new CsvReader(detectDelimiter(start));
      text = start;
    }
    for (const row of this.format === 'csv' ? this.readCsv(text, final) : this.readNdjson(text, final)) {
      // A row that names a file outside is refused whole, and its files are never opened: not even
      // their headers, whose size, type or absence would tell what lies elsewhere on disk.
      if (this.folder !== undefined && !checkMediaFolder(row, this.folder, this.options)) row.draft = undefined;
      this.count++;
      yield row;
    }
  }

  private *readCsv(text: string, final: boolean): Generator<BulkRow> {
    let records: CsvRecord[];
    try {
      records = final ? [...this.csv!.push(text), ...this.csv!.end()] : this.csv!.push(text);
    } catch (e) {
      if (!(e instanceof CsvSyntaxError)) throw e;
      const label = this.options.label;
      this.fileIssues.push({ field: label, message: `${label}: ${e.message}`, fix: 'close the quote; a quote inside a quoted field is written ""' });
      return;
    }
    for (const rec of records) {
      if (this.csvRow) yield this.csvRow(rec);
      else {
        const header = csvHeader(rec, this.options, this.mediaPath);
        if (!header.ok) {
          this.fileIssues.push(...header.issues);
          return;
        }
        this.csvRow = header.row;
      }
    }
  }

  private *readNdjson(text: string, final: boolean): Generator<BulkRow> {
    const lines = (this.rest + text).split('\n');
    this.rest = final ? '' : lines.pop()!;
    for (const raw of lines) {
      const line = this.line++;
      if (raw.trim() !== '') yield ndjsonRow(raw, line, this.count, this.options, this.mediaPath);
    }
  }
}

/** The path with its links resolved, as far as it exists (a missing file is reported elsewhere). */
function real(path: string): string {
  try {
    // One realpath(3) call, where realpathSync walks and lstats every folder of every path.
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

/**
 * A row's media path made absolute in the bulk file's folder, exactly as path.resolve makes it. A
 * plain relative path (no ".", ".." or empty segment, no trailing slash) is joined as it is:
 * path.resolve walks the path a character at a time in script, a sixth of reading a CSV row.
 */
export function pathsUnder(baseDir: string): (path: string) => string {
  const base = resolve(baseDir);
  const prefix = base.endsWith(sep) ? base : base + sep;
  const plain = (p: string) => sep === '/' && p !== '' && p[0] !== '/' && p[0] !== '.' && !p.endsWith('/') && !p.includes('/.') && !p.includes('//');
  return (p) => (plain(p) ? prefix + p : resolve(base, p));
}

/**
 * A bulk file comes from anywhere (a colleague, a generator, a download); its media must not
 * reach files elsewhere on disk (`../../.ssh/id_rsa.png`). A path that leaves the file's folder
 * once `..` and symbolic links are resolved is refused, and so is an absolute path. Answers
 * whether every path of the row stays inside.
 */
function checkMediaFolder(row: BulkRow, folder: string, options: BulkParseOptions): boolean {
  if (!row.draft) return true;
  let inFolder = true;
  // The platforms of a CSV row share one media list: each list is judged once.
  const platforms = row.draft.platforms;
  for (const list of platforms.length === 1 ? [platforms[0]!.media] : new Set(platforms.map((p) => p.media))) {
    for (const m of list) {
      if (m.isUrl || !m.path) continue;
      const absolute = isAbsolute(m.source);
      if (!absolute && inside(folder, real(m.path))) continue;
      inFolder = false;
      row.issues.push({
        field: m.label,
        message: `${m.label}: "${m.source}" ${absolute ? 'is an absolute path' : 'leads outside the folder of the bulk file'}; media of ${options.label} must be inside ${folder}`,
        fix: 'move the file into that folder (or a folder inside it) and name it relative to the bulk file, or add --allow-media-outside to send files from anywhere',
      });
    }
  }
  return inFolder;
}

/** Whether a resolved path lies in the folder: a plain prefix test first, path.relative for the rest. */
function inside(folder: string, path: string): boolean {
  if (path.startsWith(folder) && path[folder.length] === sep && !folder.endsWith(sep)) return true;
  const rel = relative(folder, path);
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

function resolveTime(row: BulkRow, input: string | undefined, field: string, options: BulkParseOptions): void {
  if (input === undefined || input.trim() === '') {
    row.issues.push({ field, message: `${field}: missing`, fix: 'give a time: RFC 3339 with an offset, or "YYYY-MM-DD HH:MM" (read in --tz)' });
    return;
  }
  row.at = catchTime(row.issues, () => parseAt(input, { now: options.now, zone: options.zone, field, allowRelative: false }));
  if (row.at && row.at.epochMs <= options.now) {
    const before = row.issues.length;
    catchTime(row.issues, () => requireFuture(row.at!, options.now, field, input.trim()));
    // Kept apart: a re-run without the journal sends such rows (see load.ts).
    row.passed = row.issues.length > before;
  }
}

function ndjsonRow(raw: string, line: number, index: number, options: BulkParseOptions, mediaPath: (p: string) => string): BulkRow {
  const row: BulkRow = { index, line, draft: undefined, postId: undefined, at: undefined, issues: [] };
  const parsed = parseJsonWithLocation(raw.replace(/\r$/, ''));
  if (!parsed.ok) {
    row.issues.push({ field: `line ${line}`, message: `line ${line}, column ${parsed.problem.column}: invalid JSON: ${parsed.problem.message}`, fix: 'one complete JSON object per line' });
    return row;
  }
  const body = draftFromBody(parsed.value, `line ${line}: `, mediaPath, row.issues, { schedule: true });
  row.draft = body.draft;
  row.postId = body.postId;
  if (parsed.value && typeof parsed.value === 'object') resolveTime(row, body.scheduledAt, `line ${line}: scheduledAt`, options);
  return row;
}

/**
 * A row's issues, each naming its line: the checks shared with the command line (text missing,
 * for one) speak of the post, and in a file of many posts the reader needs to know which one.
 */
export function atLine(line: number | undefined, issues: Issue[]): Issue[] {
  if (line === undefined) return issues;
  const prefix = `line ${line}`;
  const named = (s: string) => s === prefix || s.startsWith(`${prefix}:`) || s.startsWith(`${prefix},`);
  return issues.map((i) => (named(i.message) ? i : { ...i, field: named(i.field) ? i.field : `${prefix}: ${i.field}`, message: `${prefix}: ${i.message}` }));
}

export const CSV_COLUMNS = ['at', 'platforms', 'text', 'media', 'title', 'first_comment', 'alt', 'account'] as const;
// A Map: a header such as "constructor" or "__proto__" must not find Object.prototype's members.
const COLUMN_ALIASES = new Map([
  ['scheduledat', 'at'],
  ['scheduled_at', 'at'],
  ['time', 'at'],
  ['platform', 'platforms'],
  ['accounts', 'account'],
  ['firstcomment', 'first_comment'],
  ['first comment', 'first_comment'],
]);
const split = (v: string | undefined): string[] => {
  if (v === undefined) return [];
  // Most cells hold one value: no list to split.
  if (!v.includes('|') && !v.includes(';')) return v.trim() ? [v.trim()] : [];
  return v
    .split(/[|;]/)
    .map((s) => s.trim())
    .filter(Boolean);
};

/**
 * A CSV row's field names ("line 4: text"), made when a message asks for them: a row holds only
 * its line number here, not ten closures and their strings (900 bytes a row, 20,000 rows of a
 * bulk check). Apart from the row's record: closures made beside it would keep every field alive.
 */
class CsvLabels implements FlagLabels {
  constructor(private readonly line: number) {}
  private f(name: string): string {
    return `line ${this.line}: ${name}`;
  }
  get platform(): string {
    return this.f('platforms');
  }
  get text(): string {
    return this.f('text');
  }
  get mediaCount(): string {
    return this.f('media');
  }
  get title(): string {
    return this.f('title');
  }
  get firstComment(): string {
    return this.f('first_comment');
  }
  textFor(p: string): string {
    return this.f(`text:${p}`);
  }
  media(m: string): string {
    return this.f(`media ${m}`);
  }
  // Read off the labels and called alone (draft.missingTextFix): it needs no line.
  missingTextFix = missingTextFix;
  alt(m: string): string {
    return this.f(m ? `alt (for ${m})` : 'alt');
  }
  altFix = 'give one alt text per media item, in the order of the media column, separated by |: a.jpg|b.jpg and "A red bicycle|A blue door"';
  option(p: string, k: string): string {
    return this.f(`option.${p}.${k}`);
  }
  offTargetOptionFix(p: string, k: string): string {
    return `add ${p} to the platforms of line ${this.line}, or leave its option.${p}.${k} cell empty`;
  }
}

const missingTextFix = (p: string) => `fill the text column, or a text:${p} column`;

type CsvHeader = { ok: true; row: (rec: CsvRecord) => BulkRow } | { ok: false; issues: Issue[] };

/** The header row read: its columns checked, and the reader of every row under it. */
function csvHeader(header: CsvRecord, options: BulkParseOptions, mediaPath: (p: string) => string): CsvHeader {
  const fileIssues: Issue[] = [];
  const columns = header.fields.map((h) => {
    const name = h.trim().toLowerCase();
    return COLUMN_ALIASES.get(name) ?? name;
  });
  columns.forEach((c, i) => {
    // A text:<platform> column for no platform would be dropped in silence: the row would go out
    // with the shared text, or be refused for a text it does have.
    const own = /^text:(.+)$/.exec(c)?.[1]?.trim();
    if (own !== undefined && !isPlatform(own)) {
      const meant = suggestPlatform(own);
      fileIssues.push({
        field: `${options.label}: header`,
        message: `${options.label}: header column ${i + 1} "${header.fields[i]}": "${own}" is not a platform id`,
        fix: meant ? `did you mean "text:${meant}"?` : `platforms: ${PLATFORMS.join(', ')}`,
      });
      return;
    }
    // option.<platform>.<key> columns: the platform checked here, the key with each row's value.
    const option = /^option\.([^.]+)\.(.+)$/.exec(c);
    if (option && !isPlatform(option[1]!)) {
      const meant = suggestPlatform(option[1]!);
      fileIssues.push({ field: `${options.label}: header`, message: `${options.label}: header column ${i + 1} "${header.fields[i]}": "${option[1]}" is not a platform id`, fix: meant ? `did you mean "option.${meant}.${option[2]}"?` : `platforms: ${PLATFORMS.join(', ')}` });
      return;
    }
    if ((CSV_COLUMNS as readonly string[]).includes(c) || own !== undefined || option) return;
    const near = nearest(c, CSV_COLUMNS);
    fileIssues.push({
      field: `${options.label}: header`,
      message: `${options.label}: header column ${i + 1} "${header.fields[i]}" is not a known column`,
      fix: `${near ? `did you mean "${near}"? ` : ''}columns: ${CSV_COLUMNS.join(', ')}, text:<platform>, option.<platform>.<key>`,
    });
  });
  for (const required of ['at', 'platforms']) {
    if (!columns.includes(required)) fileIssues.push({ field: `${options.label}: header`, message: `${options.label}: the header has no "${required}" column`, fix: `the first row names the columns: ${CSV_COLUMNS.join(',')}` });
  }
  if (!columns.some((c) => c === 'text' || c.startsWith('text:'))) {
    fileIssues.push({ field: `${options.label}: header`, message: `${options.label}: the header has no "text" column`, fix: 'add a text column (or text:<platform> columns)' });
  }
  const dupes = columns.filter((c, i) => columns.indexOf(c) !== i);
  if (dupes.length) fileIssues.push({ field: `${options.label}: header`, message: `${options.label}: column "${dupes[0]}" appears twice` });
  if (fileIssues.length) return { ok: false, issues: fileIssues };

  // Where each column is, found once for every row.
  const at = columns.indexOf('at');
  const platformsAt = columns.indexOf('platforms');
  const textAt = columns.indexOf('text');
  const mediaAt = columns.indexOf('media');
  const titleAt = columns.indexOf('title');
  const accountAt = columns.indexOf('account');
  const textFor = columns.flatMap((c, i) => (c.startsWith('text:') ? [{ platform: c.slice(5).trim(), i }] : []));
  const firstCommentAt = columns.indexOf('first_comment');
  const altAt = columns.indexOf('alt');
  const optionColumns = columns.flatMap((c, i) => {
    const m = /^option\.([^.]+)\.(.+)$/.exec(c);
    // The key as written in the header (settings are camelCase: postType, madeForKids).
    return m ? [{ platform: m[1]!, name: header.fields[i]!.trim().slice(`option.${m[1]}.`.length), i }] : [];
  });
  let index = 0;
  const row = (rec: CsvRecord): BulkRow => {
    const row: BulkRow = { index: index++, line: rec.line, draft: undefined, postId: undefined, at: undefined, issues: [] };
    const f = (name: string) => `line ${rec.line}: ${name}`;
    if (rec.fields.length !== columns.length) {
      row.issues.push({ field: f('(row)'), message: `line ${rec.line}: ${rec.fields.length} fields, the header has ${columns.length}`, fix: 'quote fields that contain commas: "like, this"' });
      return row;
    }
    const get = (i: number) => (i < 0 ? undefined : rec.fields[i]);
    const platforms = split(get(platformsAt));
    // text:<platform> columns apply to the row's platforms only (a column is shared by all rows).
    const textForMap = new Map<string, string>();
    for (const { platform, i } of textFor) if (platforms.includes(platform) && rec.fields[i]!.trim() !== '') textForMap.set(platform, rec.fields[i]!);
    const text = get(textAt);
    const title = get(titleAt);
    const firstComment = get(firstCommentAt);
    // Alt texts in the order of the row's media, separated by | (an alt text may hold ; and ,).
    // Columns the file does not have cost its rows nothing (a bulk check judges 20,000 of them).
    const alts = altAt < 0 ? [] : rec.fields[altAt]!.split('|').map((a) => a.trim());
    // Every filled option cell, of the row's platforms or not: a setting for a platform the row
    // does not go to is a slip that draftFromFlags names (as --option does), never dropped unsaid.
    const option = optionColumns.length === 0 ? [] : optionColumns.filter((o) => rec.fields[o.i]!.trim() !== '').map((o) => `${o.platform}.${o.name}=${rec.fields[o.i]!}`);
    const labels = new CsvLabels(rec.line);
    row.draft = draftFromFlags(
      {
        platform: platforms,
        ...(text !== undefined && text !== '' ? { text } : {}),
        textForMap,
        media: split(get(mediaAt)),
        ...(title !== undefined && title.trim() !== '' ? { title } : {}),
        ...(firstComment !== undefined && firstComment.trim() !== '' ? { firstComment } : {}),
        alt: alts.flatMap((a, index) => (a ? [{ index, text: a }] : [])),
        option,
      },
      mediaPath,
      row.issues,
      labels,
    );
    const accounts = split(get(accountAt));
    if (accounts.length) row.accounts = accounts;
    resolveTime(row, get(at), f('at'), options);
    return row;
  };
  return { ok: true, row };
}
