// The one object commands print through, and the only place that knows the output format:
// commands hand it rows (with a description of their columns) or one object, and it writes a
// table, TSV, JSON or NDJSON to stdout; everything else (progress, hints, warnings, footers)
// goes to stderr.
import { plainColors, type Colors } from './colors.js';
import { BatchingSink } from './batching-sink.js';
import { jsonArrayWriter, ndjsonWriter, tableWriter, tsvWriter, writeTo, type Column, type ListWriter, type Sink } from './writers.js';
import { createProgress, type Progress } from './progress-count.js';
import { progressLine, type ProgressLine } from './progress-line.js';
import type { Spinner } from './spinner.js';

export type Format = 'table' | 'tsv' | 'json' | 'ndjson';

export interface OutputOptions {
  stdout: Sink & { isTTY?: boolean; columns?: number };
  stderr: Sink & { isTTY?: boolean; columns?: number };
  format: Format;
  colors?: Colors;
  quiet?: boolean;
  /** Spinners and progress only when both streams are terminals. */
  progress?: boolean;
  now?: () => number;
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
}

export interface ObjectOptions {
  /** Under -q on a table or TSV: this alone. */
  id?: string;
}

export interface Output {
  readonly colors: Colors;
  readonly quiet: boolean;
  readonly progress: boolean;
  readonly stdoutIsTTY: boolean;
  /** Whether stdout carries JSON for programs (--json / -o ndjson): human text then goes to stderr. */
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
  /** "12,400 / 100,000 rows" while a long list streams to a file or a pipe. */
  rowProgress(): Progress;
  /** One redrawn status line on stderr (bulk runs). */
  statusLine(): ProgressLine;
}

export function createOutput(options: OutputOptions): Output {
  const colors = options.colors ?? plainColors;
  const quiet = options.quiet ?? false;
  const progress = options.progress ?? false;
  const { stdout, stderr, format } = options;
  const now = options.now ?? Date.now;
  const idsOnly = quiet && (format === 'table' || format === 'tsv');

  const listWriter = <T>(view: ListView<T>): ListWriter<T> => {
    const sink = new BatchingSink(stdout);
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

  const innerWriter = <T>(view: ListView<T>, sink: Sink): ListWriter<T> => {
    if (idsOnly && view.id) return lineWriter(sink, view.id);
    if (view.jsonOnly && format !== 'ndjson') return mapped(jsonArrayWriter<unknown>(sink), view.json);
    if (view.jsonLine && (format === 'ndjson' || (format === 'json' && view.endless))) return lineWriter(sink, view.jsonLine);
    switch (format) {
      case 'json':
        if (view.endless) return mapped(ndjsonWriter<unknown>(sink), view.json);
        return mapped(view.envelope ? envelopeWriter(sink, view.envelope) : jsonArrayWriter<unknown>(sink), view.json);
      case 'ndjson':
        return mapped(ndjsonWriter<unknown>(sink), view.json);
      case 'tsv':
        return tsvWriter(sink, view.columns.filter((c) => !c.tableOnly));
      case 'table':
        return view.line ? lineWriter(sink, (row) => view.line!(row, colors)) : tableWriter(sink, view.columns, colors, stdout.columns ?? 120);
    }
  };

  return {
    colors,
    quiet,
    progress,
    stdoutIsTTY: Boolean(stdout.isTTY),
    structured: format === 'json' || format === 'ndjson',
    listWriter,
    async list(rows, view) {
      const w = listWriter(view);
      try {
        for await (const row of rows) await w.write(row);
      } finally {
        await w.end();
      }
      return w.count;
    },
    async object(value, human, objectOptions = {}) {
      if (format === 'json') await writeTo(stdout, JSON.stringify(value, null, 2) + '\n');
      else if (format === 'ndjson') await writeTo(stdout, JSON.stringify(value) + '\n');
      else if (quiet && objectOptions.id !== undefined) await writeTo(stdout, objectOptions.id + '\n');
      else {
        const text = human();
        if (text) await writeTo(stdout, text.replace(/\n?$/, '\n'));
      }
    },
    async report(value, rows, view) {
      if (format === 'json' || format === 'ndjson') await writeTo(stdout, JSON.stringify(value, null, format === 'json' ? 2 : undefined) + '\n');
      else await this.list(rows, view);
    },
    async document(value) {
      const readable = format === 'json' || format === 'table';
      await writeTo(stdout, `${JSON.stringify(value, null, readable ? 2 : undefined)}\n`);
    },
    async data(line) {
      await writeTo(stdout, line + '\n');
    },
    footer(text) {
      if (format === 'table' && !quiet) stderr.write(text + '\n');
    },
    info(line) {
      if (!quiet) stderr.write(line + '\n');
    },
    notice(line) {
      stderr.write(line + '\n');
    },
    warn(line) {
      stderr.write(colors.yellow('warning: ') + line + '\n');
    },
    async spinner(text) {
      const { createSpinner } = await import('./spinner.js');
      return createSpinner(stderr, text, progress, colors.enabled);
    },
    rowProgress() {
      // On a terminal the rows themselves show progress, and a redrawn line would tear the table.
      return createProgress(stderr, !quiet && Boolean(stderr.isTTY) && !stdout.isTTY, now);
    },
    statusLine() {
      return progressLine(stderr, progress && !quiet);
    },
  };
}

/** One line per row (ids under -q, log lines on a terminal); a row with nothing to show is skipped. */
function lineWriter<T>(sink: Sink, render: (row: T) => string): ListWriter<T> {
  let count = 0;
  return {
    get count() {
      return count;
    },
    async write(row) {
      count++;
      const line = render(row);
      if (line) await writeTo(sink, line + '\n');
    },
    async end() {},
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
