// The one object commands print through, and the only place that knows the output format:
// commands hand it rows (with a description of their columns) or one object, and it writes a
// table (fitted to the terminal, paged when long), TSV, JSON, NDJSON or iCalendar to stdout,
// shaped by --fields and --jq; everything else (progress, hints, warnings, footers) goes to
// stderr.
import { InvalidInputError } from '../wire/invalid-input.js';
import { plainColors, type Colors } from './colors.js';
import { BatchingSink } from './batching-sink.js';
import { availableFields, checkFields, pickFields, selectColumns } from './fields.js';
import type { JqProgram } from './jq.js';
import { hyperlink, supportsHyperlinks } from './links.js';
import { startPager, type Pager } from './pager.js';
import { createProgressLine, type ProgressLine as TerminalLine } from './progress.js';
import { formatCount } from './count.js';
import { cutToWidth, displayWidth } from './width.js';
import { headedTsvWriter, jqWriter, withFields, writeJson } from './shaping.js';
import { jsonArrayWriter, lineWriter, ndjsonWriter, tableWriter, tsvWriter, writeTo, type Column, type ListWriter, type Sink } from './writers.js';
import type { Spinner } from './spinner.js';

export type Format = 'table' | 'tsv' | 'json' | 'ndjson' | 'ics';

type Env = Readonly<Record<string, string | undefined>>;
type Terminal = Sink & { isTTY?: boolean; columns?: number };

export interface OutputOptions {
  stdout: Terminal;
  stderr: Terminal;
  format: Format;
  colors?: Colors;
  quiet?: boolean;
  /** Spinners and progress only when both streams are terminals. */
  progress?: boolean;
  now?: () => number;
  /** --fields */
  fields?: readonly string[] | undefined;
  /** --jq, compiled (before any request). */
  jq?: JqProgram | undefined;
  /** The environment: pager, hyperlink and browser settings. */
  env?: Env;
  /** stdout is the process's own terminal, so a pager may take it over (not --no-pager). */
  pageable?: boolean;
}

/** How a command's rows are shown: its columns, and what -q prints of a row. */
export interface ListView<T> {
  columns: Column<T>[];
  /** Under -q on a table or TSV: this alone, one per line (for xargs and loops). */
  id?: (row: T) => string;
  /** A terminal rendering of one row as a line, for lists that are logs rather than tables. */
  line?: (row: T, colors: Colors) => string;
  /** The JSON form of a row (default: the row itself, unchanged). */
  json?: (row: T) => unknown;
  /**
   * Under --json, print one object holding the rows under this key, with the fields `extra`
   * gives at the end (a bulk run's counts), instead of a bare array. Only for bounded lists: the
   * rows are gathered. NDJSON, TSV and tables still stream row by row.
   */
  envelope?: { key: string; extra: () => Record<string, unknown> };
  /** Rows without columns (an arbitrary endpoint's): a JSON array on a terminal and in a pipe too. */
  jsonOnly?: boolean;
  /** The row's JSON text, already serialised (a webhook body kept byte for byte). */
  jsonLine?: (row: T) => string;
  /** A stream with no end (events as they arrive): --json prints NDJSON, as an array never closes. */
  endless?: boolean;
  /** The rows' own field names, dotted for nested ones (what --fields may name besides columns). */
  fields?: readonly string[];
  /**
   * Rows arrive slowly (a bulk run's, one per request): a table prints each as it comes instead of
   * waiting for a chunk to size its columns (give the columns an expectedWidth).
   */
  stream?: boolean;
  /** TSV starts with a header row of the names --fields takes (a report's columns, such as stats). */
  tsvHeader?: boolean;
  /** `-o ics`: the rows as a calendar (scheduled posts); without it, -o ics is refused. */
  ics?: { header(): string; event(row: T): string | undefined; footer(): string };
}

export interface ObjectOptions {
  /** Under -q on a table or TSV: this alone. */
  id?: string;
}

export interface Progress {
  update(rows: number, total: number | undefined): void;
  done(): void;
}

export interface StatusLine {
  update(text: string): void;
  /** Erases the line (before anything else is printed for good). */
  clear(): void;
}

export interface Output {
  readonly colors: Colors;
  readonly quiet: boolean;
  readonly progress: boolean;
  readonly stdoutIsTTY: boolean;
  /** Whether stdout carries JSON for programs (--json / -o ndjson / --jq): human text then goes to stderr. */
  readonly structured: boolean;
  /** A streaming writer for rows; output batches writes and honours back-pressure. */
  listWriter<T>(view: ListView<T>): ListWriter<T>;
  /** Writes every row of a (possibly async) list; returns how many were written. */
  list<T>(rows: Iterable<T> | AsyncIterable<T>, view: ListView<T>): Promise<number>;
  /** A single object: JSON under json/ndjson, otherwise the human rendering. */
  object(value: unknown, human: () => string, options?: ObjectOptions): Promise<void>;
  /** One object for programs (JSON/NDJSON) whose human form is a table of rows (TSV, table). */
  report<T>(value: unknown, rows: Iterable<T>, view: ListView<T>): Promise<void>;
  /** A JSON document as it came (a response body): indented for reading, one line for a pipe. */
  document(value: unknown): Promise<void>;
  /** A line of data on stdout, whatever the format (completion scripts, help, raw bodies). */
  data(line: string): Promise<void>;
  /** The line under a table on stderr ("showing 1–20 of 4,213 · next: --offset 20"). */
  footer(text: string): void;
  /** Progress and information on stderr (suppressed by --quiet). */
  info(line: string): void;
  /** A line on stderr that even --quiet keeps (a script should know nothing new was made). */
  notice(line: string): void;
  warn(line: string): void;
  /** A spinner on stderr; a silent stand-in when not on a terminal. */
  spinner(text: string): Promise<Spinner>;
  /** "12,400 / 100,000 rows" on stderr while a long list streams. */
  rowProgress(): Progress;
  /** One redrawn status line on stderr (bulk runs), cleared before data reaches the same terminal. */
  statusLine(): StatusLine;
  /** A live URL as a clickable link where the terminal supports it. */
  link(url: string, text?: string): string;
  /** Waits for the pager (if one was started) once the command is done. */
  close(): Promise<void>;
}

export function createOutput(options: OutputOptions): Output {
  const baseColors = options.colors ?? plainColors;
  const quiet = options.quiet ?? false;
  const progress = options.progress ?? false;
  const { stdout, stderr, format } = options;
  const env = options.env ?? {};
  const now = options.now ?? Date.now;
  const fields = options.fields;
  const jq = options.jq;
  const idsOnly = quiet && (format === 'table' || format === 'tsv');
  const linksOn = supportsHyperlinks({ env, isTTY: Boolean(stdout.isTTY) });
  const link = (url: string, text = url) => hyperlink(url, text, linksOn);
  const colors: Colors = { ...baseColors, link };

  let statusLine: TerminalLine | undefined;
  let pager: Pager | undefined;
  /** Where data goes: the pager once one runs, and never through a progress line's text. */
  const target = (): Terminal => {
    const base = pager?.sink ?? stdout;
    return statusLine ? statusLine.wrap(base) : base;
  };

  const startPagerIfLong = () => {
    if (pager || format !== 'table' || !options.pageable) return;
    // less -F quits at once when everything fits one screen, so short tables are not held.
    pager = startPager({ env, stdoutIsTTY: Boolean(stdout.isTTY), stdout });
  };

  const listWriter = <T>(view: ListView<T>): ListWriter<T> => {
    if (format === 'table' && !view.line && !idsOnly) startPagerIfLong();
    const sink = new BatchingSink(target());
    const inner = innerWriter(view, sink);
    return {
      get count() {
        return inner.count;
      },
      write: (row) => inner.write(row),
      async end() {
        await inner.end();
        await sink.end();
      },
    };
  };

  const dataFields = <T>(view: ListView<T>, sample: readonly unknown[]) => [...new Set([...(view.fields ?? []), ...availableFields(sample)])];
  const columnsOf = <T>(view: ListView<T>, sample: () => readonly unknown[]): Column<T>[] => {
    const own = format === 'tsv' ? view.columns.filter((c) => !c.tableOnly) : view.columns;
    return fields ? selectColumns(own, fields, dataFields(view, sample())) : own;
  };

  const innerWriter = <T>(view: ListView<T>, sink: Sink): ListWriter<T> => {
    if (idsOnly && view.id) return lineWriter(sink, view.id);
    const toJson = view.json;
    if (format === 'ics') {
      if (!view.ics) throw new InvalidInputError([{ field: '--output', message: '--output: ics is a calendar of scheduled posts; this command prints other rows', fix: 'use -o ics with `socialpub posts list`' }]);
      return icsWriter(sink, view.ics);
    }
    if (jq && (format === 'json' || format === 'ndjson')) {
      const shaped = jqWriter<unknown>(sink, jq, { mode: format === 'json' && !view.endless ? 'whole' : 'each' });
      return mapped(fields ? withFields<unknown>(shaped as ListWriter<Record<string, unknown>>, fields) : shaped, toJson);
    }
    if (view.jsonOnly && format !== 'ndjson') return mapped(fieldsOrNot(jsonArrayWriter<unknown>(sink), view as ListView<unknown>), toJson);
    if (!fields && view.jsonLine && (format === 'ndjson' || (format === 'json' && view.endless))) return lineWriter(sink, view.jsonLine);
    switch (format) {
      case 'json':
        if (view.endless) return mapped(fieldsOrNot(ndjsonWriter<unknown>(sink), view as ListView<unknown>), toJson);
        return mapped(fieldsOrNot(view.envelope ? envelopeWriter(sink, view.envelope) : jsonArrayWriter<unknown>(sink), view as ListView<unknown>), toJson);
      case 'ndjson':
        return mapped(fieldsOrNot(ndjsonWriter<unknown>(sink), view as ListView<unknown>), toJson);
      case 'tsv':
        return deferredColumns((cols) => (view.tsvHeader ? headedTsvWriter(sink, cols) : tsvWriter(sink, cols)), (sample) => columnsOf(view, sample));
      case 'table':
        if (view.line && !fields) return lineWriter(sink, (row) => view.line!(row, colors));
        return deferredColumns((cols) => tableWriter(sink, cols, colors, stdout.columns ?? 120, view.stream ? 1 : undefined), (sample) => columnsOf(view, sample));
    }
  };

  /** --fields over JSON rows: checked against the fields there are on the first row, then picked. */
  const fieldsOrNot = (writer: ListWriter<unknown>, view?: ListView<unknown>): ListWriter<unknown> => {
    if (!fields) return writer;
    const picked = withFields<unknown>(writer as ListWriter<Record<string, unknown>>, fields);
    let checked = false;
    return {
      get count() {
        return picked.count;
      },
      write(row) {
        if (!checked) {
          checked = true;
          checkFields(fields, dataFields(view ?? { columns: [] }, [row]));
        }
        return picked.write(row);
      },
      end: () => picked.end(),
    };
  };

  const output: Output = {
    colors,
    quiet,
    progress,
    stdoutIsTTY: Boolean(stdout.isTTY),
    structured: format === 'json' || format === 'ndjson',
    listWriter,
    async list(rows, view) {
      const w = listWriter(view);
      try {
        for await (const row of rows) {
          await w.write(row);
          // The user quit the pager: the rest would go nowhere.
          if (pager?.signal.aborted) break;
        }
      } finally {
        await w.end();
      }
      return w.count;
    },
    async object(value, human, objectOptions = {}) {
      if (format === 'ics') throw new InvalidInputError([{ field: '--output', message: '--output: ics is a calendar of scheduled posts; this command prints one object', fix: 'use -o json' }]);
      const shaped = fields ? pickFields(value, fields) : value;
      if (jq && (format === 'json' || format === 'ndjson')) {
        const lines = jq.run(shaped);
        if (lines.length) await writeTo(target(), lines.join('\n') + '\n');
      } else if (format === 'json' || format === 'ndjson') {
        // Piece by piece: a report of 400,000 groups is not held as one string and one buffer.
        const sink = new BatchingSink(target());
        await writeJson(sink, shaped, format === 'json' ? 2 : 0);
        await sink.end();
      }
      else if (quiet && objectOptions.id !== undefined) await writeTo(target(), objectOptions.id + '\n');
      else {
        const text = human();
        if (text) await writeTo(target(), text.replace(/\n?$/, '\n'));
      }
    },
    async report(value, rows, view) {
      if (format === 'json' || format === 'ndjson') await output.object(value, () => '');
      else await output.list(rows, view);
    },
    async document(value) {
      const readable = format === 'json' || format === 'table';
      await writeTo(target(), `${JSON.stringify(value, null, readable ? 2 : undefined)}\n`);
    },
    async data(line) {
      await writeTo(target(), line + '\n');
    },
    footer(text) {
      if (format !== 'table' || quiet) return;
      // Never wider than the terminal: a long footer breaks between its parts, not inside one.
      const width = stderr.columns ?? stdout.columns;
      const lines: string[] = [];
      for (const part of text.split(' · ')) {
        const last = lines.length - 1;
        if (last >= 0 && (!width || displayWidth(`${lines[last]} · ${part}`) <= width)) lines[last] = `${lines[last]} · ${part}`;
        else lines.push(width ? cutToWidth(part, width) : part);
      }
      // Paging, the footer belongs under the table on the same screen, not before it.
      (pager?.sink ?? stderr).write(lines.join('\n') + '\n');
    },
    info(line) {
      if (quiet) return;
      if (statusLine) statusLine.log(line);
      else stderr.write(line + '\n');
    },
    notice(line) {
      if (statusLine) statusLine.log(line);
      else stderr.write(line + '\n');
    },
    warn(line) {
      const text = colors.yellow('warning: ') + line;
      if (statusLine) statusLine.log(text);
      else stderr.write(text + '\n');
    },
    async spinner(text) {
      const { createSpinner } = await import('./spinner.js');
      return createSpinner(stderr, text, progress, colors.enabled);
    },
    rowProgress() {
      // Shown whenever stderr is a terminal; when stdout is that terminal too, the rows themselves
      // show progress and a redrawn line would only flicker between them.
      const line = createProgressLine({ stderr, stdoutIsTTY: Boolean(stdout.isTTY), enabled: !quiet && Boolean(stderr.isTTY) && !stdout.isTTY });
      let last = -Infinity;
      return {
        update(rows, total) {
          const t = now();
          if (t - last < 100) return;
          last = t;
          const pct = total ? ` (${Math.min(100, Math.floor((rows / total) * 100))}%)` : '';
          line.update(`${formatCount(rows)}${total === undefined ? '' : ` / ${formatCount(total)}`} rows${pct}`);
        },
        done: () => line.done(),
      };
    },
    statusLine() {
      const line = createProgressLine({ stderr, stdoutIsTTY: Boolean(stdout.isTTY), enabled: !quiet && Boolean(stderr.isTTY) });
      statusLine = line;
      return {
        update: (text) => line.update(text),
        clear: () => {
          line.done();
          if (statusLine === line) statusLine = undefined;
        },
      };
    },
    link,
    async close() {
      const p = pager;
      pager = undefined;
      await p?.close();
    },
  };
  return output;
}

/**
 * A TSV or table writer whose columns are chosen on the first row: --fields may name a field of
 * the rows that is not a column, and an unknown one is reported with the fields there are.
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
  };
}

function icsWriter<T>(sink: Sink, ics: NonNullable<ListView<T>['ics']>): ListWriter<T> {
  let count = 0;
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    await writeTo(sink, ics.header());
  };
  return {
    get count() {
      return count;
    },
    async write(row) {
      await start();
      count++;
      const event = ics.event(row);
      if (event) await writeTo(sink, event);
    },
    async end() {
      await start();
      await writeTo(sink, ics.footer());
    },
  };
}

function envelopeWriter(sink: Sink, envelope: NonNullable<ListView<unknown>['envelope']>): ListWriter<unknown> {
  const rows: unknown[] = [];
  return {
    get count() {
      return rows.length;
    },
    async write(row) {
      rows.push(row);
    },
    async end() {
      await writeTo(sink, JSON.stringify({ ...envelope.extra(), [envelope.key]: rows }, null, 2) + '\n');
    },
  };
}

function mapped<T>(writer: ListWriter<unknown>, toJson: ((row: T) => unknown) | undefined): ListWriter<T> {
  if (!toJson) return writer as ListWriter<T>;
  return {
    get count() {
      return writer.count;
    },
    write: (row) => writer.write(toJson(row)),
    end: () => writer.end(),
  };
}
