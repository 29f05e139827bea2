// How a command's rows are printed. A command picks one kind of view, and each kind says in one
// small function what every output format prints for it:
//
//   table     rows with columns: a table on a terminal, TSV/CSV piped, the rows unchanged as a
//             JSON array or NDJSON; iCalendar when the view has a calendar (scheduled posts).
//   run       a run's outcome per item, printed as each item is done (a bulk run): like a table,
//             but a table prints each row as it comes, and --json prints one object holding the
//             rows and the run's counts at the end.
//   log       events as they arrive, with no end (webhook deliveries): a line each on a terminal,
//             TSV/CSV piped, NDJSON under --json too (an array would never close).
//   document  rows without columns (an arbitrary endpoint's): JSON in every format but NDJSON.
import { InvalidInputError } from '../wire/invalid-input.js';
import type { Colors } from './colors.js';
import { availableFields, checkFields, selectColumns } from './fields.js';
import type { JqProgram } from './jq.js';
import { jqWriter, withFields, writeJqLines } from './shaping.js';
import { csvWriter, jsonArrayWriter, lineWriter, ndjsonWriter, tableWriter, tsvWriter, writeTo, type Column, type ListWriter, type Sink } from './writers.js';
import { isJsonFormat, type Format } from './formats.js';
import { jsonText, safeOneLineValue, safeValue, withoutCommandStarts } from './terminal-safe.js';

export interface TableView<T> {
  kind: 'table';
  columns: Column<T>[];
  /** Under -q on a table, TSV or CSV: this alone, one per line (for xargs and loops). */
  id?: (row: T) => string;
  /** The rows' own field names, dotted for nested ones (what --fields may name besides columns). */
  fields?: readonly string[];
  /** `-o ics`: the rows as a calendar; a table without one refuses -o ics. */
  calendar?: Calendar<T>;
  /**
   * Fields worked out from a row (a post's `text`, its `platforms`): --fields may name them in
   * every format, so a column's name means the same in TSV and JSON. JSON rows carry them only
   * when --fields asks for them; otherwise rows stay as the service sent them.
   */
  derived?: Readonly<Record<string, (row: T) => unknown>>;
}

export interface Calendar<T> {
  header(): string;
  /** The event of one row, or undefined for a row that is not on the calendar. */
  event(row: T): string | undefined;
  footer(): string;
}

export interface RunView<T> {
  kind: 'run';
  /** Give the columns an expectedWidth: the table decides its widths on the first row. */
  columns: Column<T>[];
  id?: (row: T) => string;
  /** Under --json, the fields printed before the `rows` (the run's counts), asked for at the end. */
  summary: () => Record<string, unknown>;
}

export interface LogView<T> {
  kind: 'log';
  columns: Column<T>[];
  /** Under -q on a table, TSV or CSV: this alone, one per line. */
  id?: (row: T) => string;
  /** The terminal line of one event, fitted to the terminal's width in columns. */
  line: (row: T, colors: Colors, width: number) => string;
  /** The JSON form of an event. */
  json: (row: T) => unknown;
  /**
   * The event's JSON text as stdout shows it, already serialised (a body kept byte for byte) with
   * DEL, C1 and bidirectional controls as \u escapes (terminalJson): the view knows when its text
   * has none. Used unless --fields or --jq.
   */
  jsonLine?: (row: T) => string;
}

export interface DocumentView {
  kind: 'document';
}

export type View<T> = TableView<T> | RunView<T> | LogView<T> | DocumentView;

/** What the kinds need from output: the format, the shaping flags and the terminal. */
export interface ViewContext {
  format: Format;
  /** -q on a table, TSV or CSV. */
  idsOnly: boolean;
  fields: readonly string[] | undefined;
  jq: JqProgram | undefined;
  colors: Colors;
  terminalWidth: number;
  /** Whether stdout is a terminal: CSV into a file keeps the data exact, CSV onto a terminal does not drive it. */
  toTerminal?: boolean;
  /**
   * Stdout may be a CI runner's log (GitHub Actions, stdout neither a terminal nor a file): exact
   * CSV still starts no line with a runner command (`::add-mask::` inside a quoted field).
   */
  runnerLog?: boolean;
}

export function viewWriter<T>(view: View<T>, sink: Sink, c: ViewContext): ListWriter<T> {
  // Text formats see the rows with the server's control characters made visible; JSON (a
  // document's rows are JSON in every format) keeps them exact, and so does CSV into a file (its
  // quoted fields hold any character; a spreadsheet is not a terminal). TSV makes its cells
  // visible itself (tsvCell), after escaping its backslashes: made visible here first, each
  // escape's backslash would be escaped again.
  const exactCsv = c.format === 'csv' && !c.toTerminal;
  const tsvCells = c.format === 'tsv' && !(c.idsOnly && 'id' in view && view.id);
  const text = !isJsonFormat(c.format) && view.kind !== 'document' && !exactCsv && !tsvCells;
  const writer = kindWriter(view, sink, c);
  // TSV escapes line breaks, so a row is one line: nothing in it can start a runner's command.
  if (text) return mapped<T>(writer, c.format === 'tsv' && !c.idsOnly ? safeOneLineValue : safeValue);
  return exactCsv && c.runnerLog ? mapped<T>(writer, withoutCommandStarts) : writer;
}

function kindWriter<T>(view: View<T>, sink: Sink, c: ViewContext): ListWriter<T> {
  switch (view.kind) {
    case 'table':
      return tableRows(view, sink, c);
    case 'run':
      return runRows(view, sink, c);
    case 'log':
      return logRows(view, sink, c);
    case 'document':
      return documentRows(sink, c);
  }
}

/**
 * Whether a long listing of this view may go through a pager. A log prints as things happen and a
 * run (a bulk schedule) may take minutes: in a pager both would sit at its end, the summary
 * printed outside it and the next command typed into it.
 */
export const pageable = (view: { kind: View<unknown>['kind'] }): boolean => view.kind !== 'log' && view.kind !== 'run';

function tableRows<T>(view: TableView<T>, sink: Sink, c: ViewContext): ListWriter<T> {
  if (c.idsOnly && view.id) return lineWriter(sink, view.id);
  switch (c.format) {
    case 'json':
    case 'ndjson':
      return jsonRows<T>(sink, c, withDerived(view, c.fields), view.fields && [...new Set([...view.fields, ...Object.keys(view.derived ?? {})])], c.format === 'json' ? jsonArrayWriter : ndjsonWriter);
    case 'ics':
      if (!view.calendar) throw notACalendar('other rows');
      return calendarWriter(sink, view.calendar);
    default:
      return textRows(c.fields ? { ...view, columns: [...view.columns, ...derivedColumns(view)] } : view, sink, c);
  }
}

/** Derived fields that no column answers to, as columns --fields can pick. */
function derivedColumns<T>(view: TableView<T>): Column<T>[] {
  const named = new Set(view.columns.map((col) => col.field ?? col.header.toLowerCase()));
  return Object.entries(view.derived ?? {})
    .filter(([name]) => !named.has(name))
    .map(([name, get]) => ({ header: name, field: name, value: (row: T) => { const v = get(row); return Array.isArray(v) ? v.join(',') : v == null ? '' : String(v); } }));
}

/** The row with the derived fields --fields names added (undefined: rows as they are). */
function withDerived<T>(view: TableView<T>, fields: readonly string[] | undefined): ((row: T) => unknown) | undefined {
  const asked = Object.entries(view.derived ?? {}).filter(([name]) => fields?.includes(name));
  if (asked.length === 0) return undefined;
  return (row) => ({ ...(row as object), ...Object.fromEntries(asked.map(([name, get]) => [name, get(row)])) });
}

function runRows<T>(view: RunView<T>, sink: Sink, c: ViewContext): ListWriter<T> {
  if (c.idsOnly && view.id) return lineWriter(sink, view.id);
  switch (c.format) {
    case 'json':
      // Only bounded runs are printed so: the rows are gathered. --jq runs over the object --json
      // prints (the counts and the rows), not over the rows alone.
      return jsonRows<T>(sink, { ...c, jq: undefined }, undefined, undefined, (s) => envelopeWriter(s, view.summary, c.jq));
    case 'ndjson':
      return jsonRows<T>(sink, c, undefined, undefined, ndjsonWriter);
    case 'ics':
      throw notACalendar('other rows');
    default:
      // One row at a time: each is printed as it is done, not when a chunk has gathered.
      return textRows(view, sink, c, 1);
  }
}

// Events are printed as each one comes, by one writer for the whole stream: --jq runs on each
// (not on a batch of 100), and a table with --fields lays out its columns on the first event.
function logRows<T>(view: LogView<T>, sink: Sink, c: ViewContext): ListWriter<T> {
  if (c.idsOnly && view.id) return lineWriter(sink, view.id);
  switch (c.format) {
    case 'json':
    case 'ndjson':
      if (view.jsonLine && !c.fields && !c.jq) return lineWriter(sink, view.jsonLine);
      return jsonRows<T>(sink, c, view.json, undefined, ndjsonWriter, 'each', 1);
    case 'ics':
      throw notACalendar('other rows');
    case 'table':
      // An event line is fitted to the terminal by its renderer: the message is cut, never wrapped.
      if (!c.fields) return lineWriter(sink, (row) => view.line(row, c.colors, c.terminalWidth));
      return textRows(view, sink, c, 1);
    default:
      return textRows(view, sink, c);
  }
}

function documentRows(sink: Sink, c: ViewContext): ListWriter<unknown> {
  switch (c.format) {
    case 'ndjson':
      return jsonRows(sink, c, undefined, undefined, ndjsonWriter);
    case 'ics':
      throw notACalendar('other rows');
    default:
      // No columns to make a table or TSV of: the JSON array, on a terminal and in a pipe too.
      return jsonRows(sink, c, undefined, undefined, jsonArrayWriter, c.format === 'json' ? 'whole' : 'each');
  }
}

export function notACalendar(what: string): InvalidInputError {
  return new InvalidInputError([{ field: '--output', message: `--output: ics is a calendar of scheduled posts; this command prints ${what}`, fix: what === 'other rows' ? 'use -o ics with `socialpub posts list`' : 'the calendar file of scheduled posts: socialpub posts list --status scheduled --all -o ics (or -o json here)' }]);
}

/**
 * JSON rows shaped by --fields and --jq. `--jq` runs once over the whole list under --json (so
 * `length` sees every row) and once per row under -o ndjson or for a log, which never ends.
 */
function jsonRows<T>(
  sink: Sink,
  c: ViewContext,
  toJson: ((row: T) => unknown) | undefined,
  rowFields: readonly string[] | undefined,
  make: (sink: Sink) => ListWriter<unknown>,
  jqMode: 'whole' | 'each' = c.format === 'json' ? 'whole' : 'each',
  jqBatch?: number,
): ListWriter<T> {
  if (c.jq) {
    const shaped = jqWriter<unknown>(sink, c.jq, { mode: jqMode, ...(jqBatch ? { batchSize: jqBatch } : {}) });
    return mapped(c.fields ? withFields<unknown>(shaped as ListWriter<Record<string, unknown>>, c.fields) : shaped, toJson);
  }
  return mapped(checkedFields(make(sink), c.fields, rowFields), toJson);
}

/** Table, TSV or CSV: columns chosen (by --fields) on the first row. */
// One rule for every TSV, lists and reports alike: no header row, one row per line (the columns
// are the names --fields takes, in the order help and the README give); CSV has a header row.
function textRows<T>(view: { columns: Column<T>[]; fields?: readonly string[] }, sink: Sink, c: ViewContext, chunkSize?: number): ListWriter<T> {
  const make = (cols: Column<T>[]): ListWriter<T> => {
    switch (c.format) {
      case 'tsv':
        return tsvWriter(sink, cols);
      case 'csv':
        return csvWriter(sink, cols);
      default:
        return tableWriter(sink, cols, c.colors, c.terminalWidth, chunkSize);
    }
  };
  const choose = (sample: () => readonly unknown[]): Column<T>[] => {
    // A bar drawn for people has no place in a file.
    const own = c.format === 'table' ? view.columns : view.columns.filter((col) => !col.tableOnly);
    return c.fields ? selectColumns(own, c.fields, dataFields(view.fields, sample())) : own;
  };
  return deferredColumns(make, choose);
}

const dataFields = (own: readonly string[] | undefined, sample: readonly unknown[]) => [...new Set([...(own ?? []), ...availableFields(sample)])];

/**
 * --fields over JSON rows: checked against the fields there are on the first row, then picked.
 * With no row at all, against the view's own fields when it has a list of them: a misspelt field
 * is exit 2 whether or not the list happens to be empty, as in TSV.
 */
function checkedFields(writer: ListWriter<unknown>, fields: readonly string[] | undefined, rowFields: readonly string[] | undefined): ListWriter<unknown> {
  if (!fields) return writer;
  const picked = withFields<unknown>(writer, fields);
  let checked = false;
  return {
    get count() {
      return picked.count;
    },
    write(row) {
      if (!checked) {
        checked = true;
        checkFields(fields, dataFields(rowFields, [row]));
      }
      return picked.write(row);
    },
    end: () => {
      if (!checked && rowFields) checkFields(fields, dataFields(rowFields, []));
      return picked.end();
    },
    abort: () => picked.abort(),
  };
}

/**
 * A TSV, CSV or table writer whose columns are chosen on the first row: --fields may name a field
 * of the rows that is not a column, and an unknown one is reported with the fields there are.
 */
function deferredColumns<T>(make: (columns: Column<T>[]) => ListWriter<T>, choose: (sample: () => readonly unknown[]) => Column<T>[]): ListWriter<T> {
  let inner: ListWriter<T> | undefined;
  const ensure = (row: T | undefined) => (inner ??= make(choose(() => (row === undefined ? [] : [row]))));
  return {
    get count() {
      return inner?.count ?? 0;
    },
    write: (row) => ensure(row).write(row),
    end: () => ensure(undefined).end(),
    // Nothing was read: nothing is written, not even a header.
    abort: async () => inner?.abort(),
  };
}

function calendarWriter<T>(sink: Sink, calendar: Calendar<T>): ListWriter<T> {
  let count = 0;
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    await writeTo(sink, calendar.header());
  };
  return {
    get count() {
      return count;
    },
    async write(row) {
      await start();
      count++;
      const event = calendar.event(row);
      if (event) await writeTo(sink, event);
    },
    async end() {
      await start();
      await writeTo(sink, calendar.footer());
    },
    // Without its footer the calendar is incomplete, as it should be after a failure.
    async abort() {},
  };
}

function envelopeWriter(sink: Sink, summary: () => Record<string, unknown>, jq: JqProgram | undefined): ListWriter<unknown> {
  const rows: unknown[] = [];
  return {
    get count() {
      return rows.length;
    },
    async write(row) {
      rows.push(row);
    },
    async end() {
      const whole = { ...summary(), rows };
      if (jq) await writeJqLines(sink, () => jq.run(whole));
      else await writeTo(sink, jsonText(whole, 2) + '\n');
    },
    // The object is written whole at the end, or not at all.
    async abort() {},
  };
}

/** Each row changed before the writer sees it (its JSON form, or its text made safe). */
function mapped<T>(writer: ListWriter<unknown>, toJson: ((row: T) => unknown) | undefined): ListWriter<T> {
  if (!toJson) return writer;
  return {
    get count() {
      return writer.count;
    },
    write: (row) => writer.write(toJson(row)),
    end: () => writer.end(),
    abort: () => writer.abort(),
  };
}
